package main

import (
	"fmt"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/evaluate"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/train"
)

// printFallbacks lists the held-out pages of which the labeller keeps
// nothing (sluice.Cleaner then cleans them with its fallback filter), with
// what the marginals say of them and how the fallback and an empty output
// score.
func printFallbacks(kept []*train.TrainPage, marg [][][]float64, base *train.CVResult, other int) {
	heur, err := sluice.New(sluice.Options{Filter: sluice.DefaultFilter})
	if err != nil {
		panic(err)
	}
	fmt.Println("| set | id | blocks | words | max p | Σ p·w | fallback words | their mean p | fallback F1 | empty output F1 |")
	fmt.Println("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	for i, ps := range base.Pages {
		if !ps.Fallback {
			continue
		}
		p := kept[i]
		maxP, pw, words := pageSums(p.Example.Page, marg[i], other)
		pg := *p.Example.Page
		pg.Blocks = append([]page.Block(nil), pg.Blocks...)
		heur.Score(&pg)
		var fw, fpw float64
		for b := range pg.Blocks {
			if pg.Blocks[b].Label != page.Other {
				w := float64(pg.Blocks[b].Words)
				fw += w
				fpw += w * (1 - marg[i][b][other])
			}
		}
		m, _ := evaluate.Lookup(evaluate.Main(p.Kind))
		empty := m.Score(&evaluate.Output{}, &p.Data.Gold)
		fmt.Printf("| %s | %s | %d | %d | %.3f | %.1f | %.0f | %.3f | %.3f | %.3f |\n", ps.Set, ps.ID, len(marg[i]), words, maxP, pw, fw, fpw/max(fw, 1), ps.F1, empty.F1())
	}
}

// pageSums returns what a page's marginals say of it as a whole: the
// highest content probability of a block, the expected content words
// (Σ p·w) and the words of the page.
func pageSums(p *page.Page, marg [][]float64, other int) (maxP, pw float64, words int) {
	for b, row := range marg {
		c := 1 - row[other]
		maxP = max(maxP, c)
		w := int(p.Blocks[b].Words)
		pw += c * float64(w)
		words += w
	}
	return maxP, pw, words
}
