package filter

import (
	"github.com/sluice-project/sluice/page"
)

// The density target node of WC Cleaner (Vít Baisa, "Web Content Cleaning",
// master's thesis, Masaryk University 2009, section 2.3,
// Algorithm 1, getTargetNode): the single element of the page that holds
// the main text.
//
// density(node) = characters / structural elements in the node's subtree,
// the structural elements being the thesis's structureTags (section 2.5),
// counted by segment into page.Node.Structural, the node itself included.
// From <body>, the search moves to the element child with the highest
// density (the first one on a tie) as long as that child holds more than
// half of the current node's characters (DescendShare); the node where it stops is the
// target. Blocks inside the target score 1, all others 0.
//
// Details of this implementation:
//   - characters are Block.Chars, which excludes white space; WC Cleaner
//     counts the trimmed text of non-empty text nodes, inner spaces
//     included. The ratios differ little.
//   - a subtree without structural elements (an inline element) divides by
//     1, not 0.
//   - with an active mask, inactive blocks add no characters, and a
//     structural element whose blocks are all inactive no longer counts
//     (it was removed with its text); elements that never held text (empty
//     cells, <br>, <hr>) count as they were.
//   - a page without element table has no target: every block scores 1.
//   - SparseDensity is WC Cleaner's -r/--sparse mode (SPARSE.DENSITY = 10
//     in wclib.py): pages whose target density is under it are taken for
//     sparse pages (tables, lists, "no results" pages) and dropped whole.
//     That density is measured in Latin characters: Block.Chars, with
//     each Han, kana or Thai character counted as PerWord(Latin)/PerWord
//     of its script characters (3.06 for Chinese; LatinChars); counted
//     one each, Chinese articles fell under it on 30 of 150 xmu-news-zh
//     pages. Text without those characters is measured as before.
//     The search itself compares densities and shares within one page,
//     which do not depend on the unit, and still counts Block.Chars.
//     The thesis (table 3.1) found the mode to cost F-score, so "targetnode"
//     leaves it off and "targetnode-sparse" turns it on. The thesis does not
//     say which node's density is compared; the target's is used here.
//
// Cost: prefix sums over blocks, one pass over the nodes when an active
// mask is given, and a descent that visits each element child of the nodes
// on the path once (children are found by jumping over subtrees with
// Node.Elements): linear in the page size.

// TargetNode is WC Cleaner's single-file cleaning heuristic.
type TargetNode struct {
	// Label is the name the filter reports.
	Label string
	// SparseDensity, when positive, drops every block of a page whose
	// target node is less dense.
	SparseDensity float64
	// IntoLeaves lets the search descend into an element with no
	// structural elements below it (a single <p>) while its siblings hold
	// text too, as Algorithm 1 does literally. By default the search
	// stops at the container instead: a page whose article is a run of
	// sibling paragraphs and headings directly in <body> or a <div>, with
	// one long paragraph, would otherwise lose all but that paragraph.
	IntoLeaves bool
	// DescendShare is the share of the current node's characters that a
	// child must hold (strictly more) for the search to move into it;
	// values outside (0, 1) mean Baisa's one half.
	DescendShare float64
}

// wccSparseDensity is SPARSE.DENSITY in WC Cleaner's wclib.py.
const wccSparseDensity = 10

// wccDescendShare is the share of Algorithm 1: a child holding more than
// half of its parent's characters.
const wccDescendShare = 0.5

// NewTargetNode returns the target node filter without the sparse mode.
func NewTargetNode() *TargetNode { return &TargetNode{Label: "targetnode"} }

func init() {
	RegisterParams("targetnode", targetNodeParams(0), targetNodeMaker("targetnode"))
	RegisterParams("targetnode-sparse", targetNodeParams(wccSparseDensity), targetNodeMaker("targetnode-sparse"))
}

// targetNodeParams lists the parameters of the target node filters, with
// sparse the default of sparse_density.
func targetNodeParams(sparse float64) []Param {
	return []Param{
		{Name: "sparse_density", Default: sparse, Min: 0, Max: 1e6,
			Doc: "drop the whole page when its target node is less dense (Latin characters per structural element, a Chinese character 3.06; 0: never)"},
		{Name: "into_leaves", Kind: Bool, Default: 0, Min: 0, Max: 1,
			Doc: "let the search descend into a single paragraph whose siblings hold text too, as Algorithm 1 does"},
		{Name: "descend_share", Default: wccDescendShare, Min: 0.05, Max: 0.95,
			Doc: "share of the current node's characters a child must hold for the search to descend into it"},
	}
}

// targetNodeMaker returns the constructor of a target node filter.
func targetNodeMaker(label string) func(Params) Filter {
	return func(p Params) Filter {
		return &TargetNode{Label: label, SparseDensity: p["sparse_density"], IntoLeaves: p["into_leaves"] != 0,
			DescendShare: p["descend_share"]}
	}
}

// Name returns the filter's label.
func (f *TargetNode) Name() string {
	if f.Label == "" {
		return "targetnode"
	}
	return f.Label
}

// Target returns the index in p.Nodes of the target node for the given
// active mask, its density for the sparse test (latinDensity), and whether
// there is one (false when p has no element table).
func (f *TargetNode) Target(p *page.Page, active []bool) (node int32, density float64, ok bool) {
	blocks, nodes := p.Blocks, p.Nodes
	nb, nn := len(blocks), len(nodes)
	if nn == 0 {
		return -1, 0, false
	}

	// chars[i] is the characters of the active blocks before block i.
	chars := make([]int32, nb+1)
	for i := range blocks {
		chars[i+1] = chars[i]
		if ccbActive(active, i) {
			chars[i+1] += max(blocks[i].Chars, 0)
		}
	}
	blockRange := func(nd *page.Node) (int32, int32) {
		lo := min(max(nd.First, 0), int32(nb))
		return lo, min(max(nd.End, lo), int32(nb))
	}
	charsOf := func(n int32) int32 {
		lo, hi := blockRange(&nodes[n])
		return chars[hi] - chars[lo]
	}

	structural := func(n int32) int32 { return nodes[n].Structural }
	if active != nil {
		s := wccActiveStructural(p, active)
		structural = func(n int32) int32 { return s[n] }
	}
	densityOf := func(n int32) float64 {
		return float64(charsOf(n)) / float64(max(structural(n), 1))
	}

	share := f.DescendShare
	if !(share > 0 && share < 1) {
		share = wccDescendShare
	}
	cur := p.Body
	if cur < 0 || int(cur) >= nn {
		cur = 0
	}
	for {
		best, bestDensity := int32(-1), -1.0
		end := int(cur) + int(max(nodes[cur].Elements, 1))
		for c := int(cur) + 1; c < min(end, nn); {
			if nodes[c].Parent == cur {
				if d := densityOf(int32(c)); d > bestDensity {
					best, bestDensity = int32(c), d
				}
			}
			c += int(max(nodes[c].Elements, 1))
		}
		if best < 0 || float64(charsOf(best)) <= share*float64(charsOf(cur)) {
			break
		}
		if !f.IntoLeaves && structural(best) <= 1 && charsOf(best) < charsOf(cur) {
			// A text-level element (one paragraph, one heading): its
			// siblings that hold text belong to the same content.
			break
		}
		cur = best
	}
	return cur, latinDensity(p, active, cur, structural(cur)), true
}

// latinDensity is the density of node n for the sparse test, in Latin
// characters per structural element: the characters of its active blocks
// (Block.Chars, the unit of WC Cleaner's SPARSE.DENSITY), with each Han,
// kana or Thai character counted as the Latin characters of its share of
// a word (LatinChars). Counted as one character, a Chinese character
// (1.6 a word, where English has 4.9) made a Chinese article a third as
// dense as its English translation, and a sparse page.
func latinDensity(p *page.Page, active []bool, n, structural int32) float64 {
	nd := &p.Nodes[n]
	lo := min(max(nd.First, 0), int32(len(p.Blocks)))
	hi := min(max(nd.End, lo), int32(len(p.Blocks)))
	var chars float64
	for i := lo; i < hi; i++ {
		if ccbActive(active, int(i)) {
			chars += LatinChars(&p.Blocks[i])
		}
	}
	return chars / float64(max(structural, 1))
}

// wccActiveStructural recounts Node.Structural with the structural elements
// whose blocks are all inactive left out.
func wccActiveStructural(p *page.Page, active []bool) []int32 {
	blocks, nodes := p.Blocks, p.Nodes
	nb, nn := len(blocks), len(nodes)
	buf := make([]int32, nn+nb+1)
	s, alive := buf[:nn], buf[nn:]
	for i := range blocks {
		alive[i+1] = alive[i]
		if ccbActive(active, i) {
			alive[i+1]++
		}
	}
	// Own structural count (0 or 1) of every node: its subtree count less
	// its children's. Children come after their parent in pre-order.
	for n := range nodes {
		s[n] = nodes[n].Structural
	}
	for n := nn - 1; n > 0; n-- {
		if par := nodes[n].Parent; par >= 0 && int(par) < n {
			s[par] -= nodes[n].Structural
		}
	}
	for n := range nodes {
		nd := &nodes[n]
		lo := min(max(nd.First, 0), int32(nb))
		hi := min(max(nd.End, lo), int32(nb))
		if hi > lo && alive[hi] == alive[lo] {
			s[n] = 0 // all its text was removed
		}
		s[n] = min(max(s[n], 0), 1)
	}
	// Sum back up the tree.
	for n := nn - 1; n > 0; n-- {
		if par := nodes[n].Parent; par >= 0 && int(par) < n {
			s[par] += s[n]
		}
	}
	return s
}

// Score implements Filter.
func (f *TargetNode) Score(p *page.Page, active []bool, out []float64) {
	target, density, ok := f.Target(p, active)
	keepAll := !ok
	dropAll := ok && f.SparseDensity > 0 && density < f.SparseDensity
	var lo, hi int32
	if ok {
		lo, hi = p.Nodes[target].First, p.Nodes[target].End
	}
	for i := range p.Blocks {
		if !ccbActive(active, i) {
			continue
		}
		switch {
		case keepAll:
			out[i] = 1
		case dropAll:
			out[i] = 0
		case int32(i) >= lo && int32(i) < hi:
			out[i] = 1
		default:
			out[i] = 0
		}
	}
}
