package gbdt

import (
	"math"
	"sync"
	"unsafe"
)

// The gathered layout, the one Margins walks. A split of the heap layout
// tests a feature and, when the value is missing, sends it the split's
// own way, which costs a walk step as many instructions again as the
// test. Margins instead gathers, for a chunk of rows, one column per
// feature and way of treating its missing values that some split needs
// (colKind), and a split of this layout sends a row right exactly when
// its column's value is above its threshold. So a step is a load of the
// split's column and threshold, a load of the value and one comparison,
// and the results are those of the heap layout to the bit (the same
// leaves, summed in the same order; TestGatheredEqualsHeap).

// colKind is how a column holds its feature's value.
type colKind uint8

const (
	// missRight: a missing value is +Inf, above every threshold but
	// +Inf, which no such split has (it takes missRightOnly).
	missRight colKind = iota
	// missLeft: a missing value is −Inf, above no threshold.
	missLeft
	// missRightOnly is for a split that sends every value left but the
	// missing ones (threshold +Inf): a missing value is +Inf, +Inf
	// itself is MaxFloat32, and the split's threshold MaxFloat32.
	missRightOnly
)

// colSource is what a gathered column holds: its feature's value, a
// missing one made nan and one above max made max.
type colSource struct {
	feature  int32
	nan, max float32
}

// source returns the column of a feature of a kind.
func source(feature int32, kind colKind) colSource {
	inf := float32(math.Inf(1))
	switch kind {
	case missLeft:
		return colSource{feature: feature, nan: -inf, max: inf}
	case missRightOnly:
		return colSource{feature: feature, nan: inf, max: math.MaxFloat32}
	}
	return colSource{feature: feature, nan: inf, max: inf}
}

// The splits of the gathered layout are two arrays, a split's column
// and its threshold at the same index (Model.splits'): the rows whose
// value in the column is above the threshold go right. (As two arrays
// rather than pairs, a step loads each with one plain indexed load.)

// columns is a Model's gathered layout, filled as its trees are added.
type columns struct {
	src     []colSource
	index   map[colSource]uint32 // src → column
	col     []uint32             // each of Model.splits' column
	thr     []float32            // and threshold
	scratch sync.Pool            // *[]float32, a chunk's gathered rows
}

// addSplits appends the gathered form of heap splits s.
func (c *columns) addSplits(s []heapSplit) {
	if c.index == nil {
		c.index = map[colSource]uint32{}
	}
	for _, sp := range s {
		src, thr := source(sp.feature, missRight), sp.threshold
		switch {
		case sp.feature < 0:
			src = source(^sp.feature, missLeft)
		case !(thr < float32(math.Inf(1))):
			src, thr = source(sp.feature, missRightOnly), math.MaxFloat32
		}
		col, ok := c.index[src]
		if !ok {
			col = uint32(len(c.src))
			c.index[src] = col
			c.src = append(c.src, src)
		}
		c.col = append(c.col, col)
		c.thr = append(c.thr, thr)
	}
}

// gather writes the columns of the len(g)/len(c.src) rows of x from row
// r (width values a row, at least every column's feature) into g, row
// after row. It reads x without bounds checks: the rows are checked to lie
// in x once, and a column's feature is below the model's feature count,
// which Margins makes sure width is not under.
func (c *columns) gather(g, x []float32, width, r int) {
	src := c.src
	n := len(src)
	if n == 0 || len(g) == 0 {
		return
	}
	rows := len(g) / n
	x = x[r*width : (r+rows)*width]
	xp := unsafe.Pointer(unsafe.SliceData(x))
	stride := uintptr(width) * 4
	for off := 0; off+n <= len(g); off += n {
		out := g[off : off+n : off+n]
		for k := range out {
			sk := &src[k]
			v := *(*float32)(unsafe.Add(xp, uintptr(sk.feature)*4))
			if v != v {
				v = sk.nan
			} else if v > sk.max {
				v = sk.max
			}
			out[k] = v
		}
		xp = unsafe.Add(xp, stride)
	}
}

// buffer returns a scratch slice for rows gathered rows, and the pointer
// to give back to c.scratch.
func (c *columns) buffer(rows int) (*[]float32, []float32) {
	p, _ := c.scratch.Get().(*[]float32)
	if p == nil {
		p = new([]float32)
	}
	if need := rows * len(c.src); cap(*p) < need {
		*p = make([]float32, need)
	}
	return p, (*p)[:rows*len(c.src)]
}

// walkGathered adds the leaf values of tree h for the gathered rows g (n
// columns a row, len(at) rows) to out.
func (m *Model) walkGathered(h heapTree, g []float32, n int, at []uint32, out []float64) {
	lo, hi := h.splits, h.splits+1<<h.depth-1
	col, thr := m.cols.col[lo:hi], m.cols.thr[lo:hi]
	g = g[:len(at)*n] // stepGathered reads within it unchecked
	out = out[:len(at)]
	leaves := m.leaves[h.leaves : h.leaves+1<<h.depth]
	if h.depth == 0 {
		for k := range out {
			out[k] += leaves[0]
		}
		return
	}
	clear(at)
	for range h.depth - 1 {
		stepGathered(col, thr[:len(col)], at, g, n)
	}
	lastGathered(col, thr[:len(col)], at, g, n, leaves, out)
}

// stepGathered takes one step of the walks at over the gathered rows g,
// n values a row. It reads the splits and the values without bounds
// checks, which were a fifth of a step's instructions: a walk of a tree
// of depth d starts at split 0 and takes d steps, so before each step its
// index is below 2^d−1, the tree's number of splits (len(col), and
// len(thr) is the same); a split's column is below n, by addSplits; and g
// holds len(at) rows of n values, which walkGathered makes sure of.
func stepGathered(col []uint32, thr []float32, at []uint32, g []float32, n int) {
	cp := unsafe.Pointer(unsafe.SliceData(col))
	tp := unsafe.Pointer(unsafe.SliceData(thr))
	gp := unsafe.Pointer(unsafe.SliceData(g))
	stride := uintptr(n) * 4
	for k, i := range at {
		c := *(*uint32)(unsafe.Add(cp, uintptr(i)*4))
		v := *(*float32)(unsafe.Add(gp, uintptr(c)*4))
		at[k] = 2*i + 1 + b2u(v > *(*float32)(unsafe.Add(tp, uintptr(i)*4)))
		gp = unsafe.Add(gp, stride)
	}
}

// lastGathered takes the last step of the walks at, as stepGathered, and
// adds the leaf each reaches to its row's out: the leaves of a tree of
// depth d follow its 2^d−1 splits, so that a walk's last step lands at
// index 2^d−1 to 2^(d+1)−2, leaf index−(2^d−1), below len(leaves) (2^d).
func lastGathered(col []uint32, thr []float32, at []uint32, g []float32, n int, leaves, out []float64) {
	cp := unsafe.Pointer(unsafe.SliceData(col))
	tp := unsafe.Pointer(unsafe.SliceData(thr))
	gp := unsafe.Pointer(unsafe.SliceData(g))
	lp := unsafe.Pointer(unsafe.SliceData(leaves))
	stride := uintptr(n) * 4
	ns := uint32(len(col))
	out = out[:len(at)]
	for k, i := range at {
		c := *(*uint32)(unsafe.Add(cp, uintptr(i)*4))
		v := *(*float32)(unsafe.Add(gp, uintptr(c)*4))
		j := 2*i + 1 + b2u(v > *(*float32)(unsafe.Add(tp, uintptr(i)*4))) - ns
		out[k] += *(*float64)(unsafe.Add(lp, uintptr(j)*8))
		gp = unsafe.Add(gp, stride)
	}
}
