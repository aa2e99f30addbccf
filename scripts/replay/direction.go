package main

import (
	"cmp"
	"fmt"
	"maps"
	"slices"

	"github.com/sluice-project/sluice/internal/expectf1"
	"github.com/sluice-project/sluice/label"
	"github.com/sluice-project/sluice/train"
)

// printCutDirection prints, per set (WCXB by page type), on how many pages
// the expected-F1 rule's cut keeps more blocks of the labeller's ordering
// than the best prefix (the oracle cut), on how many fewer, and the
// aligned F1 points the pages lose each way: whether the cut errs by
// keeping too much or too little, and where. The rule's cut here is the
// threshold alone, before smoothing and region, so the figures are of the
// ordering and the cut, not of the whole decision.
func printCutDirection(kept []*train.TrainPage, marg [][][]float64, other int) {
	type row struct {
		pages, over, under    int
		lossOver, lossUnder   float64
		wordsOver, wordsUnder float64
	}
	rows := map[string]*row{}
	for i, p := range kept {
		ls := p.Example.Labels
		if len(ls) != len(marg[i]) || len(ls) == 0 {
			continue
		}
		key := p.Data.Set
		if pt := p.Data.Gold.PageType; pt != "" {
			key += " " + pt
		}
		r := rows[key]
		if r == nil {
			r = &row{}
			rows[key] = r
		}
		r.pages++
		blocks := p.Example.Page.Blocks
		bs := make([]expectf1.Block, len(ls))
		order := make([]int, len(ls))
		gold := 0.0
		for b := range ls {
			order[b] = b
			bs[b] = expectf1.Block{P: 1 - marg[i][b][other], W: float64(blocks[b].Words)}
			if ls[b].Kept() {
				gold += float64(blocks[b].Words)
			}
		}
		t := expectf1.CutUnsure(bs, label.SureContent, label.UnsureContent, label.UnsureTop)
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(marg[i][a][other], marg[i][b][other]) })
		// the prefixes start with the empty one (all but 1 when the gold is empty)
		best, bestK, bestW := f1(0, 0, gold), 0, 0.0
		ruleF, ruleK, ruleW := best, 0, 0.0
		tp, words := 0.0, 0.0
		for k, b := range order {
			words += float64(blocks[b].Words)
			if ls[b].Kept() {
				tp += float64(blocks[b].Words)
			}
			f := f1(tp, words, gold)
			if f > best {
				best, bestK, bestW = f, k+1, words
			}
			if bs[b].P >= t {
				ruleK, ruleF, ruleW = k+1, f, words
			}
		}
		switch {
		case ruleK > bestK:
			r.over++
			r.lossOver += 100 * (best - ruleF)
			r.wordsOver += ruleW - bestW
		case ruleK < bestK:
			r.under++
			r.lossUnder += 100 * (best - ruleF)
			r.wordsUnder += bestW - ruleW
		}
	}
	fmt.Println("the rule's cut against the best prefix of the ordering (threshold only, before smoothing and region)")
	fmt.Printf("%-28s %6s %6s %10s %12s %6s %10s %12s\n", "set", "pages", "over", "pts lost", "extra words", "under", "pts lost", "words short")
	for _, k := range slices.Sorted(maps.Keys(rows)) {
		r := rows[k]
		n := float64(r.pages)
		fmt.Printf("%-28s %6d %6d %10.2f %12.0f %6d %10.2f %12.0f\n", k, r.pages, r.over, r.lossOver/n, r.wordsOver, r.under, r.lossUnder/n, r.wordsUnder)
	}
}

// f1 is the bag-of-words F1 of keeping words with tp of them gold, against
// gold words; 1 when both are empty.
func f1(tp, words, gold float64) float64 {
	if words+gold == 0 {
		return 1
	}
	return 2 * tp / (words + gold)
}
