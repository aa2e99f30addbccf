package features

import "github.com/sluice-project/sluice/crf"

// Duplicate: "dup=N", the number of other blocks of the page with the same
// letters and digits (case folded; blocks with neither compare all their
// characters), and "dup.first" on the first of such a group.
const Duplicate Group = "duplicate"

var duplicateGroup = groupSpec{
	group:   Duplicate,
	keys:    []string{"dup", "dup.first"},
	buckets: []bucketDef{{"dup", []float64{0, 1, 2, 3, 5, 10, 20}}},
	size:    [2]int{1, 2},
	needs:   passDuplicates,
	emit: func(_ *Extractor, s *scratch, i int, bk []*Bucket, dst []crf.Attr) []crf.Attr {
		st := &s.stats[i]
		dst = append(dst, crf.Attr{Name: bk[0].Int(st.dup)})
		if st.first {
			dst = append(dst, crf.Attr{Name: "dup.first"})
		}
		return dst
	},
}
