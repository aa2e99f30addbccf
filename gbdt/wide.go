package gbdt

// The wide walk, the one Margins takes where the machine has AVX-512 (F
// and BW; wide_amd64.s). A walk of a tree waits, at each level, on two
// loads in a row (the split's column, then the row's value in it), and
// four walks side by side (walk4) still leave the core idle most of the
// time. The wide walk does not walk: for 64 rows at a time, gathered
// column by column (64 values a column), it tests every split of a tree
// against all 64 rows at once (sixteen values a comparison, no load
// waiting on another) into a 64-bit mask of the rows it sends right. The
// rows at a split are a mask too (all of them at the root): of those,
// the ones in the split's mask go right at its level and on to its right
// child, the others to its left child. The ways of a row, level by
// level, are the bits of its leaf's index, and leaves64 adds the 64
// leaves to the rows' sums. A tree of depth d has 2^d−1 splits, all
// tested, where a walk looks at d of them: for the labeller's trees of
// depth 5 that is 31 against 5, and still about twice as fast.
//
// The results are Margins' to the bit: each row's leaves, the same as a
// walk's, are added in the trees' order to the same sum.

// wideRows is how many rows the wide walk takes at a time.
const wideRows = 64

// wideDepth is the deepest tree the wide walk takes (a bound on its
// scratch); a model with a deeper tree is walked.
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
		ways   [wideDepth]uint64
		at     [2<<wideDepth + 1]uint64
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
			ways64(&c.col[h.splits], &c.thr[h.splits], uintptr(h.depth), &g[0], &ways[0], &at[0])
			leaves64(&ways[0], uintptr(h.depth), &m.leaves[h.leaves], &sums[0])
		}
		copy(out[r:r+k], sums[:k])
	}
	c.release(buf)
}
