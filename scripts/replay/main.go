// Command replay scores the held-out marginals of a cross-validation again,
// without training, under decision rules applied after the model: the
// study of a rule on the marginals of one run (train.ScoreHeldOut). A
// rule that only changes what is decided from the marginals (not the
// training) is measured held out this way in seconds, without the spread
// that retraining on changed pages brings (docs/experiments.md,
// "Determinism").
//
//	sluice train --cv 6 --threshold ef --marginals held.jsonl   # once, with the rules off
//	go run ./scripts/replay -marginals held.jsonl               # every rule against none
//	go run ./scripts/replay -marginals held.jsonl -rules alt
//	go run ./scripts/replay -marginals held.jsonl -rules site,site+prior -pages cleanportaleval
//
// With -stack, replay screens features instead (stack.go): boosted trees
// fitted fold by fold on the other folds' held-out verdicts, alone and
// with each feature group named, judge each fold's pages again.
//
//	go run ./scripts/replay -marginals held.jsonl -stack probs,anc,dup,rep,desc,kind,all
//
// Besides the rules on one page, the site models (sitemodel.go) correct
// each page's decisions with the model of its site's pages, as sluice
// corpus --site does; -pages SET prints the pages of a set a rule moves.
//
// The marginals are the labeller's, after the rules it applies itself
// (since f67eb42, an image's alt text alone in the main style; since the
// copies rule was built, far copies of a text too): replaying one of those
// rules measures nothing on marginals written since.
//
// The pages are loaded and segmented again as sluice train loads them
// (the binary must segment as the one that wrote the marginals: a page
// whose block count differs is reported and left out). Every fold is
// decided with the embedded model's labeller: deciding reads only the
// label order and the threshold, which every fold shares.
package main

import (
	"golang.org/x/net/html/atom"

	"bufio"
	"context"
	"flag"
	"fmt"
	"maps"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/fingerprint"
	"github.com/sluice-project/sluice/label"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/train"
)

// rules are the decision rules replay knows, by name: each changes the
// held-out marginals of one page in place.
var rules = map[string]func(p *page.Page, style string, marg [][]float64, other int){
	"alt": func(p *page.Page, style string, marg [][]float64, other int) {
		if style == label.MainStyle {
			label.DropAltAlone(p, marg, other)
		}
	},
	"altall": elementTag(atom.Img),
	"machine": func(p *page.Page, _ string, marg [][]float64, other int) {
		label.DropMachineText(p, marg, other)
	},
	"copies": func(p *page.Page, style string, marg [][]float64, other int) {
		if style == label.MainStyle {
			label.DropFarCopies(p, marg, other, nil)
		}
	},
	"samepage":   samePageLong(0, false),
	"samepage8":  samePageLong(8, false),
	"samepage20": samePageLong(20, false),
	"apart12":    samePageLong(12, true),
	"far2":       farCopies(12, 2),
	"far3":       farCopies(12, 3),
	"far4":       farCopies(12, 4),
	"twice3":     farCopiesN(12, 3, 2),
	"twice3w20":  farCopiesN(20, 3, 2),
	"twice3w6":   farCopiesN(6, 3, 2),
	"teaser8":    teasers(8, 0),
	"teaser12":   teasers(12, 0),
	"teaser8far": teasers(8, 3),
	"ui":         insideTag(atom.Button, atom.Label, atom.Option, atom.Select, atom.Legend),
	"figcaption": insideTag(atom.Figcaption),
	"time":       elementTag(atom.Time),
	"small":      elementTag(atom.Small),
	"cite":       elementTag(atom.Cite),
	"rep3short":  repeated(3, 6),
	"rep3":       repeated(3, 1<<30),
	"rep5short":  repeated(5, 6),
	"unsure20":   unsureAt(0.2),
	"unsure25":   unsureAt(0.25),
	"low05":      lowToZero(0.05),
	"lift70":     liftBelow(0.7),
	"lift90":     liftBelow(0.9),
	"low10":      lowToZero(0.1),
	"low20":      lowToZero(0.2),
	"gamma0.8":   gamma(0.8),
	"gamma1.25":  gamma(1.25),
	"gamma1.5":   gamma(1.5),
	"gamma2":     gamma(2),
}

// repeated drops the blocks of at most maxWords words whose text, digits
// folded, at least n blocks of the page hold ("Add to cart", "12 reviews").
func repeated(n, maxWords int) func(p *page.Page, style string, marg [][]float64, other int) {
	return func(p *page.Page, _ string, marg [][]float64, other int) {
		count := map[uint64]int{}
		keys := make([]uint64, len(p.Blocks))
		for i := range p.Blocks {
			if int(p.Blocks[i].Words) > maxWords {
				continue
			}
			if k, ok := fingerprint.ParagraphKey(p.Blocks[i].Text); ok {
				keys[i] = k
				count[k]++
			}
		}
		for i, k := range keys {
			if k != 0 && count[k] >= n {
				dropBlock(marg[i], other)
			}
		}
	}
}

// insideTag drops, in the main style, the blocks inside an element of
// one of the tags.
func insideTag(tags ...atom.Atom) func(p *page.Page, style string, marg [][]float64, other int) {
	return dropWhere(func(p *page.Page, i int) bool {
		in := false
		p.Ancestors(p.Blocks[i].Node, func(_ int32, nd *page.Node) bool {
			in = slices.Contains(tags, nd.Atom)
			return !in
		})
		return in
	})
}

// elementTag drops, in the main style, the blocks whose element is of
// one of the tags.
func elementTag(tags ...atom.Atom) func(p *page.Page, style string, marg [][]float64, other int) {
	return dropWhere(func(p *page.Page, i int) bool {
		n := p.Blocks[i].Node
		return n >= 0 && int(n) < len(p.Nodes) && slices.Contains(tags, p.Nodes[n].Atom)
	})
}

// dropWhere is the rule that drops, in the main style, the blocks i of a
// page for which drop holds.
func dropWhere(drop func(p *page.Page, i int) bool) func(p *page.Page, style string, marg [][]float64, other int) {
	return func(p *page.Page, style string, marg [][]float64, other int) {
		if style != label.MainStyle {
			return
		}
		for i := range p.Blocks {
			if drop(p, i) {
				dropBlock(marg[i], other)
			}
		}
	}
}

// samePageLong drops every block of at least min words whose text, digits
// folded, an earlier block of the page that the model more likely keeps
// than not holds (min 0: a title repeated in a sticky header, a product
// name in a heading and a caption); with apart, only a copy whose element
// has another parent than the first copy's (a section written twice, not
// a paragraph repeated in one).
func samePageLong(min int32, apart bool) func(p *page.Page, style string, marg [][]float64, other int) {
	return func(p *page.Page, _ string, marg [][]float64, other int) {
		seen := map[uint64]int{}
		for i := range p.Blocks {
			if p.Blocks[i].Words < min {
				continue
			}
			k, ok := fingerprint.ParagraphKey(p.Blocks[i].Text)
			if !ok {
				continue
			}
			if j, ok := seen[k]; ok {
				if !apart || parentOf(p, i) != parentOf(p, j) {
					dropBlock(marg[i], other)
				}
				continue
			}
			if marg[i][other] <= 0.5 {
				seen[k] = i
			}
		}
	}
}

// farCopies is the copies rule with other limits (label.CopyRule), in
// the main style.
func farCopies(min int32, levels int) func(p *page.Page, style string, marg [][]float64, other int) {
	return farCopiesN(min, levels, 1<<30)
}

// farCopiesN is farCopies for texts with at most most copies.
func farCopiesN(min int32, levels, most int) func(p *page.Page, style string, marg [][]float64, other int) {
	rule := label.CopyRule{MinWords: min, MaxCopies: most, MinLevels: levels}
	return func(p *page.Page, style string, marg [][]float64, other int) {
		if style == label.MainStyle {
			rule.Drop(p, marg, other, nil)
		}
	}
}

func parentOf(p *page.Page, b int) int32 {
	n := p.Blocks[b].Node
	if n < 0 || int(n) >= len(p.Nodes) {
		return -1
	}
	return p.Nodes[n].Parent
}

// gamma recalibrates the content probability c of every block to c^g,
// the content labels scaled alike: g above 1 trusts the model's content
// verdicts less (precision), below 1 more.
func gamma(g float64) func(p *page.Page, style string, marg [][]float64, other int) {
	return func(_ *page.Page, _ string, marg [][]float64, other int) {
		remap(marg, other, func(c float64) float64 { return math.Pow(c, g) })
	}
}

// remap sets each block's content probability c to f(c), its content
// labels scaled alike; a block with none is left so.
func remap(marg [][]float64, other int, f func(c float64) float64) {
	for _, m := range marg {
		c := 1 - m[other]
		if c <= 0 {
			continue
		}
		c2 := f(c)
		for k := range m {
			if k != other {
				m[k] *= c2 / c
			}
		}
		m[other] = 1 - c2
	}
}

// dropBlock makes a block's marginals sure of label other.
func dropBlock(m []float64, other int) {
	clear(m)
	m[other] = 1
}

func main() {
	margPath := flag.String("marginals", "", "the held-out marginals of a cross-validation (sluice train --cv --marginals FILE)")
	names := flag.String("rules", "", "comma-separated rules to replay, each alone (default: every rule): "+strings.Join(ruleNames(), ", "))
	flag.StringVar(&showSet, "pages", "", "print the pages of this set whose F1 the rule moves, with their site")
	flag.StringVar(&stackNames, "stack", "", "instead of rules, a stacked learner over the marginals with these feature groups, each alone (probs: none; all: every one): "+strings.Join(stackGroupNames(), ", "))
	flag.StringVar(&showPage, "page", "", "instead of rules, print the blocks of the held-out page `SET/ID` with their probabilities and gold labels")
	flag.BoolVar(&calib, "calibration", false, "instead of rules, print how the held-out probabilities are calibrated, by the page's highest one")
	flag.StringVar(&calibrate, "calibrate", "", "instead of rules, recalibrate each page's probabilities by a Platt map fitted on the other folds' pages of its group: type (WCXB's gold page type; other pages untouched), set, or all")
	flag.BoolVar(&pageStats, "page-stats", false, "instead of rules, print a tab-separated line for every page: set, id, type, empty gold, highest p, expected content words, P, R, F1, fallback, site")
	flag.BoolVar(&learnCut, "learn-cut", false, "instead of rules, decide each page at the threshold a model of the F1 at each candidate threshold, fitted fold by fold on the other folds' pages, likes best")
	flag.Float64Var(&cutMargin, "cut-margin", 0, "with -learn-cut, how much better (in the model's margin) a threshold must look than the expected-F1 rule's cut")
	flag.StringVar(&before, "before", "", "comma-separated rules applied to every page's marginals (both files') before anything else, as a binary that has them would have written its marginals (for example copies, for marginals written before that rule existed)")
	flag.Float64Var(&stackPairwise, "stack-pairwise", 0, "with -stack: the weight `W` of a pairwise term within each page in the stacker's loss (0: the log loss alone)")
	flag.StringVar(&marg2Path, "marginals2", "", "a second cross-validation's marginals, on the same folds, for -gate and the m2 stack group")
	flag.StringVar(&gate, "gate", "", "with -marginals2, instead of rules, score each page by the first marginals or the second: types (the second on the WCXB pages of -gate-types) or page (the better of the two on each page, an oracle)")
	flag.StringVar(&gateTypes, "gate-types", "product,collection,listing", "with -gate types, the gold page types the second marginals decide")
	flag.BoolVar(&oracleCut, "oracle-cut", false, "instead of rules, keep on each page the prefix of its blocks, in the order of their held-out probabilities, that the alignment with the gold scores best: the ceiling of the labeller's ordering")
	flag.StringVar(&sharedCuts, "shared-cut", "", "instead of rules, decide each page at the cut that maximises its expected F1 under a page-wide logit shift of each of these comma-separated spreads (0 is the rule; sharedcut.go), one-hot, against the rule's cut one-hot")
	flag.Float64Var(&cutBeta, "cut-beta", 1, "with -shared-cut, the β of the F_β the cut maximises (1: F1; under 1 weighs precision more)")
	flag.BoolVar(&oracle, "oracle", false, "instead of rules, score the blocks as the alignment with the gold labels them: the ceiling the segmentation leaves")
	flag.BoolVar(&fallbacks, "fallbacks", false, "instead of rules, list the pages of which the labeller keeps nothing, with how the fallback and an empty output score")
	flag.Parse()
	if *margPath == "" {
		fmt.Fprintln(os.Stderr, "replay: -marginals FILE is required (see the package comment)")
		os.Exit(2)
	}
	if !slices.Contains([]string{"", "types", "page"}, gate) || gate != "" && marg2Path == "" {
		fmt.Fprintf(os.Stderr, "replay: -gate %q: give types or page, with -marginals2\n", gate)
		os.Exit(2)
	}
	if !slices.Contains([]string{"", "type", "set", "all"}, calibrate) {
		fmt.Fprintf(os.Stderr, "replay: -calibrate %q: give type, set or all\n", calibrate)
		os.Exit(2)
	}
	if err := run(*margPath, *names); err != nil {
		fmt.Fprintln(os.Stderr, "replay:", err)
		os.Exit(1)
	}
}

func run(margPath, names string) error {
	held, err := readMarginals(margPath)
	if err != nil {
		return err
	}
	var sets []string
	for _, h := range held {
		if !slices.Contains(sets, h.Set) {
			sets = append(sets, h.Set)
		}
	}
	pages, _, err := train.LoadTraining(context.Background(), sets, train.LoadOptions{})
	if err != nil {
		return err
	}
	lab, err := sluice.DefaultModel()
	if err != nil {
		return err
	}
	other := slices.Index(label.Labels, "other")
	kept, fold, marg, err := align(pages, held)
	if err != nil {
		return err
	}
	if err := applyBefore(kept, marg, other); err != nil {
		return err
	}
	labs := make([]*label.Labeller, slices.Max(fold)+1)
	for f := range labs {
		labs[f] = lab
	}
	base, err := train.ScoreHeldOut(kept, fold, labs, marg, label.ExpectedF1, nil)
	if err != nil {
		return err
	}
	if marg2Path != "" {
		if err := loadSecond(pages, kept); err != nil {
			return err
		}
	}
	if gate != "" {
		return runGate(kept, fold, labs, marg, base)
	}
	if done, err := study(kept, fold, labs, marg, base, other); done || err != nil {
		return err
	}
	if stackNames != "" {
		return runStack(kept, fold, marg, stackNames, base, labs)
	}
	chosen := ruleNames()
	if names != "" {
		chosen = strings.Split(names, ",")
	}
	fmt.Printf("%d pages replayed from %s\n", len(kept), margPath)
	for _, name := range chosen {
		if err := replayRule(name, lab, kept, fold, labs, marg, base, other); err != nil {
			return err
		}
	}
	return nil
}

// replayRule scores the pages with the rule or site model name applied to
// a copy of their marginals, against base, and lists the pages of
// -pages it moves.
func replayRule(name string, lab *label.Labeller, kept []*train.TrainPage, fold []int, labs []*label.Labeller, marg [][][]float64, base *train.CVResult, other int) error {
	changed := make([][][]float64, len(marg))
	for i := range kept {
		changed[i] = cloneMarg(marg[i])
	}
	if siteModel, ok := siteModels[name]; ok {
		applySiteModel(siteModel, lab, kept, changed, other)
	} else if err := applyRules(name, kept, changed, other); err != nil {
		return fmt.Errorf("no rule %q (the rules are %s)", name, strings.Join(ruleNames(), ", "))
	}
	res, err := train.ScoreHeldOut(kept, fold, labs, changed, label.ExpectedF1, nil)
	if err != nil {
		return err
	}
	report(name, base, res)
	if showSet == "" {
		return nil
	}
	for i, ps := range res.Pages {
		if ps.Set == showSet && math.Abs(ps.F1-base.Pages[i].F1) > 1e-9 {
			fmt.Printf("  %s site %s: %.1f -> %.1f (P %.1f -> %.1f, R %.1f -> %.1f)\n", ps.ID, kept[i].Data.Site, 100*base.Pages[i].F1, 100*ps.F1, 100*base.Pages[i].P, 100*ps.P, 100*base.Pages[i].R, 100*ps.R)
		}
	}
	return nil
}

// align pairs the loaded pages with their held-out marginals: the pages,
// their folds and marginals, in the pages' order; a page not in the
// marginals, or whose block count differs, is reported and left out.
func align(pages []*train.TrainPage, held []*train.HeldOutPage) (kept []*train.TrainPage, fold []int, marg [][][]float64, err error) {
	byKey := map[string]*train.HeldOutPage{}
	for _, h := range held {
		if !slices.Equal(h.Labels, label.Labels) {
			return nil, nil, nil, fmt.Errorf("%s/%s: labels %v, want %v", h.Set, h.ID, h.Labels, label.Labels)
		}
		byKey[h.Set+"/"+h.ID] = h
	}
	for _, p := range pages {
		h := byKey[p.Data.Set+"/"+p.Data.ID]
		switch {
		case h == nil:
			fmt.Fprintf(os.Stderr, "replay: %s/%s: not in the marginals, left out\n", p.Data.Set, p.Data.ID)
			continue
		case len(h.Blocks) != len(p.Example.Page.Blocks):
			fmt.Fprintf(os.Stderr, "replay: %s/%s: %d blocks, the marginals %d: left out\n", p.Data.Set, p.Data.ID, len(p.Example.Page.Blocks), len(h.Blocks))
			continue
		}
		m := make([][]float64, len(h.Blocks))
		for b, row := range h.Blocks {
			m[b] = make([]float64, len(row))
			for k, v := range row {
				m[b][k] = float64(v)
			}
		}
		kept = append(kept, p)
		fold = append(fold, h.Fold)
		marg = append(marg, m)
	}
	if len(kept) == 0 {
		return nil, nil, nil, fmt.Errorf("no page of the marginals matches a loaded page")
	}
	return kept, fold, marg, nil
}

// The modes and options the flags set.
var (
	showSet, stackNames, showPage, calibrate, before, sharedCuts string
	fallbacks, oracle, oracleCut, learnCut, calib, pageStats     bool
)

func stackGroupNames() []string {
	return slices.Sorted(func(yield func(string) bool) {
		for k := range stackGroups {
			if !yield(k) {
				return
			}
		}
	})
}

// ruleNames returns the names of every rule, page and site rules alike.
func ruleNames() []string {
	return slices.Sorted(func(yield func(string) bool) {
		for k := range rules {
			if !yield(k) {
				return
			}
		}
		for k := range siteModels {
			if !yield(k) {
				return
			}
		}
	})
}

func cloneMarg(m [][]float64) [][]float64 {
	out := make([][]float64, len(m))
	for i, row := range m {
		out[i] = slices.Clone(row)
	}
	return out
}

// applyBefore applies the -before rules to every page's marginals.
func applyBefore(kept []*train.TrainPage, marg [][][]float64, other int) error {
	if before == "" {
		return nil
	}
	if err := applyRules(before, kept, marg, other); err != nil {
		return fmt.Errorf("-before: %w", err)
	}
	return nil
}

// applyRules applies the comma-separated page rules names to every page's
// marginals, in place, in the page's style.
func applyRules(names string, kept []*train.TrainPage, marg [][][]float64, other int) error {
	for _, name := range strings.Split(names, ",") {
		rule, ok := rules[name]
		if !ok {
			return fmt.Errorf("no page rule %q", name)
		}
		for i, p := range kept {
			style := p.Example.Style
			if style == "" {
				style = label.MainStyle
			}
			rule(p.Example.Page, style, marg[i], other)
		}
	}
	return nil
}

func readMarginals(path string) ([]*train.HeldOutPage, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	held, err := train.ReadMarginals(bufio.NewReaderSize(f, 1<<20))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(held) == 0 {
		return nil, fmt.Errorf("%s: no pages", path)
	}
	return held, nil
}

// group is the macro F1 of a set or of a set's page type, and the pages
// it moved.
type group struct {
	f1, base    float64
	n, up, down int
}

// report prints, per set and per WCXB page type, the macro F1 of the
// main metric under the rule against the marginals as they are.
func report(name string, base, res *train.CVResult) {
	groups := map[string]*group{}
	for i, ps := range res.Pages {
		b := base.Pages[i]
		for _, key := range []string{ps.Set, typeKey(ps)} {
			if key == "" {
				continue
			}
			g := groups[key]
			if g == nil {
				g = &group{}
				groups[key] = g
			}
			g.n++
			g.f1 += ps.F1
			g.base += b.F1
			switch {
			case ps.F1 > b.F1+1e-9:
				g.up++
			case ps.F1 < b.F1-1e-9:
				g.down++
			}
		}
	}
	fmt.Printf("\nrule %s (macro F1 of each set's main metric, held out; block accuracy %.2f%% -> %.2f%%, content vs noise %.2f%% -> %.2f%%)\n\n", name,
		100*base.Overall.Accuracy, 100*res.Overall.Accuracy, 100*base.Overall.Content, 100*res.Overall.Content)
	fmt.Println("| set | pages | without | with | change | pages up / down |")
	fmt.Println("|---|---:|---:|---:|---:|---:|")
	for _, key := range slices.Sorted(maps.Keys(groups)) {
		g := groups[key]
		n := float64(g.n)
		fmt.Printf("| %s | %d | %.2f | %.2f | %+.2f | %d / %d |\n", key, g.n, 100*g.base/n, 100*g.f1/n, 100*(g.f1-g.base)/n, g.up, g.down)
	}
}

func typeKey(ps train.PageScore) string {
	if ps.PageType == "" {
		return ""
	}
	return ps.Set + " " + ps.PageType
}
