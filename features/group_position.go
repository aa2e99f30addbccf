package features

import "github.com/sluice-project/sluice/crf"

// Position: "pos=0.3", the block's relative position in tenths, and
// "pos.first", "pos.last".
const Position Group = "position"

var positionGroup = groupSpec{
	group:   Position,
	keys:    []string{"pos", "pos.first", "pos.last"},
	buckets: []bucketDef{{"pos", tenths}},
	size:    [2]int{1, 3},
	emit: func(_ *Extractor, s *scratch, i int, bk []*Bucket, dst []crf.Attr) []crf.Attr {
		n := len(s.p.Blocks)
		dst = append(dst, crf.Attr{Name: bk[0].Name(float64(i) / float64(n))})
		if i == 0 {
			dst = append(dst, crf.Attr{Name: "pos.first"})
		}
		if i == n-1 {
			dst = append(dst, crf.Attr{Name: "pos.last"})
		}
		return dst
	},
}
