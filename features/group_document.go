package features

import (
	"math"

	"github.com/sluice-project/sluice/crf"
)

// Document: "doc.words=N", "doc.sents=N", "doc.blocks=N", the same for
// every block of the page.
const Document Group = "document"

var documentGroup = groupSpec{
	group: Document,
	keys:  []string{"doc.words", "doc.sents", "doc.blocks"},
	buckets: []bucketDef{
		{"doc.words", []float64{0, 50, 100, 200, 300, 500, 750, 1000, 1500, 2000, 3000, 5000, 10000}},
		{"doc.sents", []float64{0, 5, 10, 20, 30, 50, 75, 100, 150, 200, 300, 500}},
		{"doc.blocks", []float64{0, 10, 20, 30, 50, 75, 100, 150, 200, 300, 500, 1000}},
	},
	size: [2]int{3, 3},
	page: func(s *scratch, bk []*Bucket) {
		s.doc = [3]string{bk[0].Int(s.docWords), bk[1].Int(s.docSents), bk[2].Int(int32(min(len(s.p.Blocks), math.MaxInt32)))}
	},
	emit: func(_ *Extractor, s *scratch, _ int, _ []*Bucket, dst []crf.Attr) []crf.Attr {
		return append(dst, crf.Attr{Name: s.doc[0]}, crf.Attr{Name: s.doc[1]}, crf.Attr{Name: s.doc[2]})
	},
}
