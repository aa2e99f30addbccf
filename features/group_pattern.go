package features

import "github.com/sluice-project/sluice/crf"

// Pattern: "pat=url", "pat=email", "pat=date", "pat=time", "pat=phone",
// "pat=copyright", "pat=rights" (an "all rights reserved" notice),
// "pat=placeholder" (an unfilled template variable, "{{price}}", or "Lorem
// ipsum"), from hand-written scanners keyed on digits and separators
// (patterns.go).
const Pattern Group = "pattern"

var patternGroup = groupSpec{
	group: Pattern,
	keys:  []string{"pat"},
	size:  [2]int{0, len(patternNames)},
	emit: func(_ *Extractor, s *scratch, i int, _ []*Bucket, dst []crf.Attr) []crf.Attr {
		b := &s.p.Blocks[i]
		pats := patterns(b.Text, &s.stats[i], b.Words)
		for k := 0; pats != 0; k++ {
			if pats&(1<<k) != 0 {
				dst = append(dst, crf.Attr{Name: patternNames[k]})
				pats &^= 1 << k
			}
		}
		return dst
	},
}
