package features

import (
	"math"

	"github.com/sluice-project/sluice/crf"
)

// Real: a few real-valued attributes, left out when zero: "r.link" (link
// density), "r.tdens" (text density / 20, at most 1), "r.words" (log of
// words, 1 at 255 words and more), "r.pos" (relative position), "r.div" and
// "r.divrel" (div group ratio and its share of the maximum), and "r.f.NAME"
// for each filter score.
const Real Group = "real"

var realGroup = groupSpec{
	group:     Real,
	keys:      []string{"r.link", "r.tdens", "r.words", "r.pos", "r.div", "r.divrel"},
	filterKey: func(f *extFilter) string { return f.real },
	size:      [2]int{5, 6},
	needs:     passGroups | passFilters,
	emit: func(e *Extractor, s *scratch, i int, _ []*Bucket, dst []crf.Attr) []crf.Attr {
		n := len(s.p.Blocks)
		b := &s.p.Blocks[i]
		link, tdens := densities(s, i)
		dst = appendReal(dst, "r.link", link)
		dst = appendReal(dst, "r.tdens", min(tdens/20, 1))
		dst = appendReal(dst, "r.words", min(math.Log1p(float64(b.Words))/math.Log(256), 1))
		if n > 1 {
			dst = appendReal(dst, "r.pos", float64(i)/float64(n-1))
		}
		if gs := s.groupOf(b, false); gs != nil {
			ratio := safeDiv(gs.nonLink, s.nonLink)
			dst = appendReal(dst, "r.div", ratio)
			dst = appendReal(dst, "r.divrel", safeDiv(ratio, s.g.maxDiv))
		}
		for k, f := range e.filters {
			dst = appendReal(dst, f.real, s.scores[k*n+i])
		}
		return dst
	},
}

// appendReal appends a real-valued attribute, unless v is zero (or
// negative, or infinite).
func appendReal(dst []crf.Attr, name string, v float64) []crf.Attr {
	if v > 0 && !math.IsInf(v, 0) {
		dst = append(dst, crf.Attr{Name: name, Value: v})
	}
	return dst
}
