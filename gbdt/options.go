package gbdt

import (
	"fmt"
	"math"
	"runtime"
)

// Options configures Train; zero fields take the defaults given.
type Options struct {
	Trees        int     // number of trees, default 100
	Depth        int     // maximum depth, default 4, at most 10
	LearningRate float64 // shrinkage, default 0.1
	Bins         int     // maximum bins per feature, from quantiles of the training values, default 64, at most 255 (missing values get a bin of their own besides)
	MinLeaf      float64 // minimum sum of hessians (weighted) in each child of a split, default 1
	L2           float64 // L2 regularisation of leaf values, default 1
	Subsample    float64 // fraction of rows sampled (without replacement, by Seed) for each tree; 0 means 1 (all)
	Seed         uint64
	// Pairwise, when above 0, adds to the log loss a pairwise logistic
	// term within each group of rows Groups names (the blocks of one
	// page), of this weight against the log loss: rows of a higher
	// target are asked to score above the rows of a lower one in their
	// group (see ranker). Progress still reports the log loss alone.
	Pairwise float64
	Groups   []int32                      // the group of each row, for Pairwise; len(y) entries
	Workers  int                          // goroutines for histogram building; 0 means GOMAXPROCS
	Progress func(tree int, loss float64) // optional, called after each tree (tree counting from 1) with the mean weighted training log loss
}

// Defaults and limits of Options.
const (
	DefaultTrees        = 100
	DefaultDepth        = 4
	MaxDepth            = 10
	DefaultLearningRate = 0.1
	DefaultBins         = 64
	MaxBins             = 255
	DefaultMinLeaf      = 1
	DefaultL2           = 1
)

// withDefaults returns the options with zero fields replaced by their
// defaults, or an error naming the first field out of range.
func (opt Options) withDefaults() (Options, error) {
	o := opt
	if o.Trees == 0 {
		o.Trees = DefaultTrees
	}
	if o.Trees < 0 {
		return o, fmt.Errorf("gbdt: Options.Trees = %d, want a positive number of trees (0 means %d)", opt.Trees, DefaultTrees)
	}
	if o.Depth == 0 {
		o.Depth = DefaultDepth
	}
	if o.Depth < 1 || o.Depth > MaxDepth {
		return o, fmt.Errorf("gbdt: Options.Depth = %d, want 1 to %d (0 means %d)", opt.Depth, MaxDepth, DefaultDepth)
	}
	if o.LearningRate == 0 {
		o.LearningRate = DefaultLearningRate
	}
	if !(o.LearningRate > 0 && o.LearningRate <= 1) {
		return o, fmt.Errorf("gbdt: Options.LearningRate = %v, want a number in (0, 1] (0 means %v)", opt.LearningRate, DefaultLearningRate)
	}
	if o.Bins == 0 {
		o.Bins = DefaultBins
	}
	if o.Bins < 2 || o.Bins > MaxBins {
		return o, fmt.Errorf("gbdt: Options.Bins = %d, want 2 to %d (0 means %d)", opt.Bins, MaxBins, DefaultBins)
	}
	if o.MinLeaf == 0 {
		o.MinLeaf = DefaultMinLeaf
	}
	if !(o.MinLeaf > 0) || math.IsInf(o.MinLeaf, 1) {
		return o, fmt.Errorf("gbdt: Options.MinLeaf = %v, want a positive finite hessian sum (0 means %v)", opt.MinLeaf, DefaultMinLeaf)
	}
	if o.L2 == 0 {
		o.L2 = DefaultL2
	}
	if !(o.L2 > 0) || math.IsInf(o.L2, 1) {
		return o, fmt.Errorf("gbdt: Options.L2 = %v, want a positive finite regularisation (0 means %v)", opt.L2, DefaultL2)
	}
	if o.Subsample == 0 {
		o.Subsample = 1
	}
	if !(o.Subsample > 0 && o.Subsample <= 1) {
		return o, fmt.Errorf("gbdt: Options.Subsample = %v, want a fraction in (0, 1] (0 means 1, all rows)", opt.Subsample)
	}
	if o.Workers == 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if o.Workers < 0 {
		return o, fmt.Errorf("gbdt: Options.Workers = %d, want a positive number of goroutines (0 means GOMAXPROCS)", opt.Workers)
	}
	return o, nil
}
