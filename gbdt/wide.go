package gbdt

// The wide walk, the one Margins takes where the machine has AVX-512 (F
// and BW; wide_amd64.s). A walk of a tree waits, at each level, on two
// loads in a row (the split's column, then the row's value in it), and
// four walks side by side (walk4) still leave the core idle most of the
// time. The wide walk does not walk: for 64 rows at a time, gathered
// column by column (64 values a column), it tests every split of a tree
// against all 64 rows (a comparison of sixteen values at once, no load
// waiting on another) and keeps a 64-bit mask per split of the rows it
// sends right. A row's way at level L is then the mask of the split it
// is at, which pathBits picks, level after level, with bitwise selects
// on the masks; the ways make each row's leaf index, and leaves64 adds
// the 64 leaves to the rows' sums. A tree of depth d has 2^d−1 splits,
// all tested, against d looked at by a walk: for the labeller's trees of
// depth 5 that is 31 against 5, and still about twice as fast.
//
// The results are Margins' to the bit: each row's leaves, the same as a
// walk's, are added in the trees' order to the same sum.

// wideRows is how many rows the wide walk takes at a time.
const wideRows = 64

// wideDepth is the deepest tree the wide walk takes: 2^6−1 splits fill
// the masks' array. A model with a deeper tree is walked.
const wideDepth = 6

// walksWide reports whether Margins takes the wide walk over rows of
// width values.
func (m *Model) walksWide(width int) bool {
	return haveWide && m.deepest <= wideDepth && len(m.cols.src) > 0 && wideRows*width < 1<<30
}

// marginsWide is Margins' wide walk (see above): out[r] is the margin of
// row r of x, rows of width values, at least m.features.
func (m *Model) marginsWide(x []float32, width int, out []float64) {
	c := &m.cols
	n := len(c.src)
	buf, g := c.buffer(wideRows)
	var (
		rowOff [wideRows]int32   // where each row starts in x, from the chunk's first
		sums   [wideRows]float64 // the chunk's margins
		masks  [1 << wideDepth]uint64
		ways   [wideDepth]uint64
	)
	for r := 0; r < len(out); r += wideRows {
		k := min(wideRows, len(out)-r)
		for i := range rowOff {
			rowOff[i] = 0 // a lane past the last row reads the first
			if i < k {
				rowOff[i] = int32(i * width)
			}
		}
		gather64(&c.feat[0], &c.nan[0], &c.max[0], uintptr(n), &x[r*width], &rowOff[0], &g[0])
		for i := range sums {
			sums[i] = m.base
		}
		for _, h := range m.heap {
			if h.depth == 0 {
				for i := range sums {
					sums[i] += m.leaves[h.leaves]
				}
				continue
			}
			ns := 1<<h.depth - 1
			splitMasks64(&c.col[h.splits], &c.thr[h.splits], uintptr(ns), &g[0], &masks[0])
			pathBits(&masks, int(h.depth), &ways)
			leaves64(&ways[0], uintptr(h.depth), &m.leaves[h.leaves], &sums[0])
		}
		copy(out[r:r+k], sums[:k])
	}
	c.scratch.Put(buf)
}

// pathBits sets ways[L], for each level L of a tree of depth d, to the
// rows going right at level L: bit r is bit r of the mask of the split
// row r is at (masks, the tree's splits' masks in heap order, reused as
// scratch). The splits of level L are 2^L−1 to 2^(L+1)−2, in the order of
// the ways that lead to them (the first level's the highest bit), so the
// mask of a row's split is picked from them by its ways so far: the last
// way first chooses between neighbours, then the one before between the
// pairs chosen, and so on.
func pathBits(masks *[1 << wideDepth]uint64, d int, ways *[wideDepth]uint64) {
	for l := range d {
		lv := masks[1<<l-1 : 1<<(l+1)-1]
		for j := l - 1; j >= 0; j-- {
			s := ways[j]
			half := len(lv) / 2
			for q := range half {
				lv[q] = lv[2*q]&^s | lv[2*q+1]&s
			}
			lv = lv[:half]
		}
		ways[l] = lv[0]
	}
}
