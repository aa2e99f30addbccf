package features

import (
	"slices"

	"github.com/sluice-project/sluice/crf"
)

// Headline: where a block sits in the element tree relative to the page's
// headline (the Title group's: the block that best matches <title>, else
// the first h1; found whether or not the Title group is on). The lowest
// element holding both is their common ancestor: "hl.up" is how many
// levels the block's element is below it, "hl.down" how many the
// headline's is, "hl.lca" the ancestor's share of the page's words, and
// "hl.gap" the words from the headline to the block (negative before it).
// An article's paragraphs share with its headline the article's
// container; a product page's title, price and specs sit with the
// headline in the buy box, its marketing sections and reviews in other
// branches of the page, in every language. A page without a headline has
// none of them. Off by default: held out it moved WCXB's product pages
// +0.4 and its collection pages −3.5 (docs/page-types.md).
const Headline Group = "headline"

var levelsB = []float64{0, 1, 2, 3, 4, 5, 6, 8, 10, 13, 16}

var gapB = []float64{-1000, -300, -100, -30, -10, -3, -1, 0, 1, 3, 10, 30, 100, 300, 1000}

var headlineGroup = groupSpec{
	group: Headline,
	keys:  []string{"hl.up", "hl.down", "hl.lca", "hl.gap"},
	buckets: []bucketDef{
		{"hl.up", levelsB}, {"hl.down", levelsB}, {"hl.lca", shareB}, {"hl.gap", gapB},
	},
	size: [2]int{4, 4},
	page: headlinePage,
	emit: func(_ *Extractor, s *scratch, i int, bk []*Bucket, dst []crf.Attr) []crf.Attr {
		if s.headline < 0 {
			return dst
		}
		h := &s.hl[i]
		return append(dst,
			crf.Attr{Name: bk[0].Int(h.up)}, crf.Attr{Name: bk[1].Int(h.down)},
			crf.Attr{Name: bk[2].Name(float64(h.lca))}, crf.Attr{Name: bk[3].Name(float64(h.gap))})
	},
}

// headlineRel is a block's place relative to the headline.
type headlineRel struct {
	up, down int32   // levels from the block's and the headline's element to their common ancestor
	lca      float32 // the ancestor's share of the page's words
	gap      float32 // the words from the headline's start to the block's, negative before it
}

// headlinePage sets every block's place relative to the headline
// (scratch.hl). The Title group's page pass, when the group is on, found
// the headline before it; otherwise it finds it here.
func headlinePage(s *scratch, _ []*Bucket) {
	if !s.titleGroupOn {
		titlePage(s, nil)
	}
	if s.headline < 0 {
		return
	}
	p := s.p
	n := len(p.Blocks)
	// hlWords[k] is the words of the blocks before block k.
	s.hlWords = append(s.hlWords[:0], 0)
	for i := range p.Blocks {
		s.hlWords = append(s.hlWords, s.hlWords[i]+int64(max(p.Blocks[i].Words, 0)))
	}
	total := float32(max(s.hlWords[n], 1))
	s.hl = slices.Grow(s.hl[:0], n)[:n]
	head := p.Blocks[s.headline].Node
	at := s.hlWords[s.headline]
	for i := range p.Blocks {
		up, down, lca := p.CommonAncestor(p.Blocks[i].Node, head)
		share := float32(1)
		if lca >= 0 {
			nd := &p.Nodes[lca]
			if lo, hi := int(nd.First), int(nd.End); 0 <= lo && lo <= hi && hi <= n {
				share = float32(s.hlWords[hi]-s.hlWords[lo]) / total
			}
		}
		s.hl[i] = headlineRel{up: up, down: down, lca: share, gap: float32(s.hlWords[i] - at)}
	}
}
