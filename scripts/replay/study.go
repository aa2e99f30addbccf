package main

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/sluice-project/sluice/evaluate"
	"github.com/sluice-project/sluice/label"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/train"
)

// study runs the mode of study the flags ask for instead of the rules
// (-fallbacks, -page-stats, -calibration, -calibrate, -oracle, -page),
// and reports whether one ran.
func study(kept []*train.TrainPage, fold []int, labs []*label.Labeller, marg [][][]float64, base *train.CVResult, other int) (bool, error) {
	if fallbacks {
		printFallbacks(kept, marg, base, other)
		return true, nil
	}
	if pageStats {
		printPageStats(kept, marg, base, other)
		return true, nil
	}
	if calib {
		printCalibration(kept, marg, other)
		return true, nil
	}
	if calibrate != "" {
		typeOf := func(i int) string {
			switch calibrate {
			case "type":
				return kept[i].Data.Gold.PageType
			case "set":
				return kept[i].Data.Set
			}
			return "all"
		}
		res, err := train.ScoreHeldOut(kept, fold, labs, calibrateByType(kept, fold, marg, other, typeOf), label.ExpectedF1, nil)
		if err != nil {
			return true, err
		}
		report("calibrate by "+calibrate, base, res)
		return true, nil
	}
	if oracle {
		res, err := train.ScoreHeldOut(kept, fold, labs, oracleMarginals(kept, marg), label.ExpectedF1, nil)
		if err != nil {
			return true, err
		}
		report("oracle", base, res)
		return true, nil
	}
	if learnCut {
		m, err := learnedCut(kept, fold, marg, other)
		if err != nil {
			return true, err
		}
		res, err := train.ScoreHeldOut(kept, fold, labs, m, label.ExpectedF1, nil)
		if err != nil {
			return true, err
		}
		report("learned cut", base, res)
		return true, nil
	}
	if oracleCut {
		res, err := train.ScoreHeldOut(kept, fold, labs, oracleCutMarginals(kept, marg, other), label.ExpectedF1, nil)
		if err != nil {
			return true, err
		}
		report("oracle cut", base, res)
		printCutDirection(kept, marg, other)
		return true, nil
	}
	if sharedCuts != "" {
		var sigmas []float64
		for _, f := range strings.Split(sharedCuts, ",") {
			s, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			if err != nil || s < 0 {
				return true, fmt.Errorf("-shared-cut %q: want spreads of 0 or more", f)
			}
			sigmas = append(sigmas, s)
		}
		return true, printSharedCuts(kept, fold, labs, marg, base, other, sigmas)
	}
	if showPage != "" {
		printPage(kept, marg, showPage, other)
		return true, nil
	}
	return false, nil
}

// printPage prints the blocks of one held-out page: its held-out content
// probability, words, the label the alignment with the gold gave it, the
// element's tag and classes, and the start of its text.
func printPage(kept []*train.TrainPage, marg [][][]float64, key string, other int) {
	for i, p := range kept {
		if p.Data.Set+"/"+p.Data.ID != key {
			continue
		}
		pg := p.Example.Page
		for b, bl := range pg.Blocks {
			gold := "-"
			if b < len(p.Example.Labels) {
				gold = p.Example.Labels[b].String()
			}
			tag := ""
			if n := bl.Node; n >= 0 && int(n) < len(pg.Nodes) {
				tag = pg.Nodes[n].Atom.String() + "." + pg.Nodes[n].Class
			}
			text := []rune(bl.Text)
			if len(text) > 90 {
				text = text[:90]
			}
			fmt.Printf("%4d %.3f %4d %-12s %-30.30s %s\n", b, 1-marg[i][b][other], bl.Words, gold, tag, string(text))
		}
		return
	}
	fmt.Println("no page", key)
}

// oracleMarginals returns marginals that are sure of the labels the
// alignment with the gold gave each block (a page without them keeps
// its held-out marginals): what a labeller that decided every block as
// the gold would score, the ceiling the segmentation leaves.
func oracleMarginals(kept []*train.TrainPage, marg [][][]float64) [][][]float64 {
	out := make([][][]float64, len(marg))
	for i, p := range kept {
		out[i] = cloneMarg(marg[i])
		if len(p.Example.Labels) != len(marg[i]) {
			continue
		}
		for b, l := range p.Example.Labels {
			clear(out[i][b])
			out[i][b][slices.Index(label.Labels, l.String())] = 1
		}
	}
	return out
}

// oracleCutMarginals keeps, on each page, the blocks of the prefix (in
// the order of their held-out content probability) whose words the
// alignment with the gold scores best by bag-of-words F1, and drops the
// rest: what the labeller's own ordering of the blocks could reach with
// the best cut on every page. A kept block keeps the model's likeliest
// content label.
func oracleCutMarginals(kept []*train.TrainPage, marg [][][]float64, other int) [][][]float64 {
	out := make([][][]float64, len(marg))
	for i, p := range kept {
		out[i] = cloneMarg(marg[i])
		ls := p.Example.Labels
		if len(ls) != len(marg[i]) {
			continue
		}
		blocks := p.Example.Page.Blocks
		order := make([]int, len(ls))
		gold := 0.0
		for b := range order {
			order[b] = b
			if ls[b].Kept() {
				gold += float64(blocks[b].Words)
			}
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(marg[i][a][other], marg[i][b][other]) })
		best, bestK, tp, words := 0.0, 0, 0.0, 0.0
		for k, b := range order {
			words += float64(blocks[b].Words)
			if ls[b].Kept() {
				tp += float64(blocks[b].Words)
			}
			if f := 2 * tp / (words + gold); f > best {
				best, bestK = f, k+1
			}
		}
		for k, b := range order {
			decideRow(out[i][b], k < bestK, other)
		}
	}
	return out
}

// printCalibration prints, for the pages of each set (WCXB by page type),
// the share of words the gold holds among blocks of each band of held-out
// content probability, split by the page's highest block probability:
// whether a block's probability means the same on a page the model is
// sure of and on one it is not.
func printCalibration(kept []*train.TrainPage, marg [][][]float64, other int) {
	type cell struct{ gold, words float64 }
	const pb, mb = 10, 4
	tables := map[string]*[mb][pb]cell{}
	for i, p := range kept {
		if len(p.Example.Labels) != len(marg[i]) {
			continue
		}
		key := p.Data.Set
		if pt := p.Data.Gold.PageType; pt != "" {
			key += " " + pt
		}
		t := tables[key]
		if t == nil {
			t = new([mb][pb]cell)
			tables[key] = t
		}
		maxP := 0.0
		for _, row := range marg[i] {
			maxP = max(maxP, 1-row[other])
		}
		m := min(int(maxP*mb), mb-1)
		for b, row := range marg[i] {
			c := 1 - row[other]
			k := min(int(c*pb), pb-1)
			w := float64(p.Example.Page.Blocks[b].Words)
			t[m][k].words += w
			if p.Example.Labels[b] != page.Other {
				t[m][k].gold += w
			}
		}
	}
	for _, key := range slices.Sorted(maps.Keys(tables)) {
		t := tables[key]
		fmt.Printf("\n%s: gold share of the words (words in thousands), by block p (columns) and page max p (rows)\n", key)
		for m := range mb {
			fmt.Printf("max %.2f-%.2f:", float64(m)/mb, float64(m+1)/mb)
			for k := range pb {
				c := t[m][k]
				if c.words == 0 {
					fmt.Printf(" %11s", "")
					continue
				}
				fmt.Printf(" %.2f(%5.1f)", c.gold/c.words, c.words/1000)
			}
			fmt.Println()
		}
	}
}

// printPageStats prints a line for every held-out page: its set, id and
// type, whether its gold is empty (an empty output scores 1), the highest
// block probability, the expected content words (Σ p·w), the decision's precision, recall
// and F1, whether the fallback made it, and the page's site.
func printPageStats(kept []*train.TrainPage, marg [][][]float64, base *train.CVResult, other int) {
	for i, ps := range base.Pages {
		p := kept[i]
		maxP, pw, _ := pageSums(p.Example.Page, marg[i], other)
		m, _ := evaluate.Lookup(evaluate.Main(p.Kind))
		empty := m.Score(&evaluate.Output{}, &p.Data.Gold).F1()
		fmt.Printf("%s\t%s\t%s\t%.0f\t%.3f\t%.1f\t%.3f\t%.3f\t%.3f\t%v\t%s\n", ps.Set, ps.ID, ps.PageType, empty, maxP, pw, ps.P, ps.R, ps.F1, ps.Fallback, p.Data.Site)
	}
}
