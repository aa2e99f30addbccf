package features

import "github.com/sluice-project/sluice/crf"

// Repeat: the repeated item a block sits in (see repeat.go): the nearest
// element, at most six above the block's container, with at least two
// siblings of the same tag and class. "rep.n=N" siblings, "rep.up=N"
// elements above the container, "rep.blocks=N" and "rep.words=N" of the
// item, "rep.share=R" the run's share of the page's words; "rep.none" when
// there is no such item.
const Repeat Group = "repeat"

var repeatGroup = groupSpec{
	group: Repeat,
	keys:  []string{"rep.n", "rep.up", "rep.blocks", "rep.words", "rep.share", "rep.none"},
	buckets: []bucketDef{
		{"rep.n", []float64{3, 4, 5, 6, 8, 10, 15, 20, 30, 50}},
		{"rep.up", []float64{0, 1, 2, 3, 4, 5, 6}},
		{"rep.blocks", []float64{0, 1, 2, 3, 4, 5, 6, 8, 10, 15}},
		{"rep.words", []float64{0, 1, 2, 3, 5, 8, 12, 20, 30, 50, 80, 120}},
		{"rep.share", []float64{0, .02, .05, .1, .2, .3, .4, .5, .6, .8}},
	},
	size:  [2]int{5, 5},
	needs: passRepeats,
	emit: func(_ *Extractor, s *scratch, i int, bk []*Bucket, dst []crf.Attr) []crf.Attr {
		p := s.p
		item, up, run := s.repeatItem(p, p.Blocks[i].Node, false)
		if item < 0 {
			return append(dst, crf.Attr{Name: "rep.none"})
		}
		nd := &p.Nodes[item]
		return append(dst,
			crf.Attr{Name: bk[0].Int(run.count)},
			crf.Attr{Name: bk[1].Int(int32(up))},
			crf.Attr{Name: bk[2].Int(nd.End - nd.First)},
			crf.Attr{Name: bk[3].Int(s.words(nd))},
			crf.Attr{Name: bk[4].Name(safeDiv(float64(run.words), float64(s.docWords)))})
	},
}
