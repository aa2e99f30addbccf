package main

import (
	"github.com/sluice-project/sluice/label"
	"github.com/sluice-project/sluice/page"
)

// The labeller decides a page none of whose blocks reaches
// label.SureContent, but whose likeliest reaches label.UnsureContent, on
// probabilities scaled so that the likeliest is label.UnsureTop; under
// UnsureContent it keeps nothing and the cleaner falls back to its
// heuristic pipeline. Marginals do not record that decision: replay's
// figures include it (its scores are the labeller's), and unsureAt moves
// its lower bound. (Undoing it from the marginals is not exact: scaling a
// page's probabilities down under UnsureContent, to send it to the
// fallback, changes the scores the fallback floor reads.)

// unsureAt lets the labeller decide the pages whose likeliest block lies
// in [lo, label.UnsureContent) too, by scaling their probabilities as it
// scales those of the pages above.
func unsureAt(lo float64) func(p *page.Page, style string, marg [][]float64, other int) {
	return func(_ *page.Page, _ string, marg [][]float64, other int) {
		m := highest(marg, other)
		if m < lo || m >= label.UnsureContent {
			return
		}
		s := label.UnsureTop / m
		remap(marg, other, func(c float64) float64 { return min(1, c*s) })
	}
}

// highest is the highest content probability of a page's blocks.
func highest(marg [][]float64, other int) float64 {
	m := 0.0
	for _, row := range marg {
		m = max(m, 1-row[other])
	}
	return m
}

// lowToZero sets to 0 the content probabilities under t: the long tail of
// unlikely blocks then adds nothing to the expected gold words that the
// expected-F1 rule divides by.
func lowToZero(t float64) func(p *page.Page, style string, marg [][]float64, other int) {
	return func(_ *page.Page, _ string, marg [][]float64, other int) {
		remap(marg, other, func(c float64) float64 {
			if c < t {
				return 0
			}
			return c
		})
	}
}

// liftBelow scales, as the unsure rule does, the probabilities of a page
// whose likeliest block lies in [label.SureContent, hi), so that the
// likeliest is label.UnsureTop: whether a page the model is only a little
// sure of gains as the unsure pages gained.
func liftBelow(hi float64) func(p *page.Page, style string, marg [][]float64, other int) {
	return func(_ *page.Page, _ string, marg [][]float64, other int) {
		m := highest(marg, other)
		if m < label.SureContent || m >= hi {
			return
		}
		s := label.UnsureTop / m
		remap(marg, other, func(c float64) float64 { return min(1, c*s) })
	}
}
