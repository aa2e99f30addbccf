package gbdt

// edgeSampleRows is the most rows whose values are sorted to find the bin
// edges of a feature; larger training sets are sampled evenly.
const edgeSampleRows = 200_000

// binned is the training matrix reduced to bin numbers, column-major: the
// bin of row r in feature f is bins[f*rows+r]. Feature f has len(edges[f])+1
// bins of values, numbered from 0, and missing values (NaN) fall in the bin
// after them, missing(f).
type binned struct {
	rows  int
	bins  []uint8
	edges [][]float32
	keys  [][]uint32 // orderKey of each edge
}

// column returns the bins of feature f, one per row.
func (b *binned) column(f int) []uint8 { return b.bins[f*b.rows : (f+1)*b.rows] }

// missing returns the bin of the missing values of feature f.
func (b *binned) missing(f int) uint8 { return uint8(len(b.edges[f]) + 1) }

// binFeatures finds the bin edges of every feature from the active rows and
// bins every row of x (rows×cols, row-major).
func binFeatures(x []float32, rows, cols int, active []int32, maxBins, workers int) *binned {
	b := &binned{rows: rows, bins: make([]uint8, rows*cols), edges: make([][]float32, cols), keys: make([][]uint32, cols)}

	// Rows whose values fix the edges: all active rows, or an even sample.
	sample := active
	if len(sample) > edgeSampleRows {
		sample = make([]int32, edgeSampleRows)
		for i := range sample {
			sample[i] = active[int(int64(i)*int64(len(active))/edgeSampleRows)]
		}
	}
	// Features are gathered in groups that share cache lines of x.
	const group = 16
	parallelFor(workers, (cols+group-1)/group, func(g int) {
		f0, f1 := g*group, min((g+1)*group, cols)
		vals := make([][]float32, f1-f0)
		for j := range vals {
			vals[j] = make([]float32, 0, len(sample))
		}
		keys, buf := make([]uint32, len(sample)), make([]uint32, len(sample))
		for _, r := range sample {
			row := x[int(r)*cols : int(r)*cols+cols]
			for f := f0; f < f1; f++ {
				if v := row[f]; v == v {
					vals[f-f0] = append(vals[f-f0], v)
				}
			}
		}
		for f := f0; f < f1; f++ {
			b.edges[f] = binEdges(vals[f-f0], maxBins, keys, buf)
			b.keys[f] = make([]uint32, len(b.edges[f]))
			for i, e := range b.edges[f] {
				b.keys[f][i] = orderKey(e)
			}
			vals[f-f0] = nil
		}
	})

	// Rows are binned in blocks whose values stay in cache while each
	// feature's column is written.
	const block = 256
	parallelFor(workers, chunks(rows), func(c int) {
		lo, hi := chunk(c, rows)
		for blo := lo; blo < hi; blo += block {
			bhi := min(blo+block, hi)
			for f := range cols {
				col, keys, miss := b.column(f), b.keys[f], b.missing(f)
				for r := blo; r < bhi; r++ {
					col[r] = binOf(keys, miss, x[r*cols+f])
				}
			}
		}
	})
	return b
}

// binOf returns the bin of v given the orderKey of each edge: the first i
// with v <= edges[i], len(edges) if v is above them all, or miss if v is
// NaN.
func binOf(keys []uint32, miss uint8, v float32) uint8 {
	if v != v {
		return miss
	}
	if len(keys) == 0 {
		return 0
	}
	// Count the edges below v by a binary search on integers, which
	// compiles without branches to mispredict: the count is always in
	// [base, base+n].
	k := orderKey(v)
	base, n := 0, len(keys)
	for n > 1 {
		half := n / 2
		if keys[base+half] < k {
			base += half
		}
		n -= half
	}
	if keys[base] < k {
		base++
	}
	return uint8(base)
}

// binEdges returns the upper edges of at most maxBins bins of the values
// (which it sorts, using keys and buf as scratch; none is NaN): every
// distinct value has a bin of its own if there are few enough, else the
// bins hold about equal numbers of values, a value more frequent than a
// bin's share getting a bin to itself. An edge lies between two distinct
// values, so that values v <= edge fall in the bins up to it.
func binEdges(vals []float32, maxBins int, keys, buf []uint32) []float32 {
	if len(vals) == 0 {
		return nil
	}
	sortFloats(vals, keys, buf)
	k := 1 // distinct values
	for i := 1; i < len(vals); i++ {
		if vals[i] != vals[i-1] {
			k++
		}
	}
	// run returns the end of the run of values equal to vals[start].
	run := func(start int) int {
		end := start + 1
		for end < len(vals) && vals[end] == vals[start] {
			end++
		}
		return end
	}
	edges := make([]float32, 0, min(k, maxBins)-1)
	rest := len(vals) // values not in a closed bin
	binsLeft := maxBins
	acc := 0 // values in the open bin
	start, end := 0, run(0)
	for i := 0; i < k-1 && binsLeft > 1; i++ {
		next := run(end) // the next distinct value is vals[end:next]
		acc += end - start
		mean := float64(rest) / float64(binsLeft)
		if k-1-i < binsLeft || float64(acc) >= mean || float64(next-end) >= mean {
			edges = append(edges, between(vals[start], vals[end]))
			rest -= acc
			acc = 0
			binsLeft--
		}
		start, end = end, next
	}
	return edges
}

// between returns a threshold t with a <= t < b, for a < b: their midpoint
// where float32 can hold one.
func between(a, b float32) float32 {
	m := float32((float64(a) + float64(b)) / 2)
	if m >= b {
		return a
	}
	return m
}
