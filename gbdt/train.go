package gbdt

import (
	"context"
	"fmt"
	"math"
)

// Train fits a model. x holds len(y) rows of cols float32 features each,
// row-major (len(x) == len(y)*cols); NaN means missing. y are targets in
// [0,1] (normally 0 or 1). w are row weights (nil means all 1; each must be
// >= 0 and finite); rows of weight 0 are ignored. Train returns an error
// naming the problem for bad data or options, and ctx.Err() if ctx is
// cancelled (it checks between trees). The same data and options, Seed
// included, give the same model whatever Options.Workers is.
func Train(ctx context.Context, x []float32, cols int, y, w []float64, opt Options) (*Model, error) {
	o, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	if err := checkData(x, cols, y, w); err != nil {
		return nil, err
	}
	t, err := newTrainer(y, w)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rk, err := newRanker(t, o.Groups, o.Pairwise)
	if err != nil {
		return nil, err
	}
	data := binFeatures(x, len(y), cols, t.active, o.Bins, o.Workers)

	m := &Model{features: cols, base: t.base}
	size := len(t.active)
	if o.Subsample < 1 {
		size = max(1, int(math.Round(o.Subsample*float64(size))))
	}
	g := &grower{
		data:    data,
		opt:     o,
		gh:      make([]gradPair, len(y)),
		rows:    make([]int32, 0, size),
		ordered: make([]gradPair, size),
		tmp:     make([]int32, size),
	}
	for i := range o.Trees {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if size < len(t.active) {
			rnd := treeRand(o.Seed, i)
			g.rows = sampleRows(g.rows[:0], t.active, size, &rnd)
		} else {
			g.rows = append(g.rows[:0], t.active...)
		}
		t.gradients(g, rk, o.Workers)
		tree := g.grow()
		m.appendTree(tree, data)
		t.update(g, tree, o.Workers)
		if o.Progress != nil {
			o.Progress(i+1, t.loss(o.Workers))
		}
	}
	return m, nil
}

// trainer holds the targets, weights and current scores of the rows.
type trainer struct {
	y, w      []float64
	active    []int32 // the rows of positive weight, in order
	sumW      float64 // their total weight
	base      float64 // the score before the first tree
	score     []float64
	chunkLoss []float64 // the loss of each chunk of active rows
}

// newTrainer finds the active rows and the base score, the log-odds of
// their weighted mean target.
func newTrainer(y, w []float64) (*trainer, error) {
	t := &trainer{y: y, w: w, active: make([]int32, 0, len(y))}
	var swy float64
	for r := range y {
		if w == nil || w[r] > 0 {
			t.active = append(t.active, int32(r))
			t.sumW += t.weight(int32(r))
			swy += t.weight(int32(r)) * y[r]
		}
	}
	if len(t.active) == 0 {
		return nil, fmt.Errorf("gbdt: all %d weights are 0, want some rows of positive weight", len(y))
	}
	if math.IsInf(t.sumW, 1) {
		return nil, fmt.Errorf("gbdt: the weights sum to +Inf, want a finite total")
	}
	p := min(max(swy/t.sumW, 1e-7), 1-1e-7)
	t.base = math.Log(p / (1 - p))
	t.score = make([]float64, len(y))
	for _, r := range t.active {
		t.score[r] = t.base
	}
	t.chunkLoss = make([]float64, chunks(len(t.active)))
	return t, nil
}

// weight returns the weight of row r.
func (t *trainer) weight(r int32) float64 {
	if t.w == nil {
		return 1
	}
	return t.w[r]
}

// gradients sets the gradient and hessian of the log loss (and of the
// ranker's pairwise term, when rk is not nil) at the current score of
// each of the grower's rows, in g.gh by row and in g.ordered in the order
// of g.rows.
func (t *trainer) gradients(g *grower, rk *ranker, workers int) {
	if rk != nil {
		rk.gradients(t, workers)
		rk.tree++
	}
	parallelFor(workers, chunks(len(g.rows)), func(c int) {
		lo, hi := chunk(c, len(g.rows))
		for i := lo; i < hi; i++ {
			r := g.rows[i]
			p, w := sigmoid(t.score[r]), t.weight(r)
			gp := gradPair{g: w * (p - t.y[r]), h: w * p * (1 - p)}
			if rk != nil {
				gp.g += rk.extra[r].g
				gp.h += rk.extra[r].h
			}
			g.gh[r], g.ordered[i] = gp, gp
		}
	})
}

// update adds to the score of every active row the value of the leaf of
// the tree it reaches: the tree's own rows are in the leaves' ranges, the
// others, if the tree saw a sample, are walked down it.
func (t *trainer) update(g *grower, tree []treeNode, workers int) {
	if len(g.rows) == len(t.active) {
		for _, l := range g.leaves {
			v := tree[l.node].value
			for _, r := range g.rows[l.lo:l.hi] {
				t.score[r] += v
			}
		}
		return
	}
	parallelFor(workers, chunks(len(t.active)), func(c int) {
		lo, hi := chunk(c, len(t.active))
		for _, r := range t.active[lo:hi] {
			t.score[r] += tree[g.data.leaf(tree, int(r))].value
		}
	})
}

// loss returns the mean weighted log loss of the active rows, summed by
// chunks added in order.
func (t *trainer) loss(workers int) float64 {
	parallelFor(workers, len(t.chunkLoss), func(c int) {
		lo, hi := chunk(c, len(t.active))
		var sum float64
		for _, r := range t.active[lo:hi] {
			sum += t.weight(r) * logLoss(t.score[r], t.y[r])
		}
		t.chunkLoss[c] = sum
	})
	var sum float64
	for _, s := range t.chunkLoss {
		sum += s
	}
	return sum / t.sumW
}

// logLoss returns −y·log σ(s) − (1−y)·log(1−σ(s)) = log(1+e^s) − y·s,
// computed without overflow.
func logLoss(s, y float64) float64 {
	softplus := math.Log1p(math.Exp(-math.Abs(s))) + max(s, 0)
	return softplus - y*s
}

// checkData returns an error describing the first problem with the
// training data, or nil.
func checkData(x []float32, cols int, y, w []float64) error {
	switch {
	case cols <= 0:
		return fmt.Errorf("gbdt: cols = %d, want a positive number of features", cols)
	case cols > math.MaxInt32:
		return fmt.Errorf("gbdt: cols = %d, want at most %d features", cols, math.MaxInt32)
	case len(y) == 0:
		return fmt.Errorf("gbdt: no rows: y is empty")
	case len(y) > math.MaxInt32:
		return fmt.Errorf("gbdt: %d rows, want at most %d", len(y), math.MaxInt32)
	case len(x)%cols != 0 || len(x)/cols != len(y):
		return fmt.Errorf("gbdt: len(x) = %d, want len(y)*cols = %d*%d", len(x), len(y), cols)
	case w != nil && len(w) != len(y):
		return fmt.Errorf("gbdt: len(w) = %d, want len(y) = %d (or w nil for weights of 1)", len(w), len(y))
	}
	for r, v := range y {
		if !(v >= 0 && v <= 1) {
			return fmt.Errorf("gbdt: y[%d] = %v, want a target in [0, 1]", r, v)
		}
	}
	for r, v := range w {
		if !(v >= 0) || math.IsInf(v, 1) {
			return fmt.Errorf("gbdt: w[%d] = %v, want a finite weight >= 0", r, v)
		}
	}
	return nil
}
