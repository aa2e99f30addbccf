package main

import (
	"cmp"
	"context"
	"math"
	"slices"

	"github.com/sluice-project/sluice/gbdt"
	"github.com/sluice-project/sluice/internal/expectf1"
	"github.com/sluice-project/sluice/label"
	"github.com/sluice-project/sluice/train"
)

// cutGrid are the thresholds a learned cut chooses among, besides the
// expected-F1 rule's own cut.
var cutGrid = []float64{0.02, 0.05, 0.08, 0.1, 0.13, 0.16, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95}

// cutPage is one page as the learned cut sees it: its blocks' content
// probabilities and words, sorted by probability, and whether each is
// gold by the alignment.
type cutPage struct {
	p, w  []float64
	gold  []bool
	ef    float64 // the expected-F1 rule's cut
	total float64 // words
	pw    float64 // expected gold words
	goldW float64
	sure  float64 // words at even odds or more
	// the kept words, expected true-positive words and kept blocks at
	// the rule's cut
	efKept, efTP float64
	efN          int
	ok           bool // the rule keeps something, and the page has labels
}

func newCutPage(tp *train.TrainPage, marg [][]float64, other int) cutPage {
	var c cutPage
	blocks := tp.Example.Page.Blocks
	ls := tp.Example.Labels
	order := make([]int, len(marg))
	bs := make([]expectf1.Block, len(marg))
	for b := range order {
		order[b] = b
		bs[b] = expectf1.Block{P: 1 - marg[b][other], W: float64(blocks[b].Words)}
	}
	c.ef = expectf1.Cut(bs, label.SureContent)
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(marg[a][other], marg[b][other]) })
	for _, b := range order {
		p, w := 1-marg[b][other], float64(blocks[b].Words)
		g := len(ls) == len(marg) && ls[b].Kept()
		c.p, c.w, c.gold = append(c.p, p), append(c.w, w), append(c.gold, g)
		c.total += w
		c.pw += p * w
		if g {
			c.goldW += w
		}
		if p >= 0.5 {
			c.sure += w
		}
	}
	c.ok = c.ef <= 1 && len(ls) == len(marg)
	c.efKept, c.efTP, c.efN, _ = c.at(c.ef)
	return c
}

// candidates returns the thresholds to weigh on the page: the rule's cut
// and the grid's values up to the page's highest probability.
func (c *cutPage) candidates() []float64 {
	ts := []float64{c.ef}
	for _, t := range cutGrid {
		if t <= c.p[0] && t != c.ef {
			ts = append(ts, t)
		}
	}
	return ts
}

// at returns, for threshold t, the kept words, the expected true-positive
// words, the kept blocks and the aligned F1.
func (c *cutPage) at(t float64) (kept, etp float64, n int, f1 float64) {
	tp := 0.0
	for i, p := range c.p {
		if p < t {
			break
		}
		kept += c.w[i]
		etp += p * c.w[i]
		n++
		if c.gold[i] {
			tp += c.w[i]
		}
	}
	if kept+c.goldW > 0 {
		f1 = 2 * tp / (kept + c.goldW)
	} else {
		f1 = 1
	}
	return kept, etp, n, f1
}

const cutColumns = 14

// row writes the features of threshold t on the page.
func (c *cutPage) row(t float64) ([]float32, float64) {
	kept, etp, n, f1 := c.at(t)
	ef := func(kept, etp float64) float64 { return 2 * etp / (kept + c.pw) }
	share := func(a, b float64) float32 { return float32(a / max(b, 1)) }
	return []float32{
		float32(t),
		float32(t - c.ef),
		share(kept, c.total),
		share(float64(n), float64(len(c.p))),
		float32(ef(kept, etp)),
		float32(ef(kept, etp) - ef(c.efKept, c.efTP)),
		share(kept, c.pw),
		share(kept, c.efKept),
		float32(n - c.efN),
		float32(c.p[0]),
		float32(math.Log1p(c.total)),
		float32(math.Log1p(float64(len(c.p)))),
		share(c.pw, c.total),
		share(c.sure, c.total),
	}, f1
}

// learnedCut decides every page at the threshold a model of the F1 at
// each candidate threshold, fitted fold by fold on the other folds'
// pages, likes best; pages the rule keeps nothing of are left as they
// are.
func learnedCut(kept []*train.TrainPage, fold []int, marg [][][]float64, other int) ([][][]float64, error) {
	cps := make([]cutPage, len(kept))
	for i, p := range kept {
		cps[i] = newCutPage(p, marg[i], other)
	}
	out := make([][][]float64, len(kept))
	for i := range kept {
		out[i] = cloneMarg(marg[i])
	}
	opt := gbdt.Options{Trees: 150, Depth: 4, LearningRate: 0.1, MinLeaf: 5, Workers: 2}
	for f := range slices.Max(fold) + 1 {
		var x []float32
		var y []float64
		for i := range kept {
			if fold[i] == f || !cps[i].ok || kept[i].ScoreOnly != "" {
				continue
			}
			for _, t := range cps[i].candidates() {
				r, f1 := cps[i].row(t)
				x = append(x, r...)
				y = append(y, f1)
			}
		}
		m, err := gbdt.Train(context.Background(), x, cutColumns, y, nil, opt)
		if err != nil {
			return nil, err
		}
		for i := range kept {
			if fold[i] != f || !cps[i].ok {
				continue
			}
			c := &cps[i]
			efRow, _ := c.row(c.ef)
			best, bestT := m.Margin(efRow)+cutMargin, c.ef
			for _, t := range c.candidates()[1:] {
				r, _ := c.row(t)
				if v := m.Margin(r); v > best {
					best, bestT = v, t
				}
			}
			for b, row := range out[i] {
				decideRow(row, 1-marg[i][b][other] >= bestT, other)
			}
		}
	}
	return out, nil
}

// cutMargin is how much better, in the model's margin, a threshold must
// look than the rule's cut to be taken instead.
var cutMargin = 0.0

// decideRow makes a block's marginals one-hot: on its likeliest content
// label when keep, else on other.
func decideRow(row []float64, keep bool, other int) {
	top := other
	if keep {
		top = -1
		for l := range row {
			if l != other && (top < 0 || row[l] > row[top]) {
				top = l
			}
		}
	}
	clear(row)
	row[top] = 1
}
