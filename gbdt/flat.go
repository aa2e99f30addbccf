package gbdt

import "math"

// The trees as Margin and Margins walk them: each tree laid out as a
// complete binary tree of its depth in heap order (the children of split i
// are 2i+1 and 2i+2), its splits in Model.splits and its leaves in
// Model.leaves. A walk needs no child indices and no test for leaves: it
// takes the tree's depth in steps from split 0, and the split it would
// reach next, less the number of splits, is its leaf. A leaf above the
// tree's depth becomes splits that send every value left, down to the
// leftmost leaf below it, which holds its value (the leaves right of the
// path are unreachable and hold it too). A split is 8 bytes and a leaf 8,
// so the 150 trees of depth 5 of the labeller's trees stage take 75 KB
// where their nodes take 270 KB.

// heapSplit is a split of the heap layout: values <= threshold go left.
// feature is the feature's index when missing values go right and its
// complement (negative) when they go left.
type heapSplit struct {
	feature   int32
	threshold float32
}

// heapTree is where a tree's splits and leaves start in Model.splits and
// Model.leaves, and its depth: 1<<depth−1 splits and 1<<depth leaves.
type heapTree struct {
	splits, leaves int32
	depth          int32
}

// everyLeft is the split that sends every value left, missing ones too.
var everyLeft = heapSplit{feature: ^0, threshold: float32(math.Inf(1))}

// addHeap lays out tree t (its nodes, children indices within it) of the
// given depth in heap order.
func (m *Model) addHeap(t []node, depth int32) {
	h := heapTree{splits: int32(len(m.splits)), leaves: int32(len(m.leaves)), depth: depth}
	m.heap = append(m.heap, h)
	m.deepest = max(m.deepest, depth)
	m.splits = append(m.splits, make([]heapSplit, 1<<depth-1)...)
	m.leaves = append(m.leaves, make([]float64, 1<<depth)...)
	splits, leaves := m.splits[h.splits:], m.leaves[h.leaves:]
	var fill func(n int32, at int)
	fill = func(n int32, at int) {
		if at >= len(splits) {
			leaves[at-len(splits)] = t[n].value
			return
		}
		nd := &t[n]
		if nd.feature < 0 {
			splits[at] = everyLeft
			fill(n, 2*at+1)
			fill(n, 2*at+2)
			return
		}
		s := heapSplit{feature: nd.feature, threshold: nd.threshold}
		if nd.defLeft {
			s.feature = ^s.feature
		}
		splits[at] = s
		fill(nd.left, 2*at+1)
		fill(nd.right, 2*at+2)
	}
	fill(0, 0)
	m.cols.addSplits(splits[:1<<depth-1])
}

// next returns the heap index of the child of split i (s[i]) that the row
// starting at x[off] goes to; the row must hold the split's feature. It
// does not branch on the value: which way a row goes is unpredictable,
// and whether it is missing as well.
func next(s []heapSplit, i uint32, x []float32, off int) uint32 {
	n := s[i]
	missRight := ^uint32(n.feature) >> 31 // 1 when a missing value goes right
	v := x[off+int(n.feature^n.feature>>31)]
	return 2*i + 1 + (b2u(v > n.threshold) | b2u(v != v)&missRight)
}

// b2u returns 1 for true and 0 for false.
func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// nextShort is next for a row that may end before the split's feature,
// which is then missing.
func nextShort(s []heapSplit, i uint32, row []float32) uint32 {
	f := s[i].feature
	if int(f^f>>31) >= len(row) {
		return 2*i + 2 - uint32(f)>>31
	}
	return next(s, i, row, 0)
}

// leaf returns the leaf value row reaches in tree h.
func (m *Model) leaf(h heapTree, row []float32) float64 {
	s := m.splits[h.splits : h.splits+1<<h.depth-1]
	var i uint32
	if len(row) >= m.features {
		for range h.depth {
			i = next(s, i, row, 0)
		}
	} else {
		for range h.depth {
			i = nextShort(s, i, row)
		}
	}
	return m.leaves[int(h.leaves)+int(i)-len(s)]
}

// chunkRows is how many rows Margins gathers at a time (columns.gather).
const chunkRows = 32
