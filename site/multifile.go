package site

import (
	"slices"

	"github.com/sluice-project/sluice/page"
)

// This file is WC Cleaner's multiple-file cleaning (Vít Baisa's thesis, section
// 2.4, seeds/wc-cleaner-web-content-cleaning-thesis.txt): the page to clean and
// a reference page of the same site are walked together, level by level from
// <body> down (diffCleanNode). While the two levels agree, the walk goes down
// into each pair of children; where they differ (diffCleanLowestLevel), the
// children of the page are mapped in order onto children of the reference of
// the same tag, and the text the two share is removed. What remains is the
// page's own text.
//
// Here the DOM is the page.Node table and the text is the blocks: a level
// is the list of an element's children that hold text (elements, by tag)
// and of the blocks directly in it (text nodes); elements without text
// (images, line breaks, empty spacers) are left out, as WC Cleaner leaves
// out white-space text nodes, so that they do not make two levels differ.
// "Sharing text" is having blocks of the same normalised text (TextHash). WC Cleaner also cut
// common parts within a text ("posted by Jack" against "posted by
// anonymous" leaves "Jack"); blocks are the unit of everything after
// segmentation here, so a block is common or not as a whole.

// MultiFile compares page p with a reference page ref of the same site and
// returns, for every block of p, whether it is common to both (true: the
// template WC Cleaner removes). p and ref must not be the same page, or
// everything is common.
func MultiFile(p, ref *page.Page) []bool {
	if len(p.Nodes) == 0 || len(ref.Nodes) == 0 {
		return make([]bool, len(p.Blocks))
	}
	return diffFrom(newTree(p), newTree(ref), p.Body, ref.Body)
}

// diffFrom is the level walk of page tree doc against reference tree ref,
// from node d of the page and node r of the reference (the bodies, or the
// target nodes of the from-target mode).
func diffFrom(doc, ref *tree, d, r int32) []bool {
	common := make([]bool, len(doc.p.Blocks))
	if len(doc.p.Blocks) == 0 || len(ref.p.Blocks) == 0 || !doc.valid(d) || !ref.valid(r) {
		return common
	}
	s := &mfState{doc: doc, ref: ref, common: common}
	s.diff(d, r, 0)
	return common
}

// Reference returns the index of the reference page among pages of the
// given sizes (bytes of HTML, say): the page of median size, which WC
// Cleaner takes as the one most like the regular pages of a site, since
// the odd ones (indexes, error pages, site maps) sit at either end of the
// sorted sizes. Ties keep the earlier page. It returns -1 for no page.
func Reference(sizes []int) int {
	if len(sizes) == 0 {
		return -1
	}
	idx := make([]int, len(sizes))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return sizes[a] - sizes[b] })
	return idx[(len(idx)-1)/2]
}

// maxDiffDepth bounds the recursion of the level walk (the parser already
// refuses trees deeper than 512).
const maxDiffDepth = 1024

// tree is the view of a page that the level walk needs.
type tree struct {
	p *page.Page
	// text is TextHash of every block.
	text []uint64
	// children lists each node's items: element children holding a block
	// (as node index ≥ 0) and blocks directly in the node (as -1-block),
	// in document order.
	children [][]int32
}

func newTree(p *page.Page) *tree {
	t := &tree{p: p, text: make([]uint64, len(p.Blocks)), children: make([][]int32, len(p.Nodes))}
	owns := make([]int32, len(p.Nodes)) // blocks whose container is in the subtree
	first := make([]int32, len(p.Nodes))
	for i := range first {
		first[i] = -1
	}
	for i := range p.Blocks {
		t.text[i] = TextHash(p.Blocks[i].Text)
		n := p.Blocks[i].Node
		if n < 0 || int(n) >= len(p.Nodes) {
			continue
		}
		owns[n]++
		if first[n] < 0 {
			first[n] = int32(i)
		}
	}
	// Children follow their parents in p.Nodes: accumulate bottom-up.
	for c := len(p.Nodes) - 1; c > 0; c-- {
		par := p.Nodes[c].Parent
		if par < 0 || int(par) >= c {
			continue
		}
		owns[par] += owns[c]
		if first[c] >= 0 && (first[par] < 0 || first[c] < first[par]) {
			first[par] = first[c]
		}
	}
	// Items in document order: the blocks directly in a node and the
	// subtrees of its children are disjoint runs of blocks, so order by
	// the first block of each.
	for c := 1; c < len(p.Nodes); c++ {
		par := p.Nodes[c].Parent
		if owns[c] > 0 && par >= 0 && int(par) < c {
			t.children[par] = append(t.children[par], int32(c))
		}
	}
	for i := range p.Blocks {
		n := p.Blocks[i].Node
		if n >= 0 && int(n) < len(p.Nodes) {
			t.children[n] = append(t.children[n], -1-int32(i))
		}
	}
	pos := func(it int32) int32 {
		if it < 0 {
			return -1 - it
		}
		return first[it]
	}
	for n, items := range t.children {
		if len(items) > 1 {
			slices.SortFunc(items, func(a, b int32) int { return int(pos(a) - pos(b)) })
			t.children[n] = items
		}
	}
	return t
}

// valid reports whether n is a node of the tree.
func (t *tree) valid(n int32) bool { return n >= 0 && int(n) < len(t.children) }

// kind is what the level comparison sees of an item: the tag of an
// element, "" for a text.
func (t *tree) kind(it int32) string {
	if it < 0 {
		return ""
	}
	return t.p.Nodes[it].Tag
}

// blocks calls fn for every block in item it's subtree.
func (t *tree) blocks(it int32, fn func(b int)) {
	if it < 0 {
		fn(int(-1 - it))
		return
	}
	for _, c := range t.children[it] {
		t.blocks(c, fn)
	}
}

type mfState struct {
	doc, ref *tree
	common   []bool
	set      map[uint64]struct{} // scratch for sharedText
}

// diff is diffCleanNode: walk down while the levels of d and r agree.
func (s *mfState) diff(d, r int32, depth int) {
	di, ri := s.doc.children[d], s.ref.children[r]
	if depth >= maxDiffDepth || !s.equalLevel(di, ri) {
		s.lowest(di, ri)
		return
	}
	for k, a := range di {
		b := ri[k]
		if a < 0 {
			if s.doc.text[-1-a] == s.ref.text[-1-b] && s.doc.text[-1-a] != 0 {
				s.common[-1-a] = true
			}
			continue
		}
		s.diff(a, b, depth+1)
	}
}

// equalLevel is isEqualLevel: the same number of items, of the same kinds
// in the same order.
func (s *mfState) equalLevel(di, ri []int32) bool {
	if len(di) != len(ri) {
		return false
	}
	for k := range di {
		if s.doc.kind(di[k]) != s.ref.kind(ri[k]) {
			return false
		}
	}
	return true
}

// lowest is diffCleanLowestLevel (the thesis's Algorithm 2): map each item
// of the page, in order, onto the next item of the reference of the same
// kind that shares text with it, and remove the shared text.
func (s *mfState) lowest(docList, refList []int32) {
	j := 0
	for _, a := range docList {
		for k := j; k < len(refList); k++ {
			b := refList[k]
			if s.doc.kind(a) != s.ref.kind(b) {
				continue
			}
			if s.sharedText(a, b) > 0 {
				j = k + 1
				break
			}
		}
	}
}

// sharedText is deleteEqualNodes: it marks the blocks of page item a whose
// text occurs among the blocks of reference item b, and returns how many.
func (s *mfState) sharedText(a, b int32) int {
	if s.set == nil {
		s.set = make(map[uint64]struct{})
	}
	clear(s.set)
	s.ref.blocks(b, func(i int) {
		if h := s.ref.text[i]; h != 0 {
			s.set[h] = struct{}{}
		}
	})
	n := 0
	s.doc.blocks(a, func(i int) {
		if _, ok := s.set[s.doc.text[i]]; ok {
			s.common[i] = true
			n++
		}
	})
	return n
}
