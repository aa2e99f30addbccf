package gbdt

import (
	"math"
	"unsafe"

	"github.com/sluice-project/sluice/internal/freelist"
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
	src []colSource
	// feat, nan and max are src's fields as arrays of their own, as
	// gather4 reads them four at a time.
	feat     []int32
	nan, max []float32
	// index holds, at 3·feature+kind, one more than the column of that
	// source, 0 for none yet (a slice, not a map: the model's thousands
	// of splits were a fifth of loading it as map lookups).
	index   []uint32
	col     []uint32                  // each of Model.splits' column
	thr     []float32                 // and threshold
	scratch *freelist.List[[]float32] // a chunk's gathered rows, kept across collections
}

// addSplits appends the gathered form of heap splits s.
func (c *columns) addSplits(s []heapSplit) {
	if c.scratch == nil {
		c.scratch = freelist.New[[]float32](0)
	}
	for _, sp := range s {
		f, kind, thr := sp.feature, missRight, sp.threshold
		switch {
		case f < 0:
			f, kind = ^f, missLeft
		case !(thr < float32(math.Inf(1))):
			kind, thr = missRightOnly, math.MaxFloat32
		}
		at := 3*int(f) + int(kind)
		if at >= len(c.index) {
			c.index = append(c.index, make([]uint32, at+1-len(c.index))...)
		}
		if c.index[at] == 0 {
			c.index[at] = c.add(source(f, kind)) + 1
		}
		c.col = append(c.col, c.index[at]-1)
		c.thr = append(c.thr, thr)
	}
}

// add appends a column of source src and returns its index.
func (c *columns) add(src colSource) uint32 {
	c.src = append(c.src, src)
	c.feat = append(c.feat, src.feature)
	c.nan = append(c.nan, src.nan)
	c.max = append(c.max, src.max)
	return uint32(len(c.src) - 1)
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
		k0 := 0
		if haveAsm && n >= 4 {
			gather4(&c.feat[0], &c.nan[0], &c.max[0], uintptr(n/4), (*float32)(xp), &out[0])
			k0 = n / 4 * 4
		}
		for k := k0; k < n; k++ {
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
	p := new([]float32)
	if c.scratch != nil {
		p = c.scratch.Get()
	}
	if need := rows * len(c.src); cap(*p) < need {
		*p = make([]float32, need)
	}
	return p, (*p)[:rows*len(c.src)]
}

// release gives back a buffer's pointer for the next chunk.
func (c *columns) release(p *[]float32) {
	if c.scratch != nil {
		c.scratch.Put(p)
	}
}

// walkGathered adds the leaf values of tree h for the gathered rows g (n
// columns a row, len(out) rows) to out.
func (m *Model) walkGathered(h heapTree, g []float32, n int, out []float64) {
	g = g[:len(out)*n] // walkRows reads within it unchecked
	leaves := m.leaves[h.leaves : h.leaves+1<<h.depth]
	if h.depth == 0 {
		for k := range out {
			out[k] += leaves[0]
		}
		return
	}
	lo, hi := h.splits, h.splits+1<<h.depth-1
	col, thr := m.cols.col[lo:hi], m.cols.thr[lo:hi]
	walkRows(col, thr[:len(col)], leaves, g, n, int(h.depth), out)
}

// walkRows walks a tree of depth d (its splits' columns col and
// thresholds thr, its leaves) for each of the gathered rows g, n values a
// row, and adds the leaf each reaches to its row's out. It walks several
// rows side by side, each split's index in a register, so that the walks
// do not wait on each other's loads: four at a time in assembly where
// there is (walk4), then two at a time in Go.
//
// It reads without bounds checks, which were a fifth of a step's
// instructions: a walk starts at split 0 and takes d steps, so before each
// step its index is below 2^d−1, the tree's number of splits (len(col),
// and len(thr) is the same), and after the last it is 2^d−1 to
// 2^(d+1)−2, leaf index−(2^d−1), below len(leaves) (2^d); a split's column
// is below n, by addSplits; and g holds len(out) rows of n values, which
// walkGathered makes sure of.
func walkRows(col []uint32, thr []float32, leaves []float64, g []float32, n, d int, out []float64) {
	cp := unsafe.Pointer(unsafe.SliceData(col))
	tp := unsafe.Pointer(unsafe.SliceData(thr))
	lp := unsafe.Pointer(unsafe.SliceData(leaves))
	gp := unsafe.Pointer(unsafe.SliceData(g))
	stride := uintptr(n) * 4
	ns := uintptr(len(col))
	k := 0
	if haveAsm && len(out) >= 4 {
		groups := len(out) / 4
		walk4(&col[0], &thr[0], &g[0], stride, uintptr(d), uintptr(groups), &leaves[0], ns, &out[0])
		k = 4 * groups
		gp = unsafe.Add(gp, uintptr(k)*stride)
	}
	for ; k+2 <= len(out); k += 2 {
		g1 := unsafe.Add(gp, stride)
		var i0, i1 uintptr
		for range d {
			i0 = step(cp, tp, gp, i0)
			i1 = step(cp, tp, g1, i1)
		}
		o := out[k : k+2 : k+2]
		o[0] += *(*float64)(unsafe.Add(lp, (i0-ns)*8))
		o[1] += *(*float64)(unsafe.Add(lp, (i1-ns)*8))
		gp = unsafe.Add(g1, stride)
	}
	for ; k < len(out); k++ {
		var i uintptr
		for range d {
			i = step(cp, tp, gp, i)
		}
		out[k] += *(*float64)(unsafe.Add(lp, (i-ns)*8))
		gp = unsafe.Add(gp, stride)
	}
}

// step takes one step of a walk at split i over the gathered row at gp:
// right when the row's value in the split's column is above its threshold.
func step(cp, tp, gp unsafe.Pointer, i uintptr) uintptr {
	c := *(*uint32)(unsafe.Add(cp, i*4))
	v := *(*float32)(unsafe.Add(gp, uintptr(c)*4))
	return 2*i + 1 + uintptr(b2u(v > *(*float32)(unsafe.Add(tp, i*4))))
}
