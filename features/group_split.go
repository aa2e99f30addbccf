package features

import "github.com/sluice-project/sluice/crf"

// Split: the tags crossed since the previous block. "split.p=N",
// "split.br=N", "split.hr=N", "split.class-inline=N", "split.class-block=N"
// when the count is positive, and "split.tags=N", the total, always.
const Split Group = "split"

var splitGroup = groupSpec{
	group: Split,
	keys:  []string{"split.p", "split.br", "split.hr", "split.class-inline", "split.class-block", "split.tags"},
	buckets: []bucketDef{
		{"split.p", counts3}, {"split.br", counts3}, {"split.hr", counts3},
		{"split.class-inline", fewSplit}, {"split.class-block", fewSplit},
		{"split.tags", []float64{0, 1, 2, 3, 4, 5, 6, 8, 10, 15, 20}},
	},
	size:   [2]int{3, 6},
	window: 2,
	emit: func(_ *Extractor, s *scratch, i int, bk []*Bucket, dst []crf.Attr) []crf.Attr {
		sp := &s.p.Blocks[i].Split
		for k, v := range [...]int32{sp.P, sp.BR, sp.HR, sp.Inline, sp.Block} {
			if v > 0 {
				dst = append(dst, crf.Attr{Name: bk[k].Int(v)})
			}
		}
		return append(dst, crf.Attr{Name: bk[5].Int(sp.Tags)})
	},
}
