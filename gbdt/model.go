package gbdt

import "math"

// Model is a trained ensemble of regression trees whose summed leaf values,
// plus a base score, give the log-odds of the positive class. It is
// immutable and safe for concurrent use.
type Model struct {
	features int
	base     float64
	roots    []int32 // index in nodes of each tree's root; a tree's nodes run to the next root
	depths   []int32 // the depth of each tree, the most splits from its root to a leaf
	nodes    []node
}

// node is a node of a Model: a split (feature >= 0) sending values <=
// threshold left, or a leaf (feature −1), whose children are itself so
// that a walk of a tree's depth from its root ends at the right leaf
// without testing for leaves.
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
	nodes := m.nodes
	for t, i := range m.roots {
		// A walk takes the tree's depth in steps, leaves stepping to
		// themselves, so the processor can start the next tree's walk
		// before this one ends; and each step selects a child rather than
		// branching, which way a row goes being unpredictable.
		for range m.depths[t] {
			i = step(nodes, i, row)
		}
		s += nodes[i].value
	}
	return s
}

// Margins sets out[r] to Margin of row r of x, rows of width values laid
// end to end, for the len(out) rows. It walks the trees one at a time over
// all the rows, so that a tree's nodes stay in the processor's nearest
// cache while it scores them (a model of 150 trees of depth 5 is some
// 300 KB of nodes, more than that cache holds); each row's trees are
// summed in the same order as Margin's, so the results are the same to the
// bit. It does not allocate; x must hold len(out) rows.
func (m *Model) Margins(x []float32, width int, out []float64) {
	for r := range out {
		out[r] = m.base
	}
	for t, root := range m.roots {
		depth := int(m.depths[t])
		r := 0
		for ; r+4 <= len(out); r += 4 {
			m.walk4(root, depth, x, width, r, out)
		}
		for ; r < len(out); r++ {
			i := root
			row := x[r*width : (r+1)*width]
			for range depth {
				i = step(m.nodes, i, row)
			}
			out[r] += m.nodes[i].value
		}
	}
}

// walk4 adds the leaf values of one tree (root, depth) for rows r to r+3,
// their four walks interleaved: four independent chains of loads that the
// processor runs side by side, where one walk waits on each node's load.
func (m *Model) walk4(root int32, depth int, x []float32, width, r int, out []float64) {
	a, b, c, d := root, root, root, root
	ra, rb := x[r*width:(r+1)*width], x[(r+1)*width:(r+2)*width]
	rc, rd := x[(r+2)*width:(r+3)*width], x[(r+3)*width:(r+4)*width]
	nodes := m.nodes
	for range depth {
		a, b, c, d = step(nodes, a, ra), step(nodes, b, rb), step(nodes, c, rc), step(nodes, d, rd)
	}
	out[r] += nodes[a].value
	out[r+1] += nodes[b].value
	out[r+2] += nodes[c].value
	out[r+3] += nodes[d].value
}

// step returns the child of node i of nodes that row goes to (a leaf
// returns itself).
func step(nodes []node, i int32, row []float32) int32 {
	n := &nodes[i]
	v := float32(math.NaN())
	if uint(n.feature) < uint(len(row)) {
		v = row[n.feature]
	}
	left := v <= n.threshold
	if v != v {
		left = n.defLeft
	}
	var l int32
	if left {
		l = 1
	}
	return n.right + (n.left-n.right)*l
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
	m.addTree(nodes)
}

// addTree adds a tree whose nodes, the root first, have children at later
// indices in the tree, and finds its depth.
func (m *Model) addTree(t []node) {
	off := int32(len(m.nodes))
	depth := make([]int32, len(t))
	var most int32
	for i, n := range t {
		if n.feature < 0 {
			n.left, n.right = int32(i), int32(i)
			most = max(most, depth[i])
		} else {
			depth[n.left], depth[n.right] = depth[i]+1, depth[i]+1
		}
		n.left += off
		n.right += off
		m.nodes = append(m.nodes, n)
	}
	m.roots = append(m.roots, off)
	m.depths = append(m.depths, most)
}
