package gbdt

// treeNode is a node of a tree being grown: a split on a feature's bins, or
// a leaf (feature −1).
type treeNode struct {
	feature     int32
	bin         uint8 // bins 0 to bin go left
	defLeft     bool  // missing values go left
	left, right int32 // indices of the children, after the node's own
	value       float64
}

// grower grows one tree at a time on the binned training data. Its buffers
// are reused from tree to tree.
type grower struct {
	data    *binned
	opt     Options
	gh      []gradPair  // the gradient pair of each row, by row number
	rows    []int32     // the rows of the tree, each node's a range, partitioned in place
	ordered []gradPair  // gh of rows[i] at i, for the nodes being summed
	tmp     []int32     // scratch for partitioning
	free    []histogram // histograms not in use
	nodes   []treeNode
	leaves  []leafRows
}

// leafRows says which rows of the tree, g.rows[lo:hi], reach a leaf.
type leafRows struct {
	node   int32
	lo, hi int
}

// grow grows a tree on g.rows, whose gradient pairs are in g.gh and, in the
// same order, in g.ordered, and returns its nodes, root first, each node's
// children after it. The slice is reused by the next call.
func (g *grower) grow() []treeNode {
	g.nodes = append(g.nodes[:0], treeNode{})
	g.leaves = g.leaves[:0]
	s := nodeSums{n: len(g.rows)}
	for _, p := range g.ordered[:len(g.rows)] {
		s.g += p.g
		s.h += p.h
	}
	h := g.histogramOf(0, len(g.rows))
	g.node(0, 0, len(g.rows), 0, h, s)
	return g.nodes
}

// node makes node i, with rows lo to hi, at depth d, a split or a leaf and
// grows its children. h holds the node's histograms, nil at the maximum
// depth; node takes ownership of it.
func (g *grower) node(i int32, lo, hi, d int, h histogram, s nodeSums) {
	if h == nil {
		g.leaf(i, lo, hi, s)
		return
	}
	sp, ok := g.data.findSplit(h, s, g.opt.MinLeaf, g.opt.L2)
	if !ok {
		g.release(h)
		g.leaf(i, lo, hi, s)
		return
	}
	mid := g.partition(lo, hi, sp)
	if mid == lo || mid == hi { // cannot happen: the split has rows each side
		g.release(h)
		g.leaf(i, lo, hi, s)
		return
	}
	left := int32(len(g.nodes))
	g.nodes = append(g.nodes, treeNode{}, treeNode{})
	g.nodes[i] = treeNode{feature: int32(sp.feature), bin: sp.bin, defLeft: sp.defLeft, left: left, right: left + 1}

	// Only the smaller child's rows are summed; the larger child's totals
	// and histograms are the parent's less the smaller's.
	slo, shi := lo, mid
	if mid-lo > hi-mid {
		slo, shi = mid, hi
	}
	small := g.gather(slo, shi)
	large := nodeSums{g: s.g - small.g, h: s.h - small.h, n: s.n - small.n}
	var sh histogram
	if d+1 < g.opt.Depth {
		sh = g.histogramOf(slo, shi)
		g.data.subtract(h, sh)
	} else {
		g.release(h)
		h = nil
	}
	if slo == lo {
		g.node(left, lo, mid, d+1, sh, small)
		g.node(left+1, mid, hi, d+1, h, large)
	} else {
		g.node(left, lo, mid, d+1, h, large)
		g.node(left+1, mid, hi, d+1, sh, small)
	}
}

// leaf makes node i, with rows lo to hi, a leaf with the shrunken Newton
// step −G/(H+λ)·rate.
func (g *grower) leaf(i int32, lo, hi int, s nodeSums) {
	g.nodes[i] = treeNode{feature: -1, value: -s.g / (s.h + g.opt.L2) * g.opt.LearningRate}
	g.leaves = append(g.leaves, leafRows{node: i, lo: lo, hi: hi})
}

// gather copies the gradient pairs of rows lo to hi into g.ordered and
// returns their totals.
func (g *grower) gather(lo, hi int) nodeSums {
	s := nodeSums{n: hi - lo}
	gh, out := g.gh, g.ordered[lo:hi]
	for i, r := range g.rows[lo:hi] {
		p := gh[r]
		out[i] = p
		s.g += p.g
		s.h += p.h
	}
	return s
}

// histogramOf returns the histograms of rows lo to hi, whose gradient
// pairs are in g.ordered.
func (g *grower) histogramOf(lo, hi int) histogram {
	var h histogram
	if n := len(g.free); n > 0 {
		h, g.free = g.free[n-1], g.free[:n-1]
	} else {
		h = make(histogram, len(g.data.edges))
	}
	g.data.build(h, g.rows[lo:hi], g.ordered[lo:hi], g.opt.Workers)
	return h
}

// release returns a histogram for reuse.
func (g *grower) release(h histogram) { g.free = append(g.free, h) }

// partition reorders rows lo to hi so that those going left under sp come
// first, keeping the order within each side, and returns where the right
// side starts.
func (g *grower) partition(lo, hi int, sp split) int {
	// Which way each bin goes, so that the loop has no branch to
	// mispredict.
	var way [256]int
	for b := range int(sp.bin) + 1 {
		way[b] = 1
	}
	if sp.defLeft {
		way[g.data.missing(sp.feature)] = 1
	}
	col, rows, tmp := g.data.column(sp.feature), g.rows[lo:hi], g.tmp[:hi-lo]
	w, k := 0, 0
	for _, r := range rows {
		l := way[col[r]]
		rows[w] = r // w <= the index being read
		tmp[k] = r
		w += l
		k += 1 - l
	}
	copy(rows[w:], tmp[:k])
	return lo + w
}

// leaf returns the index of the leaf of the tree that row r reaches.
func (b *binned) leaf(tree []treeNode, r int) int32 {
	i := int32(0)
	for tree[i].feature >= 0 {
		n := &tree[i]
		f := int(n.feature)
		if goesLeft(n, b.bins[f*b.rows+r], b.missing(f)) {
			i = n.left
		} else {
			i = n.right
		}
	}
	return i
}

// goesLeft reports whether a row in bin b of the node's feature goes left.
func goesLeft(n *treeNode, b, miss uint8) bool {
	return b <= n.bin || b == miss && n.defLeft
}
