package label

import (
	"golang.org/x/net/html/atom"

	"github.com/sluice-project/sluice/page"
)

// Alt text alone. segment keeps an image's alt text as text (so that a
// caption-less picture in a sentence still reads), and a block holding
// nothing but one image's alt text is its own block, whose element is the
// <img>. In the main style such a block is not content: on product grids,
// listings and galleries the alt repeats or describes the card ("...shown
// in black"), and the gold keeps the card's title instead. On the WCXB
// development pages, dropping the kept ones removed 9,316 wrong words for
// 1,852 right ones, 65 of them on articles (docs/page-types.md, "Naive
// rules"); as a rule after the model, on the held-out probabilities of a
// cross-validation, wcxb-dev gained 0.17 (collection 1.26, listing 0.80)
// and no set lost ("Rules replayed held out"). CleanEval's gold keeps
// such text (cleaneval-dev page 47, whose one paragraph is an alt), so the
// cleaneval style keeps the model's verdict.

// DropAltAlone sets the content probability of every block that is an
// image's alt text alone to 0, in place, unless such blocks hold
// altMaxShare of the page's expected content words or more (a page whose
// only words are a picture's alt text keeps them); marg is indexed by
// block, other is the index of page.Other.
func DropAltAlone(p *page.Page, marg [][]float64, other int) {
	if other < 0 || len(marg) != len(p.Blocks) {
		return
	}
	var alt, all float64
	for i := range p.Blocks {
		w := (1 - marg[i][other]) * float64(p.Blocks[i].Words)
		all += w
		if altAlone(p, i) {
			alt += w
		}
	}
	if alt == 0 || alt >= altMaxShare*all {
		return
	}
	for i := range p.Blocks {
		if altAlone(p, i) {
			dropBlock(marg[i], other)
		}
	}
}

// altMaxShare: see DropAltAlone.
const altMaxShare = 0.5

// altAlone reports whether block i is an image's alt text alone: its
// element is the <img>.
func altAlone(p *page.Page, i int) bool {
	n := p.Blocks[i].Node
	return n >= 0 && int(n) < len(p.Nodes) && p.Nodes[n].Atom == atom.Img
}
