package features

import "github.com/sluice-project/sluice/crf"

// Item: the part of its repeated item a block is, and the page's repeated
// groups (see item.go). For a block in a repeated item: "it.idx=N" and
// "it.ridx=N", its place among the item's blocks from the first and from
// the last; "it.same=R", the share of the run's items that hold the same
// text, digits aside (furniture such as "Add to cart" near 1, a title
// near 1/n); "it.rank=N", the rank of the run among the page's runs by
// words (0 the main one); "it.ord=N", the item's place in its run (0 the
// first post of a thread). For every block: "pg.rep=R", the largest run's
// share of the page's words, "pg.items=N", its number of items, and
// "pg.price=N", the page's short blocks with a currency sign and a digit:
// facts that stand for the page's type, so that the trees can weigh the
// other evidence by it.
const Item Group = "item"

var itemGroup = groupSpec{
	group: Item,
	keys:  []string{"it.idx", "it.ridx", "it.same", "it.rank", "it.ord", "pg.rep", "pg.items", "pg.price"},
	buckets: []bucketDef{
		{"it.idx", []float64{0, 1, 2, 3, 4, 6}},
		{"it.ridx", []float64{0, 1, 2, 3, 4, 6}},
		{"it.same", []float64{0, .1, .2, .35, .5, .7, .9}},
		{"it.rank", []float64{0, 1, 2, 3, 5}},
		{"it.ord", []float64{0, 1, 2, 3, 5, 10, 20}},
		{"pg.rep", []float64{0, .05, .1, .2, .3, .4, .5, .6, .8}},
		{"pg.items", []float64{0, 3, 5, 8, 12, 20, 30, 50}},
		{"pg.price", []float64{0, 1, 2, 3, 5, 10, 20, 50}},
	},
	size:  [2]int{6, 8},
	needs: passRepeats,
	page: func(s *scratch, bk []*Bucket) {
		s.items(s.p)
		pg := &s.itemPg
		s.itemNames = [3]string{bk[5].Name(pg.topShare), bk[6].Int(pg.topItems), bk[7].Int(pg.prices)}
	},
	emit: func(_ *Extractor, s *scratch, i int, bk []*Bucket, dst []crf.Attr) []crf.Attr {
		dst = append(dst, crf.Attr{Name: s.itemNames[0]}, crf.Attr{Name: s.itemNames[1]}, crf.Attr{Name: s.itemNames[2]})
		it := &s.item[i]
		if it.item < 0 {
			return dst
		}
		nd := &s.p.Nodes[it.item]
		return append(dst,
			crf.Attr{Name: bk[0].Int(int32(i) - nd.First)},
			crf.Attr{Name: bk[1].Int(nd.End - 1 - int32(i))},
			crf.Attr{Name: bk[2].Name(float64(it.same))},
			crf.Attr{Name: bk[3].Int(it.rank)},
			crf.Attr{Name: bk[4].Int(s.ord[it.item])})
	},
}
