package gbdt

// gradPair is the gradient and hessian of the loss of one row at its current
// score, each multiplied by the row's weight.
type gradPair struct{ g, h float64 }

// bin accumulates the rows of one node that fall in one bin of a feature.
type bin struct {
	g, h float64
	n    uint32
}

// add counts one row of gradient pair p in e.
func (e *bin) add(p gradPair) {
	e.g += p.g
	e.h += p.h
	e.n++
}

// histogram holds, for every feature, the sums of the gradient pairs of a
// node's rows in each bin. A feature uses the first missing(f)+1 entries of
// its array; a uint8 bin number indexes the array without a bounds check.
type histogram [][256]bin

// histGroup is the number of features whose histograms one pass over a
// node's rows fills: a row's gradient pair is loaded once for all of them.
const histGroup = 4

// build fills h with the histograms of the rows, whose gradient pairs gh are
// in the same order, one goroutine per group of features. Each feature's
// sums are added in row order, so h does not depend on the number of
// workers.
func (b *binned) build(h histogram, rows []int32, gh []gradPair, workers int) {
	cols := len(h)
	parallelFor(workers, (cols+histGroup-1)/histGroup, func(g int) {
		f := g * histGroup
		if f+histGroup <= cols {
			b.build4(h[f:f+histGroup], f, rows, gh)
			return
		}
		for ; f < cols; f++ {
			b.build1(&h[f], f, rows, gh)
		}
	})
}

// build1 fills the histogram of feature f.
func (b *binned) build1(h *[256]bin, f int, rows []int32, gh []gradPair) {
	clear(h[:int(b.missing(f))+1])
	col := b.column(f)
	gh = gh[:len(rows)]
	for i, r := range rows {
		h[col[r]].add(gh[i])
	}
}

// build4 fills the histograms of features f to f+3.
func (b *binned) build4(h [][256]bin, f int, rows []int32, gh []gradPair) {
	h0, h1, h2, h3 := &h[0], &h[1], &h[2], &h[3]
	for j := range histGroup {
		clear(h[j][:int(b.missing(f+j))+1])
	}
	c0, c1, c2, c3 := b.column(f), b.column(f+1), b.column(f+2), b.column(f+3)
	gh = gh[:len(rows)]
	for i, r := range rows {
		p := gh[i]
		h0[c0[r]].add(p)
		h1[c1[r]].add(p)
		h2[c2[r]].add(p)
		h3[c3[r]].add(p)
	}
}

// subtract turns the histograms of a parent node into those of one child,
// given those of the other child (the subtraction trick: only the smaller
// child is summed over its rows).
func (b *binned) subtract(parent, child histogram) {
	for f := range parent {
		p, c := &parent[f], &child[f]
		for k := range int(b.missing(f)) + 1 {
			p[k].g -= c[k].g
			p[k].h -= c[k].h
			p[k].n -= c[k].n
		}
	}
}
