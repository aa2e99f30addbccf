package label

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sluice-project/sluice/page"
)

// copyTree is the element tree of the copies tests:
//
//	0 body
//	├── 1 div (desktop) ── 2 div ─┬─ 3 p
//	│                             └─ 7 p
//	└── 4 div (mobile) ── 5 div ─── 6 p
func copyTree() []page.Node {
	return []page.Node{
		{Tag: "body", Parent: -1, Depth: 0},
		{Tag: "div", Parent: 0, Depth: 1},
		{Tag: "div", Parent: 1, Depth: 2},
		{Tag: "p", Parent: 2, Depth: 3},
		{Tag: "div", Parent: 0, Depth: 1},
		{Tag: "div", Parent: 4, Depth: 2},
		{Tag: "p", Parent: 5, Depth: 3},
		{Tag: "p", Parent: 2, Depth: 3},
	}
}

// copyBlock is a block of the copies tests: its element, its text and the
// model's content probability.
type copyBlock struct {
	node int32
	text string
	c    float64
}

func copyPage(blocks ...copyBlock) (*page.Page, [][]float64) {
	p := &page.Page{Nodes: copyTree()}
	marg := make([][]float64, len(blocks))
	for i, b := range blocks {
		chars := utf8.RuneCountInString(strings.ReplaceAll(b.text, " ", ""))
		p.Blocks = append(p.Blocks, page.Block{Node: b.node, Text: b.text, Words: int32(len(strings.Fields(b.text))), Chars: int32(chars)})
		marg[i] = []float64{1 - b.c, 0, b.c, 0, 0} // other, heading, paragraph, list, continuation
	}
	return p, marg
}

const (
	copyText  = "Strategically formulated with thoroughly researched actives to create a multi-correctional synergy for a complexion that glows."
	otherText = "A second paragraph of the description, long enough to count, that appears on the page only once in all."
)

// contents returns the content probability of each block.
func contents(marg [][]float64) []float64 {
	out := make([]float64, len(marg))
	for i, m := range marg {
		out[i] = 1 - m[0]
	}
	return out
}

func TestDropFarCopies(t *testing.T) {
	tests := []struct {
		name   string
		blocks []copyBlock
		want   []float64 // content probabilities after the rule
	}{
		{
			name:   "a section in the desktop and the mobile layout: the copy liked less goes",
			blocks: []copyBlock{{3, copyText, 0.7}, {6, copyText, 0.9}, {7, otherText, 0.8}},
			want:   []float64{0, 0.9, 0.8},
		},
		{
			name:   "the same but for a digit: a copy too",
			blocks: []copyBlock{{3, "Order by 12 May and " + copyText, 0.9}, {6, "Order by 13 May and " + copyText, 0.6}},
			want:   []float64{0.9, 0},
		},
		{
			name:   "the same case and letters, another punctuation: a copy too",
			blocks: []copyBlock{{3, copyText, 0.6}, {6, strings.ToUpper(copyText[:1]) + copyText[1:len(copyText)-1] + "!", 0.9}},
			want:   []float64{0, 0.9},
		},
		{
			name:   "sibling paragraphs of one container: both stay",
			blocks: []copyBlock{{3, copyText, 0.9}, {7, copyText, 0.8}},
			want:   []float64{0.9, 0.8},
		},
		{
			name:   "short lines stay",
			blocks: []copyBlock{{3, "Add to cart", 0.9}, {6, "Add to cart", 0.8}},
			want:   []float64{0.9, 0.8},
		},
		{
			name:   "no copy likely kept: the model's verdicts stay",
			blocks: []copyBlock{{3, copyText, 0.4}, {6, copyText, 0.3}},
			want:   []float64{0.4, 0.3},
		},
		{
			name:   "four copies, as a grid's cards repeat a line: all stay",
			blocks: []copyBlock{{3, copyText, 0.9}, {6, copyText, 0.8}, {7, copyText, 0.8}, {6, copyText, 0.7}},
			want:   []float64{0.9, 0.8, 0.8, 0.7},
		},
		{
			name:   "three copies: those far from the best go, its sibling stays",
			blocks: []copyBlock{{3, copyText, 0.9}, {6, copyText, 0.8}, {7, copyText, 0.8}},
			want:   []float64{0.9, 0, 0.8},
		},
	}
	for _, tt := range tests {
		p, marg := copyPage(tt.blocks...)
		DropFarCopies(p, marg, 0, nil)
		got := contents(marg)
		for i := range got {
			if d := got[i] - tt.want[i]; d > 1e-12 || d < -1e-12 {
				t.Errorf("%s: content probabilities %v, want %v", tt.name, got, tt.want)
				break
			}
		}
		for i, m := range marg {
			var sum float64
			for _, v := range m {
				sum += v
			}
			if sum < 1-1e-9 || sum > 1+1e-9 {
				t.Errorf("%s: block %d's marginals %v do not sum to 1", tt.name, i, m)
			}
		}
	}
}

func TestDropFarCopiesBadInput(t *testing.T) {
	// Marginals that do not match the page, and elements outside the
	// page's nodes: nothing panics, nothing changes.
	p, marg := copyPage(copyBlock{3, copyText, 0.9}, copyBlock{6, copyText, 0.8})
	DropFarCopies(p, marg[:1], 0, nil)
	if got := contents(marg); got[0] != 0.9 || got[1] != 0.8 {
		t.Errorf("mismatched marginals were changed: content probabilities %v", got)
	}
	p, marg = copyPage(copyBlock{3, copyText, 0.9}, copyBlock{6, copyText, 0.8})
	p.Blocks[1].Node = 99
	DropFarCopies(p, marg, 0, nil)
	if got := contents(marg); got[0] != 0.9 || got[1] != 0.8 {
		t.Errorf("a block outside the nodes: content probabilities %v, want them unchanged", got)
	}
	p, marg = copyPage(copyBlock{3, copyText, 0.9}, copyBlock{6, copyText, 0.8})
	p.Nodes[6].Parent = 42 // a broken tree ends the walk up
	DropFarCopies(p, marg, 0, &copyScratch{})
	p, marg = copyPage(copyBlock{3, copyText, 0.9}, copyBlock{6, copyText, 0.8})
	p.Nodes[0].Parent, p.Nodes[0].Depth = 5, 3 // a cycle, and depths that lie
	DropFarCopies(p, marg, 0, nil)
}

func TestCommonAncestorLevels(t *testing.T) {
	p := &page.Page{Nodes: copyTree()}
	for _, tt := range []struct {
		a, b int32
		want int
	}{
		{3, 6, 3}, // p under body, through two divs
		{6, 3, 3},
		{3, 7, 1}, // siblings
		{3, 3, 0},
		{2, 3, 0}, // a holds b
		{3, 2, 1},
		{3, 0, 3},
		{3, -1, 0},
	} {
		if got, _, _ := p.CommonAncestor(tt.a, tt.b); int(got) != tt.want {
			t.Errorf("CommonAncestor(%d, %d): %d levels up, want %d", tt.a, tt.b, got, tt.want)
		}
	}
	// Two leaves at the bottom of a chain 2,000 elements deep: the walk
	// is not cut short by its bound.
	const deep = 2000
	p = &page.Page{}
	for i := range deep {
		p.Nodes = append(p.Nodes, page.Node{Parent: int32(i - 1), Depth: int32(i)})
	}
	p.Nodes = append(p.Nodes, page.Node{Parent: deep - 1, Depth: deep}, page.Node{Parent: deep - 1, Depth: deep})
	if got, _, _ := p.CommonAncestor(deep, deep+1); got != 1 {
		t.Errorf("two leaves of one parent in a deep chain: %d levels, want 1", got)
	}
	if got, _, _ := p.CommonAncestor(deep, 0); got != deep {
		t.Errorf("a deep leaf and the root: %d levels, want %d", got, deep)
	}
}
