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
	nan := float32(math.NaN())
	for t, i := range m.roots {
		// A walk takes the tree's depth in steps, leaves stepping to
		// themselves, so the processor can start the next tree's walk
		// before this one ends; and each step selects a child rather than
		// branching, which way a row goes being unpredictable.
		for range m.depths[t] {
			n := &nodes[i]
			v := nan
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
			i = n.right + (n.left-n.right)*l
		}
		s += nodes[i].value
	}
	return s
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
