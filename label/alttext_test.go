package label

import (
	"testing"

	"golang.org/x/net/html/atom"

	"github.com/sluice-project/sluice/page"
)

// altPage is a page of three paragraphs of words words each and one block
// of altWords words that is an image's alt text alone, every block at
// content probability 0.9.
func altPage(words, altWords int32) (*page.Page, [][]float64) {
	p := &page.Page{Nodes: []page.Node{
		{Atom: atom.Body, Parent: -1},
		{Atom: atom.P, Parent: 0},
		{Atom: atom.Img, Parent: 0},
	}}
	for i := range 4 {
		b := page.Block{Node: 1, Words: words}
		if i == 2 {
			b = page.Block{Node: 2, Words: altWords}
		}
		p.Blocks = append(p.Blocks, b)
	}
	marg := make([][]float64, len(p.Blocks))
	for i := range marg {
		marg[i] = []float64{0.1, 0, 0.9, 0, 0} // other, heading, paragraph, list, continuation
	}
	return p, marg
}

func TestDropAltAlone(t *testing.T) {
	// Alt text beside the page's prose: out.
	p, marg := altPage(40, 8)
	DropAltAlone(p, marg, 0)
	if marg[2][0] != 1 || marg[2][2] != 0 {
		t.Errorf("alt block among paragraphs: marginals %v, want other 1", marg[2])
	}
	for _, i := range []int{0, 1, 3} {
		if marg[i][0] != 0.1 {
			t.Errorf("paragraph %d changed: %v", i, marg[i])
		}
	}
	// A page whose words are mostly alt text: kept as the model says.
	p, marg = altPage(3, 30)
	DropAltAlone(p, marg, 0)
	if marg[2][0] != 0.1 {
		t.Errorf("alt block holding most of the page: marginals %v, want them unchanged", marg[2])
	}
	// Marginals that do not match the page: nothing happens, nothing panics.
	p, marg = altPage(40, 8)
	DropAltAlone(p, marg[:2], 0)
	if marg[2][0] != 0.1 {
		t.Errorf("mismatched marginals were changed: %v", marg[2])
	}
}
