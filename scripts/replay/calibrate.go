package main

import (
	"math"

	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/train"
)

// platt is a recalibration of a content probability p: the logit of p
// scaled by A and moved by B.
type platt struct{ A, B float64 }

func (c platt) apply(p float64) float64 {
	p = min(max(p, 1e-6), 1-1e-6)
	z := c.A*math.Log(p/(1-p)) + c.B
	return 1 / (1 + math.Exp(-z))
}

// fitPlatt fits A and B by Newton's method on the word-weighted log loss
// of the blocks (their logit, whether they are gold, their words), with a
// light pull toward the identity (A 1, B 0).
func fitPlatt(x, y, w []float64) platt {
	c := platt{A: 1}
	const ridge = 1.0
	for range 50 {
		var g0, g1, h00, h01, h11 float64
		for i := range x {
			z := c.A*x[i] + c.B
			p := 1 / (1 + math.Exp(-z))
			r := (p - y[i]) * w[i]
			g0 += r * x[i]
			g1 += r
			s := p * (1 - p) * w[i]
			h00 += s * x[i] * x[i]
			h01 += s * x[i]
			h11 += s
		}
		g0 += ridge * (c.A - 1)
		g1 += ridge * c.B
		h00 += ridge
		h11 += ridge
		det := h00*h11 - h01*h01
		if det <= 0 {
			break
		}
		dA := (h11*g0 - h01*g1) / det
		dB := (h00*g1 - h01*g0) / det
		c.A -= dA
		c.B -= dB
		if math.Abs(dA)+math.Abs(dB) < 1e-9 {
			break
		}
	}
	return c
}

// calibrateByType recalibrates the content probabilities of each page by
// a Platt map of its group (typeOf: the page's type, "" to leave the page
// alone), fitted on the blocks of the other folds' pages of that group.
func calibrateByType(kept []*train.TrainPage, fold []int, marg [][][]float64, other int, typeOf func(i int) string) [][][]float64 {
	out := make([][][]float64, len(marg))
	for i := range marg {
		out[i] = cloneMarg(marg[i])
	}
	folds := 0
	for _, f := range fold {
		folds = max(folds, f+1)
	}
	for f := range folds {
		type data struct{ x, y, w []float64 }
		byType := map[string]*data{}
		for i, p := range kept {
			t := typeOf(i)
			if fold[i] == f || t == "" || len(p.Example.Labels) != len(marg[i]) {
				continue
			}
			d := byType[t]
			if d == nil {
				d = &data{}
				byType[t] = d
			}
			for b, row := range marg[i] {
				c := min(max(1-row[other], 1e-6), 1-1e-6)
				d.x = append(d.x, math.Log(c/(1-c)))
				gold := 0.0
				if p.Example.Labels[b] != page.Other {
					gold = 1
				}
				d.y = append(d.y, gold)
				d.w = append(d.w, math.Log1p(float64(p.Example.Page.Blocks[b].Words)))
			}
		}
		maps := map[string]platt{}
		for t, d := range byType {
			maps[t] = fitPlatt(d.x, d.y, d.w)
		}
		for i := range kept {
			t := typeOf(i)
			m, ok := maps[t]
			if fold[i] != f || !ok {
				continue
			}
			remap(out[i], other, m.apply)
		}
	}
	return out
}
