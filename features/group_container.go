package features

import "github.com/sluice-project/sluice/crf"

// Container: "container=TAG" for each element around the block (p, a, li,
// td, h1, div, nav...), Victor's classes "container=class-header",
// class-bold, class-italic, class-list, class-form; "inner=TAG" for the
// innermost one ("other" for tags outside the table, "body" for the
// content root); "depth=N", its depth.
const Container Group = "container"

var containerGroup = groupSpec{
	group:   Container,
	keys:    []string{"container", "inner", "depth"},
	buckets: []bucketDef{{"depth", []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 16, 20, 25, 30}}},
	size:    [2]int{10, numContainerBits + 2},
	window:  1,
	needs:   passNodes,
	emit: func(_ *Extractor, s *scratch, i int, bk []*Bucket, dst []crf.Attr) []crf.Attr {
		p, b := s.p, &s.p.Blocks[i]
		tags := s.containerTags(p, b.Node)
		for w, word := range tags {
			for word != 0 {
				bit := trailingZeros(word)
				word &^= 1 << bit
				dst = append(dst, crf.Attr{Name: containerNames[w*64+bit]})
			}
		}
		dst = append(dst, crf.Attr{Name: innerName(p, b.Node)})
		depth := int32(0)
		if b.Node >= 0 && int(b.Node) < len(p.Nodes) {
			depth = p.Nodes[b.Node].Depth
		}
		return append(dst, crf.Attr{Name: bk[0].Int(depth)})
	},
}
