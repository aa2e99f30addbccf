package gbdt

import "math"

// Model is a trained ensemble of regression trees whose summed leaf values,
// plus a base score, give the log-odds of the positive class. It is
// immutable and safe for concurrent use.
type Model struct {
	features int
	base     float64
	roots    []int32 // index in nodes of each tree's root; a tree's nodes run to the next root
	nodes    []node  // the trees as trained and encoded

	// The trees as scored (flat.go).
	heap    []heapTree
	deepest int32 // the deepest tree's depth
	splits  []heapSplit
	leaves  []float64
	cols    columns // the splits as Margins walks them (columns.go)
}

// node is a node of a Model: a split (feature >= 0) sending values <=
// threshold left, or a leaf (feature −1).
type node struct {
	value       float64 // leaf value, with the learning rate applied
	threshold   float32
	feature     int32 // −1 for a leaf
	left, right int32 // indices in Model.nodes (in a tree, when added)
	defLeft     bool  // missing values go left
}

// NumFeatures returns the number of features of a row.
func (m *Model) NumFeatures() int { return m.features }

// NumTrees returns the number of trees.
func (m *Model) NumTrees() int { return len(m.roots) }

// Margin returns the raw score, the log-odds of the positive class, of one
// row of NumFeatures values; NaN means missing. Values past NumFeatures are
// ignored and missing ones, in a shorter row, are taken as NaN. Margin does
// not allocate.
func (m *Model) Margin(row []float32) float64 {
	s := m.base
	for _, h := range m.heap {
		s += m.leaf(h, row)
	}
	return s
}

// Margins sets out[r] to Margin of row r of x, rows of width values laid
// end to end, for the len(out) rows. It takes the rows chunkRows at a
// time, gathers the columns the splits test (columns.go) and walks each
// tree over the chunk's rows, four side by side (walkGathered); each row's
// trees are summed in the same order as Margin's, so the results are the
// same to the bit. Its scratch is pooled, so it allocates only when the
// pool is empty; x must hold len(out) rows.
func (m *Model) Margins(x []float32, width int, out []float64) {
	for r := range out {
		out[r] = m.base
	}
	if width < m.features {
		for _, h := range m.heap {
			for r := range out {
				out[r] += m.leaf(h, x[r*width:(r+1)*width])
			}
		}
		return
	}
	if m.walksWide(width) {
		m.marginsWide(x, width, out)
		return
	}
	buf, g := m.cols.buffer(min(chunkRows, len(out)))
	n := len(m.cols.src)
	for r := 0; r < len(out); r += chunkRows {
		k := min(chunkRows, len(out)-r)
		m.cols.gather(g[:k*n], x, width, r)
		for _, h := range m.heap {
			m.walkGathered(h, g[:k*n], n, out[r:r+k])
		}
	}
	m.cols.release(buf)
}

// Probs sets out[r] to Prob of row r of x, as Margins lays them out.
func (m *Model) Probs(x []float32, width int, out []float64) {
	m.Margins(x, width, out)
	for r, s := range out {
		out[r] = sigmoid(s)
	}
}

// Prob returns the probability of the positive class for one row: the
// logistic sigmoid of Margin.
func (m *Model) Prob(row []float32) float64 { return sigmoid(m.Margin(row)) }

// sigmoid returns 1/(1+e^−s).
func sigmoid(s float64) float64 { return 1 / (1 + math.Exp(-s)) }

// appendTree adds a grown tree whose splits are in bins of data, turning
// bin numbers into value thresholds: bins 0 to b hold the values up to
// edges[b], and a split sending every bin of values left sends all values
// but NaN left.
func (m *Model) appendTree(t []treeNode, data *binned) {
	nodes := make([]node, len(t))
	for i, n := range t {
		if n.feature < 0 {
			nodes[i] = node{feature: -1, value: n.value}
			continue
		}
		thr := float32(math.Inf(1))
		if edges := data.edges[n.feature]; int(n.bin) < len(edges) {
			thr = edges[n.bin]
		}
		nodes[i] = node{threshold: thr, feature: n.feature, defLeft: n.defLeft, left: n.left, right: n.right}
	}
	m.addTree(nodes, depthOf(nodes))
}

// addTree adds a tree whose nodes, the root first, have children at later
// indices in the tree, and lays it out for scoring (addHeap). The tree
// must be at most MaxDepth deep; depth is its depth (depthOf).
func (m *Model) addTree(t []node, depth int32) {
	off := int32(len(m.nodes))
	for _, n := range t {
		if n.feature >= 0 {
			n.left += off
			n.right += off
		}
		m.nodes = append(m.nodes, n)
	}
	m.roots = append(m.roots, off)
	m.addHeap(t, depth)
}

// depthOf returns the depth of a tree whose nodes, the root first, have
// children at later indices in the tree: the most splits from its root to
// a leaf.
func depthOf(t []node) int32 { return depthInto(t, make([]int32, len(t))) }

// depthInto is depthOf with depth, at least as long as t, for scratch.
func depthInto(t []node, depth []int32) int32 {
	depth = depth[:len(t)]
	depth[0] = 0
	var most int32
	for i, n := range t {
		if n.feature < 0 {
			most = max(most, depth[i])
		} else {
			depth[n.left], depth[n.right] = depth[i]+1, depth[i]+1
		}
	}
	return most
}
