package main

// A second cross-validation's marginals beside the first (-marginals2):
// whether two models, trained differently on the same folds, could be
// combined. -gate scores each page by one or the other: "types" takes
// the second's on the WCXB pages of the gold types -gate-types names (an
// oracle of the page type), "page" the better of the two on every page
// (an oracle of the page's score, the most any gate could get); the m2
// stack group gives the stacked learner the second's verdicts, a gate
// learned from what both models say.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sluice-project/sluice/label"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/train"
)

var (
	marg2Path, gate, gateTypes string
	// second holds the second marginals of each page, by its *page.Page
	// (nil where the second file lacks the page).
	second = map[*page.Page][][]float64{}
)

// loadSecond reads the second marginals and matches them to kept.
func loadSecond(pages []*train.TrainPage, kept []*train.TrainPage) error {
	held, err := readMarginals(marg2Path)
	if err != nil {
		return err
	}
	k2, _, m2, err := align(pages, held)
	if err != nil {
		return fmt.Errorf("%s: %w", marg2Path, err)
	}
	if err := applyBefore(k2, m2, otherIndex); err != nil {
		return err
	}
	for i, p := range k2 {
		second[p.Example.Page] = m2[i]
	}
	missing := 0
	for _, p := range kept {
		if second[p.Example.Page] == nil {
			missing++
		}
	}
	if missing > 0 {
		fmt.Printf("%d pages are not in %s: their first marginals stand for both\n", missing, marg2Path)
	}
	return nil
}

// secondOf returns the second marginals of kept page i, or its first.
func secondOf(kept []*train.TrainPage, marg [][][]float64, i int) [][]float64 {
	if m := second[kept[i].Example.Page]; m != nil {
		return m
	}
	return marg[i]
}

// runGate scores the pages as -gate chooses, against the first marginals,
// and the second marginals alone.
func runGate(kept []*train.TrainPage, fold []int, labs []*label.Labeller, marg [][][]float64, base *train.CVResult) error {
	alone := make([][][]float64, len(kept))
	for i := range kept {
		alone[i] = secondOf(kept, marg, i)
	}
	res2, err := train.ScoreHeldOut(kept, fold, labs, alone, label.ExpectedF1, nil)
	if err != nil {
		return err
	}
	report("the second marginals alone", base, res2)
	out := make([][][]float64, len(kept))
	types := strings.Split(gateTypes, ",")
	for i, p := range kept {
		out[i] = marg[i]
		switch gate {
		case "types":
			if slices.Contains(types, p.Data.Gold.PageType) {
				out[i] = alone[i]
			}
		case "page":
			if res2.Pages[i].F1 > base.Pages[i].F1 {
				out[i] = alone[i]
			}
		}
	}
	res, err := train.ScoreHeldOut(kept, fold, labs, out, label.ExpectedF1, nil)
	if err != nil {
		return err
	}
	report("gate "+gate, base, res)
	return nil
}

// secondColumns: the second model's content probability of the block, of
// the blocks before and after, its word-weighted mean and its highest over
// the page, and its difference from the first's.
func secondColumns(p *page.Page, c []float64, rows [][]float32) {
	m2 := second[p]
	n := len(c)
	c2 := make([]float64, n)
	var words, sum, top float64
	for b := range n {
		c2[b] = c[b]
		if m2 != nil {
			c2[b] = 1 - m2[b][otherIndex]
		}
		w := float64(p.Blocks[b].Words)
		words += w
		sum += c2[b] * w
		top = max(top, c2[b])
	}
	for b, r := range rows {
		r[0], r[1], r[2] = valueAt(c2, b), valueAt(c2, b-1), valueAt(c2, b+1)
		r[3] = float32(sum / max(words, 1))
		r[4] = float32(top)
		r[5] = float32(c2[b] - c[b])
	}
}

// otherIndex is the index of "other" in label.Labels.
var otherIndex = slices.Index(label.Labels, "other")
