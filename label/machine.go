package label

import (
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/textpattern"
)

// Machine text. A block whose text is mostly UUIDs is a page's machinery
// (the anti-scraping spans of a marketplace's "similar items", which a
// style sheet moves off the screen, between visible letters), never what
// a reader came for, in any style, though the model, which sees a block
// of many words, may like it. On WCXB's pages it is three eBay product
// pages (in-sample, wcxb-dev +0.03).

// DropMachineText sets the content probability of every block of p whose
// text is UUIDs for half its bytes or more to 0, in place; marg is indexed
// by block, other is the index of page.Other.
func DropMachineText(p *page.Page, marg [][]float64, other int) {
	if other < 0 || len(marg) != len(p.Blocks) {
		return
	}
	for i := range p.Blocks {
		if t := p.Blocks[i].Text; len(t) >= 36 && 2*textpattern.UUIDBytes(t) >= len(t) {
			dropBlock(marg[i], other)
		}
	}
}

// dropBlock makes a block's marginals m sure it is boilerplate: other is
// the index of page.Other.
func dropBlock(m []float64, other int) {
	clear(m)
	m[other] = 1
}
