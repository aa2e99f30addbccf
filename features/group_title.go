package features

import (
	"slices"

	"golang.org/x/net/html/atom"

	"github.com/sluice-project/sluice/crf"
	"github.com/sluice-project/sluice/cuetable"
)

// Title: how a block's words match the page's title (page.Meta.Title: the
// CleanEval wrapper's, else <title>), which the page's author wrote apart
// from its body, site name and all (page.Meta.Headline is not used: it
// prefers the page's first h1, a block of the body). "ttl.p" is the share of
// the block's distinct tokens that are title tokens, "ttl.r" the share of
// the title's tokens that the block holds (tokens as the text cues cut
// them, any script); both only for blocks of titleTokens tokens or fewer
// sharing a token with the title. The block that matches best (the
// largest harmonic mean of the two, at least one half) is the page's
// headline, else the first block within an h1: it has "ttl.pos=at", the
// blocks before it "ttl.pos=before" and those after it "ttl.pos=after";
// without one, no attribute. The main
// content of most pages starts at its headline, in every language.
const Title Group = "title"

// titleTokens is the most tokens a title and a block read for the match:
// a headline is short, and a block much longer than it is not one.
const titleTokens = 48

// titleMatch is a block's match with the title: the shares of its tokens
// and of the title's.
type titleMatch struct{ p, r float32 }

var shareB = []float64{0, .1, .2, .3, .4, .5, .6, .7, .8, .9, 1}

var titleGroup = groupSpec{
	group: Title,
	keys:  []string{"ttl.p", "ttl.r", "ttl.pos"},
	buckets: []bucketDef{
		{"ttl.p", shareB}, {"ttl.r", shareB},
	},
	size:   [2]int{1, 3},
	window: 1,
	needs:  passNodes,
	page:   titlePage,
	emit: func(_ *Extractor, s *scratch, i int, bk []*Bucket, dst []crf.Attr) []crf.Attr {
		if s.headline < 0 {
			return dst
		}
		if m := s.ttl[i]; m.p > 0 {
			dst = append(dst, crf.Attr{Name: bk[0].Name(float64(m.p))}, crf.Attr{Name: bk[1].Name(float64(m.r))})
		}
		switch {
		case i < s.headline:
			return append(dst, crf.Attr{Name: "ttl.pos=before"})
		case i == s.headline:
			return append(dst, crf.Attr{Name: "ttl.pos=at"})
		}
		return append(dst, crf.Attr{Name: "ttl.pos=after"})
	},
}

// titlePage matches every block with the page's title and finds the
// headline block (scratch.ttl, scratch.headline).
func titlePage(s *scratch, _ []*Bucket) {
	s.headline = -1
	s.ttl = slices.Grow(s.ttl[:0], len(s.p.Blocks))[:len(s.p.Blocks)]
	clear(s.ttl)
	s.matchTitle()
	if s.headline < 0 {
		s.firstH1()
	}
}

// matchTitle sets each short block's match with the title and the
// headline, the best match of at least one half.
func (s *scratch) matchTitle() {
	s.ttlSet = s.hashTokens(s.p.Meta.Title, s.ttlSet[:0])
	if len(s.ttlSet) == 0 {
		return
	}
	best := float32(0.5)
	for i := range s.p.Blocks {
		b := &s.p.Blocks[i]
		if b.Words == 0 || b.Words > titleTokens {
			continue
		}
		hash, _ := s.tokens(i)
		s.ttlBlk = distinct(s.ttlBlk[:0], hash)
		common := 0
		for _, h := range s.ttlBlk {
			if slices.Contains(s.ttlSet, h) {
				common++
			}
		}
		if common == 0 {
			continue
		}
		m := titleMatch{p: float32(common) / float32(len(s.ttlBlk)), r: float32(common) / float32(len(s.ttlSet))}
		s.ttl[i] = m
		if f := 2 * m.p * m.r / (m.p + m.r); f > best {
			best, s.headline = f, i
		}
	}
}

// firstH1 makes the first block within an h1 the headline: for a page
// where no block matched the title (a fragment or a page without <title>,
// a title that names the site only), since the model learnt where a page's
// headline is and such a page has one too.
func (s *scratch) firstH1() {
	for i := range s.p.Blocks {
		if s.containerTags(s.p, s.p.Blocks[i].Node).has(h1Bit) {
			s.headline = i
			return
		}
	}
}

// h1Bit is h1's index in the container sets.
var h1Bit = containerIndex[atom.H1]

// hashTokens appends to dst the hashes of text's distinct tokens (of its
// first titleTokens units).
func (s *scratch) hashTokens(text string, dst []uint64) []uint64 {
	s.low = cuetable.TextTokenHashes(text, titleTokens, s.low, func(h uint64, _ int) {
		if !slices.Contains(dst, h) {
			dst = append(dst, h)
		}
	})
	return dst
}

// distinct appends to dst the distinct values of hash, in order.
func distinct(dst, hash []uint64) []uint64 {
	for _, h := range hash {
		if !slices.Contains(dst, h) {
			dst = append(dst, h)
		}
	}
	return dst
}
