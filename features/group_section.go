package features

import (
	"slices"

	"github.com/sluice-project/sluice/crf"
)

// SectionCues: the text cues (TextCues) of the heading a block sits under.
// A section of boilerplate is often announced by its heading ("You may
// also like", "Customer reviews", "Comments", "相关新闻") while its own
// blocks are names, prices and teasers that say nothing; the heading may be
// many blocks above, out of the CRF's window. Each block after a heading
// (a block within h1-h6) whose text has a known token gets "ls.mean", the
// mean value of that heading's known tokens, in the text cues' buckets,
// until the next heading; a heading with no known token ends the section.
// Without a text cue table, nothing.
const SectionCues Group = "sectioncues"

var sectionCuesGroup = groupSpec{
	group: SectionCues,
	keys:  []string{"ls.mean"},
	buckets: []bucketDef{
		{"ls.mean", lcB},
	},
	size:  [2]int{1, 1},
	needs: passNodes,
	page:  sectionPage,
	emit: func(e *Extractor, s *scratch, i int, bk []*Bucket, dst []crf.Attr) []crf.Attr {
		if e.textCueH == nil || !s.secOK[i] {
			return dst
		}
		return append(dst, crf.Attr{Name: bk[0].Name(float64(s.sec[i]))})
	},
}

// sectionPage sets, for each block, the text cue mean of the heading above
// it (scratch.sec, scratch.secOK).
func sectionPage(s *scratch, _ []*Bucket) {
	n := len(s.p.Blocks)
	s.sec = slices.Grow(s.sec[:0], n)[:n]
	s.secOK = slices.Grow(s.secOK[:0], n)[:n]
	clear(s.secOK)
	if s.textCueH == nil {
		return
	}
	var cur float32
	ok := false
	for i := range s.p.Blocks {
		b := &s.p.Blocks[i]
		if s.containerTags(s.p, b.Node).has(classHeader) {
			v := s.textCueValues(i)
			cur, ok = 0, v.n > 0
			if ok {
				cur = v.sum / float32(v.n)
			}
			continue
		}
		s.sec[i], s.secOK[i] = cur, ok
	}
}
