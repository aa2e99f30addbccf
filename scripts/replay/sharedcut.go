package main

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/sluice-project/sluice/internal/expectf1"
	"github.com/sluice-project/sluice/label"
	"github.com/sluice-project/sluice/train"
)

// The expected-F1 rule takes a page's blocks as independent: the model's
// errors on one block say nothing of its errors on the next. Held out they
// are not: when the model misjudges a page (a product page's marketing
// copy read as an article), it misjudges many of its blocks the same way.
// The shared cut models that with one page-wide shift δ ~ N(0, σ²) of every
// block's logit: it keeps the prefix of the blocks (sorted by probability)
// that maximises E_δ[E[F1 | δ]], the inner expectation the rule's own
// ratio, the outer one a seven-point Gauss–Hermite sum. σ = 0 is the rule.
// With -cut-beta β, the F it maximises is F_β = (1+β²)·TP/(kept + β²·gold)
// instead (β < 1 weighs precision more, the side the weak page types lose
// on).

// cutBeta is the β of the F the shared cut maximises (1: F1).
var cutBeta = 1.0

// hermite7 are the nodes and weights of the seven-point Gauss–Hermite rule
// for the standard normal distribution (the weights add to 1).
var hermite7 = [7][2]float64{
	{-3.750439717725742, 0.000548268855972},
	{-2.366759410734541, 0.030757123967586},
	{-1.154405394739968, 0.240123178605013},
	{0, 0.457142857142857},
	{1.154405394739968, 0.240123178605013},
	{2.366759410734541, 0.030757123967586},
	{3.750439717725742, 0.000548268855972},
}

// sharedCut returns the number of blocks to keep of p (probabilities,
// highest first) with words w, under a page-wide logit shift of spread
// sigma; blocks of one probability go together.
func sharedCut(p, w []float64, sigma float64) int {
	type node struct{ gold, tp, weight, shift float64 }
	var ns [7]node
	for j, h := range hermite7 {
		ns[j].weight, ns[j].shift = h[1], sigma*h[0]
		for i := range p {
			ns[j].gold += shifted(p[i], ns[j].shift) * w[i]
		}
	}
	b2 := cutBeta * cutBeta
	best, bestK, kept := -1.0, 0, 0.0
	for i := range p {
		kept += w[i]
		ef := 0.0
		for j := range ns {
			ns[j].tp += shifted(p[i], ns[j].shift) * w[i]
			if ns[j].gold > 0 {
				ef += ns[j].weight * (1 + b2) * ns[j].tp / (kept + b2*ns[j].gold)
			}
		}
		if i+1 < len(p) && p[i+1] == p[i] {
			continue
		}
		if ef > best {
			best, bestK = ef, i+1
		}
	}
	return bestK
}

// shifted is probability p with its logit moved by d.
func shifted(p, d float64) float64 {
	if d == 0 || p <= 0 || p >= 1 {
		return p
	}
	return 1 / (1 + math.Exp(-(math.Log(p/(1-p)) + d)))
}

// sharedCutMarginals decides every page the expected-F1 rule keeps
// something of (after its unsure scaling) at the shared cut of spread
// sigma, one-hot; with sigma < 0, at the rule's own cut, one-hot too, the
// baseline the shared cuts are measured against.
func sharedCutMarginals(kept []*train.TrainPage, marg [][][]float64, other int, sigma float64) [][][]float64 {
	out := make([][][]float64, len(kept))
	for i, tp := range kept {
		out[i] = cloneMarg(marg[i])
		blocks := tp.Example.Page.Blocks
		bs := make([]expectf1.Block, len(marg[i]))
		for b := range bs {
			bs[b] = expectf1.Block{P: 1 - marg[i][b][other], W: float64(blocks[b].Words)}
		}
		t := expectf1.CutUnsure(slices.Clone(bs), label.SureContent, label.UnsureContent, label.UnsureTop)
		if t > 1 {
			continue
		}
		if sigma >= 0 {
			top := slices.MaxFunc(bs, func(a, b expectf1.Block) int { return cmp.Compare(a.P, b.P) }).P
			scale := 1.0
			if top < label.SureContent {
				scale = label.UnsureTop / top
			}
			slices.SortStableFunc(bs, func(a, b expectf1.Block) int { return cmp.Compare(b.P, a.P) })
			p, w := make([]float64, len(bs)), make([]float64, len(bs))
			for b := range bs {
				p[b], w[b] = min(1, bs[b].P*scale), bs[b].W
			}
			k := sharedCut(p, w, sigma)
			t = float64(expectf1.None)
			if k > 0 {
				t = bs[k-1].P
			}
		}
		for b, row := range out[i] {
			decideRow(row, 1-marg[i][b][other] >= t, other)
		}
	}
	return out
}

// printSharedCuts reports the shared cuts of the spreads against the
// rule's cut, both one-hot.
func printSharedCuts(kept []*train.TrainPage, fold []int, labs []*label.Labeller, marg [][][]float64, base *train.CVResult, other int, sigmas []float64) error {
	ref, err := train.ScoreHeldOut(kept, fold, labs, sharedCutMarginals(kept, marg, other, -1), label.ExpectedF1, nil)
	if err != nil {
		return err
	}
	report("the rule's cut one-hot (against the marginals)", base, ref)
	if cutBeta != 1 {
		fmt.Printf("(F_β with β = %g)\n", cutBeta)
	}
	for _, s := range sigmas {
		res, err := train.ScoreHeldOut(kept, fold, labs, sharedCutMarginals(kept, marg, other, s), label.ExpectedF1, nil)
		if err != nil {
			return err
		}
		report(fmt.Sprintf("shared cut, sigma %g (against the rule's cut one-hot)", s), ref, res)
	}
	return nil
}
