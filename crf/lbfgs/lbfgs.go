// Package lbfgs is the minimiser that crf.Train uses: limited-memory BFGS
// with a Moré–Thuente line search, from gonum's optimize package. It lives
// apart from package crf so that a program that only labels pages (package
// sluice, the cleaning path of the CLI) does not link an optimiser; set
// crf.TrainOptions.Minimizer to Minimizer{} to train.
package lbfgs

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"gonum.org/v1/gonum/optimize"
)

// Minimizer is L-BFGS. Store is the number of past steps it keeps; zero
// means 10. It implements crf.Minimizer.
type Minimizer struct {
	Store int
}

// Minimize minimises f from x (which it does not change) and returns the
// best point found. f returns the function's value at its first argument
// and writes the gradient into its second. Minimize stops after maxIter
// iterations, when the value has improved by less than tol (relative) in
// each of the last window iterations, when a line search can make no more
// progress (the optimum to floating-point precision), or with ctx's error.
// progress, when not nil, is called after each iteration (from 1) with the
// value and the gradient there.
func (m Minimizer) Minimize(ctx context.Context, x []float64, f func(x, grad []float64) float64,
	maxIter int, tol float64, window int, progress func(iter int, value float64, grad []float64)) ([]float64, error) {
	c := cache{f: f, x: make([]float64, len(x)), g: make([]float64, len(x))}
	prob := optimize.Problem{
		Func: func(x []float64) float64 { return c.at(x).v },
		Grad: func(g, x []float64) { copy(g, c.at(x).g) },
		Status: func() (optimize.Status, error) {
			if err := ctx.Err(); err != nil {
				return optimize.Failure, err
			}
			return optimize.NotTerminated, nil
		},
	}
	settings := &optimize.Settings{
		MajorIterations: maxIter,
		Converger:       &optimize.FunctionConverge{Relative: tol, Iterations: window},
		Recorder:        &recorder{fn: progress},
	}
	store := m.Store
	if store <= 0 {
		store = 10
	}
	method := &optimize.LBFGS{Store: store, Linesearcher: &optimize.MoreThuente{}}
	res, err := optimize.Minimize(prob, slices.Clone(x), settings, method)
	if cerr := ctx.Err(); cerr != nil {
		return nil, cerr
	}
	if err != nil {
		if res == nil || !(errors.Is(err, optimize.ErrLinesearcherFailure) ||
			errors.Is(err, optimize.ErrNoProgress) || errors.Is(err, optimize.ErrNonDescentDirection)) {
			return nil, fmt.Errorf("lbfgs: %w", err)
		}
	}
	return res.X, nil
}

// cache holds the last point evaluated: gonum asks for the value and the
// gradient at one point separately, and f computes both at once.
type cache struct {
	f     func(x, grad []float64) float64
	x, g  []float64
	v     float64
	valid bool
}

func (c *cache) at(x []float64) *cache {
	if !c.valid || !slices.Equal(x, c.x) {
		copy(c.x, x)
		c.v = c.f(c.x, c.g)
		c.valid = true
	}
	return c
}

// recorder reports each major iteration to a progress function.
type recorder struct {
	fn   func(iter int, value float64, grad []float64)
	iter int
}

func (r *recorder) Init() error { return nil }

func (r *recorder) Record(loc *optimize.Location, op optimize.Operation, _ *optimize.Stats) error {
	if op != optimize.MajorIteration || r.fn == nil {
		return nil
	}
	r.iter++
	if r.iter == 1 {
		return nil // the starting point
	}
	r.fn(r.iter-1, loc.F, loc.Gradient)
	return nil
}
