package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/sluice-project/sluice/score"
)

var weak = []string{"product", "collection", "listing", "forum"}

// types returns the page types present, article first, then by name.
func types(rs []*pageResult) []string {
	var ts []string
	for _, r := range rs {
		if !slices.Contains(ts, r.typ) {
			ts = append(ts, r.typ)
		}
	}
	slices.SortFunc(ts, func(a, b string) int {
		switch {
		case a == b:
			return 0
		case a == "article":
			return -1
		case b == "article":
			return 1
		case a < b:
			return -1
		}
		return 1
	})
	return ts
}

func ofType(rs []*pageResult, typ string) []*pageResult {
	if typ == "all" {
		return rs
	}
	var out []*pageResult
	for _, r := range rs {
		if r.typ == typ {
			out = append(out, r)
		}
	}
	return out
}

func report(w io.Writer, rs []*pageResult) {
	typeTable(w, rs)
	for _, t := range weak {
		kindTable(w, t, ofType(rs, t))
	}
	kindTable(w, "article", ofType(rs, "article"))
	for _, t := range weak {
		missedTable(w, t, ofType(rs, t))
	}
	ruleTable(w, rs)
}

func macro(rs []*pageResult, c func(*pageResult) score.Counts) (p, r, f, low float64) {
	for _, x := range rs {
		k := c(x)
		p += k.Precision()
		r += k.Recall()
		f += k.F1()
		if k.F1() < 0.7 {
			low++
		}
	}
	n := float64(max(len(rs), 1))
	return p / n, r / n, f / n, low / n
}

func typeTable(w io.Writer, rs []*pageResult) {
	fmt.Fprintln(w, "## Per page type (bow, macro over pages)")
	fmt.Fprintln(w, "| type | pages | P | R | F1 | F1 < 0.7 | kept words not in gold | gold words missed | F1 (blocks concatenated) | empty gold | F1 without them | F1 < 0.7 without them | gold < 80% in the blocks |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, t := range append(types(rs), "all") {
		sub := ofType(rs, t)
		p, r, f, low := macro(sub, func(x *pageResult) score.Counts { return x.official })
		_, _, fb, _ := macro(sub, func(x *pageResult) score.Counts { return x.base })
		var fp, fn int
		for _, x := range sub {
			fp += x.official.FP
			fn += x.official.FN
		}
		var withGold []*pageResult
		absent := 0
		for _, x := range sub {
			if x.coverage < 0.8 {
				absent++
			}
			if x.official.TP+x.official.FN > 0 {
				withGold = append(withGold, x)
			}
		}
		_, _, fg, lowg := macro(withGold, func(x *pageResult) score.Counts { return x.official })
		fmt.Fprintf(w, "| %s | %d | %.1f | %.1f | %.1f | %.0f%% | %d | %d | %.1f | %d | %.1f | %.0f%% | %d |\n", t, len(sub), 100*p, 100*r, 100*f, 100*low,
			fp, fn, 100*fb, len(sub)-len(withGold), 100*fg, 100*lowg, absent)
	}
	fmt.Fprintln(w)
}

type kindSum struct {
	blocks, wrong, fp, tp, missed, missedBlocks, pages int
	// loss is the kind's share of the macro precision (kept) or recall
	// (missed) lost, summed over pages before dividing by their number.
	loss float64
}

func kindTable(w io.Writer, typ string, rs []*pageResult) {
	sums := map[string]*kindSum{}
	for _, k := range kindOrder {
		sums[k] = &kindSum{}
	}
	total, inside := 0, 0
	for _, r := range rs {
		seen := map[string]bool{}
		for i := range r.blocks {
			b := &r.blocks[i]
			if !b.kept {
				continue
			}
			s := sums[b.kind]
			s.blocks++
			s.fp += b.fp
			s.tp += b.tp
			if !b.f.outside80 {
				inside += b.fp
			}
			s.loss += float64(b.fp) / float64(max(r.base.TP+r.base.FP, 1))
			total += b.fp
			if b.fp > b.tp {
				s.wrong++
				if !seen[b.kind] {
					seen[b.kind] = true
					s.pages++
				}
			}
		}
	}
	fmt.Fprintf(w, "## Kept words not in the gold, by kind: %s (%d pages, %d words)\n", typ, len(rs), total)
	fmt.Fprintln(w, "| kind | kept blocks | blocks mostly wrong | pages with one | wrong words | share | macro P points lost | gold words in the kind |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|")
	for _, k := range sortedKinds(sums, func(s *kindSum) int { return s.fp }) {
		s := sums[k]
		fmt.Fprintf(w, "| %s | %d | %d | %d | %d | %.1f%% | %.1f | %d |\n", k, s.blocks, s.wrong, s.pages, s.fp,
			100*float64(s.fp)/float64(max(total, 1)), 100*s.loss/float64(max(len(rs), 1)), s.tp)
	}
	fmt.Fprintf(w, "\nWrong words inside the deepest element holding 80%% of the kept words: %d of %d (%.0f%%).\n\n",
		inside, total, 100*float64(inside)/float64(max(total, 1)))
}

func sortedKinds(sums map[string]*kindSum, by func(*kindSum) int) []string {
	ks := slices.Clone(kindOrder)
	slices.SortStableFunc(ks, func(a, b string) int { return by(sums[b]) - by(sums[a]) })
	return ks
}

func missedTable(w io.Writer, typ string, rs []*pageResult) {
	sums := map[string]*kindSum{}
	for _, k := range kindOrder {
		sums[k] = &kindSum{}
	}
	total, un := 0, 0
	for _, r := range rs {
		un += r.unattributed
		total += r.unattributed
		for i := range r.blocks {
			b := &r.blocks[i]
			if !b.kept && b.missed > 0 {
				sums[b.kind].missed += b.missed
				sums[b.kind].missedBlocks++
				sums[b.kind].loss += float64(b.missed) / float64(max(r.base.TP+r.base.FN, 1))
				total += b.missed
			}
		}
	}
	fmt.Fprintf(w, "## Gold words missed, by kind of the dropped block: %s (%d words)\n", typ, total)
	fmt.Fprintln(w, "| kind | dropped blocks holding gold | missed words | share | macro R points lost |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|")
	for _, k := range sortedKinds(sums, func(s *kindSum) int { return s.missed }) {
		s := sums[k]
		fmt.Fprintf(w, "| %s | %d | %d | %.1f%% | %.1f |\n", k, s.missedBlocks, s.missed,
			100*float64(s.missed)/float64(max(total, 1)), 100*s.loss/float64(max(len(rs), 1)))
	}
	fmt.Fprintf(w, "| (in no dropped block) | | %d | %.1f%% |\n\n", un, 100*float64(un)/float64(max(total, 1)))
}

func ruleTable(w io.Writer, rs []*pageResult) {
	fmt.Fprintln(w, "## Naive removal rules: macro F1 change, wrong words removed (-FP), gold words removed (-TP)")
	cols := append(slices.Clone(weak), "article", "all")
	fmt.Fprint(w, "| rule |")
	for _, c := range cols {
		fmt.Fprintf(w, " %s ΔF1 | -FP | -TP |", c)
	}
	fmt.Fprintln(w)
	fmt.Fprint(w, "|---|")
	for range cols {
		fmt.Fprint(w, "---:|---:|---:|")
	}
	fmt.Fprintln(w)
	for k, ru := range rules {
		fmt.Fprintf(w, "| %s |", ru.name)
		for _, c := range cols {
			sub := ofType(rs, c)
			_, _, f0, _ := macro(sub, func(x *pageResult) score.Counts { return x.base })
			_, _, f1, _ := macro(sub, func(x *pageResult) score.Counts { return x.rules[k] })
			dfp, dtp := 0, 0
			for _, x := range sub {
				dfp += x.base.FP - x.rules[k].FP
				dtp += x.base.TP - x.rules[k].TP
			}
			fmt.Fprintf(w, " %+.1f | %d | %d |", 100*(f1-f0), dfp, dtp)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
}

func writeBlocks(path string, rs []*pageResult) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	b := bufio.NewWriter(f)
	fmt.Fprintln(b, "id\ttype\tblock\tkept\ttp\tfp\tmissed\tkind\twords\tlinkdens\trep\titemwords\tdata\tcue\ttext")
	for _, r := range rs {
		for i := range r.blocks {
			x := &r.blocks[i]
			if x.fp == 0 && x.missed == 0 {
				continue
			}
			fmt.Fprintf(b, "%s\t%s\t%d\t%v\t%d\t%d\t%d\t%s\t%d\t%.2f\t%d\t%d\t%v\t%s\t%s\n", r.id, r.typ, x.idx, x.kept,
				x.tp, x.fp, x.missed, x.kind, x.f.words, x.f.linkDens, x.f.rep, x.f.itemWords, x.f.dataTable,
				oneLine(x.f.cue, 80), oneLine(x.text, 100))
		}
	}
	if err := b.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func writePages(path string, rs []*pageResult) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	b := bufio.NewWriter(f)
	fmt.Fprintln(b, "id\ttype\tP\tR\tF1\tFP\tFN\tcoverage")
	for _, r := range rs {
		c := r.official
		fmt.Fprintf(b, "%s\t%s\t%.3f\t%.3f\t%.3f\t%d\t%d\t%.3f\n", r.id, r.typ, c.Precision(), c.Recall(), c.F1(), c.FP, c.FN, r.coverage)
	}
	if err := b.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
