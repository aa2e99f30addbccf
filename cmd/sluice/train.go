package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/sluice-project/sluice/crf"
	"github.com/sluice-project/sluice/dataset"
	"github.com/sluice-project/sluice/gbdt"
	"github.com/sluice-project/sluice/label"
	"github.com/sluice-project/sluice/train"
)

const trainHelp = `
Usage: sluice train [flags] -o MODEL

Trains the block labeller (a linear-chain CRF over text-block features, as
Victor does) on data sets with gold standards: each page is segmented and its
blocks are labelled by aligning them with the gold text (CleanEval segments
give headings, paragraphs, list items and continuations; other sets give
content vs boilerplate, with structure from the markup). A folder of pages
labelled by hand (html/NAME.html with ann/NAME.ann, written by "sluice
annotate") gives its labels as they are, and is scored with CleanEval F1
against the annotated content. With --cv K it cross-validates first (pages
of one site never split across folds) and reports labelling accuracy and
cleaning scores per fold and overall, and chooses the decision threshold of
each annotation style, which -o records in the model.

In front of the CRF, gradient-boosted trees over the same block features
(and the neighbours') learn the combinations of features that the CRF's
one-weight-per-feature cannot; their verdict is one of the CRF's features
and is blended with its output (--trees, --tree-depth, --blend; --off boost
for none). With one CRF stage (--off stack, as for the embedded model), a
second set of trees, the context trees, judges each block again from the
CRF's and the trees' verdicts summarised over its neighbours, its element
path, its div group and the whole page; they learn from the CRF's verdicts
on pages it did not see, which costs three more CRF trainings on inner
folds (--off context for none).

Gold standards disagree on what content is, so each set has an annotation
style: "main" (the main content only: WCXB, Dragnet, L3S-GN1, Readability,
CleanPortalEval, and any set by default) or "cleaneval" (all running text,
as CleanEval's annotators kept it: the default of sets named cleaneval*).
Give a set's style after a colon. One model learns every style it is given
pages of; "sluice clean --style" picks one.

Examples:
  sluice train -o my.model                          # all sets under ../shared/data
  sluice train --data cleaneval-dev,wcxb-dev --cv 6 -o my.model
  sluice train --data ./my-forum-pages:cleaneval,wcxb-dev -o my.model   # a set annotated in the cleaneval style
  sluice train --data ./my-annotated-set --cv 5     # cross-validate only (see sluice annotate)
  sluice train --cv 6 --ablate                      # one cross-validation per feature group switched off
  sluice train --cv 6 --marginals held.jsonl        # keep the held-out probabilities for study
  sluice train --print-template > my.tmpl           # the default feature template, to edit
  sluice train --template my.tmpl --cv 6 -o my.model
  sluice train --trees 300 --blend 0.3 -o my.model  # more boosted trees, their verdict weighed less
  sluice train --off boost -o my.model              # the CRF alone, no boosted trees
  sluice train --off stack,context -o my.model      # one CRF stage and the boosted trees in front of it, no context trees
  sluice clean --model my.model page.html
`

func cmdTrain(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("train", trainHelp, stderr)
	data := fs.String("data", "", "comma-separated data `sets` (names under the data folder, or directories; default: all), each optionally followed by :STYLE")
	out := fs.String("o", "", "write the trained model to `FILE`")
	cv := fs.Int("cv", 0, "cross-validate with `K` folds first")
	ablate := fs.Bool("ablate", false, "with --cv: also cross-validate with each feature group switched off")
	off := fs.String("off", "", "comma-separated feature `groups` to switch off")
	limit := fs.Int("limit", 0, "at most `N` pages per set")
	l2 := fs.Float64("l2", 1, "L2 regularisation")
	iters := fs.Int("iterations", train.DefaultIterations, "at most `N` L-BFGS iterations")
	minCount := fs.Int("min-count", 2, "drop features seen fewer than `N` times")
	minQuality := fs.Float64("min-quality", 0.5, "skip pages whose gold aligns with less than this share of its words")
	smooth := fs.Float64("smooth", label.DefaultSmooth, "path smoothing `weight`, from 0 (off) to 1: how far each block's content probability moves toward the mean over the blocks at the same element path")
	region := fs.Float64("region", label.DefaultRegion, "content region `factor`, from 0 (off) to 1: how much the content probability of blocks outside the element that holds the page's likely content is lowered")
	pageWeight := fs.Float64("page-weight", train.DefaultPageWeight, "page weighting `exponent`, from 0 (off) to 1: each page counts in training as (mean blocks per page / its blocks)^exponent, so that long pages outweigh short ones less")
	var threshold thresholdFlag
	fs.Var(&threshold, "threshold", "content probability at which a block is kept, or ef (per page, the blocks that maximise the expected F1), for the scores and, with -o, recorded in the model; default: with --cv, chosen per style by the cross-validation among ef and fixed thresholds (and recorded), else 0.5")
	jsonOut := fs.String("json", "", "write the cross-validation results as JSON to `FILE`, with each page's held-out score")
	margOut := fs.String("marginals", "", "with --cv: write every held-out page's block label probabilities to `FILE`, one JSON object a page")
	margin := fs.Float64("margin", train.DefaultMargin, "word-weighted margin `scale`, 0 (off) or more: training makes labelling a block on the wrong side of content and other cost scale × ln(1 + its words) (softmax-margin), so that long blocks are kept further from the wrong side")
	blendW := fs.Float64("blend", label.DefaultBlend, "blend `weight`, from 0 (the CRF alone) to 1 (the trees alone): how far each block's content probability moves from the CRF's toward the boosted trees'")
	trees := fs.Int("trees", train.DefaultBoost().Trees, "boosted trees whose verdict the CRF reads (the boost feature group; --off boost trains none)")
	treeDepth := fs.Int("tree-depth", train.DefaultBoost().Depth, fmt.Sprintf("depth of each boosted tree, 1 to %d", gbdt.MaxDepth))
	tmplFile := fs.String("template", "", "train with the CRF feature template in `FILE` (the syntax of package crf; see --print-template) instead of the default; it is used as it is, so add the style line it prints when training on several styles")
	printTmpl := fs.Bool("print-template", false, "print the default CRF feature template for the feature groups on (see --off) and exit")
	verbose := fs.Bool("v", false, "print the optimiser's progress and why pages were skipped")
	if _, err := parseInterspersed(fs, args); err != nil {
		return flagExit(err)
	}
	if *out == "" && *cv == 0 && !*printTmpl {
		fmt.Fprintln(stderr, "sluice train: nothing to do: give -o MODEL, --cv K, or both")
		return exitUsage
	}
	if *margOut != "" && *cv == 0 {
		fmt.Fprintln(stderr, "sluice train: --marginals needs --cv")
		return exitUsage
	}
	if *ablate && *cv == 0 {
		fmt.Fprintln(stderr, "sluice train: --ablate needs --cv")
		return exitUsage
	}
	// The settings from 0 (off) to 1, checked before any data is loaded.
	for _, f := range []struct {
		name, what string
		v          float64
	}{{"smooth", "a weight", *smooth}, {"region", "a factor", *region}, {"page-weight", "an exponent", *pageWeight}, {"blend", "a weight", *blendW}} {
		if !(f.v >= 0 && f.v <= 1) {
			fmt.Fprintf(stderr, "sluice train: --%s %g: give %s from 0 (off) to 1\n", f.name, f.v, f.what)
			return exitUsage
		}
	}
	if !(*margin >= 0) || math.IsInf(*margin, 0) {
		fmt.Fprintf(stderr, "sluice train: --margin %g: give 0 (off) or more\n", *margin)
		return exitUsage
	}
	if *trees < 1 || *treeDepth < 1 || *treeDepth > gbdt.MaxDepth {
		fmt.Fprintf(stderr, "sluice train: --trees %d --tree-depth %d: give at least one tree (or --off boost for none) of depth 1 to %d\n", *trees, *treeDepth, gbdt.MaxDepth)
		return exitUsage
	}
	boost := train.DefaultBoost()
	boost.Trees, boost.Depth = *trees, *treeDepth
	fc := label.DefaultFeatureConfig()
	fc.Smooth, fc.Region, fc.Blend = *smooth, *region, *blendW
	for _, g := range splitList(*off) {
		if !validGroup(g) {
			fmt.Fprintf(stderr, "sluice train: --off: unknown feature group %q (groups: %s)\n", g, groupNames())
			return exitUsage
		}
		fc.Off[label.Group(g)] = true
	}
	if *printTmpl {
		ext, err := label.NewExtractor(fc)
		if err != nil {
			fmt.Fprintf(stderr, "sluice train: %v\n", err)
			return exitFailed
		}
		fmt.Fprintf(stdout, "# the default CRF template of sluice train (see package crf)\n%s", label.DefaultTemplate(ext))
		fmt.Fprintf(stdout, "# added when the pages are of several annotation styles:\n# %s\n", label.StyleLine)
		return exitOK
	}
	var tmpl string
	if *tmplFile != "" {
		b, err := os.ReadFile(*tmplFile)
		if err != nil {
			fmt.Fprintf(stderr, "sluice train: --template: %v\n", err)
			return exitUsage
		}
		if _, err := crf.ParseTemplate(string(b)); err != nil {
			fmt.Fprintf(stderr, "sluice train: --template %s: %v\n", *tmplFile, err)
			return exitUsage
		}
		tmpl = string(b)
	}
	styles := map[string]string{}
	var sets []string
	for _, d := range splitList(*data) {
		name := d
		// SET:STYLE; a colon in a path (C:\data) is not a style.
		if i := strings.LastIndexByte(d, ':'); i > 0 && label.CheckStyle(d[i+1:]) == nil {
			name, styles[d[:i]] = d[:i], d[i+1:]
		}
		sets = append(sets, name)
	}
	if len(sets) == 0 {
		var err error
		if sets, err = dataset.Sets(); err != nil {
			fmt.Fprintf(stderr, "sluice train: %v\n", err)
			return exitFailed
		}
	}
	ctx := context.Background()
	t0 := time.Now()
	var bar *progress
	// Why pages were left out, told for annotated sets (made by hand, so
	// every page left out is a mistake to fix) and with -v.
	var reasons []string
	skip := func(set *dataset.Set, id string, reason error) {
		if set.Kind.Spec().Annotated() || *verbose {
			what := "skipped"
			if se := (*train.SkipError)(nil); errors.As(reason, &se) && se.Scored {
				what = "not trained on (scored)"
			}
			reasons = append(reasons, fmt.Sprintf("sluice train: %s: %s %s: %v", set.Name, what, id, reason))
		}
	}
	pages, skipped, err := train.LoadTraining(ctx, sets, train.LoadOptions{MinQuality: *minQuality, Limit: *limit, Styles: styles, Skip: skip, Progress: func(set string, done, total int) {
		if bar == nil || bar.label != set {
			if bar != nil {
				bar.finish()
			}
			bar = newProgress(stderr, "aligning "+set, total)
		}
		bar.add(1)
	}})
	if bar != nil {
		bar.finish()
	}
	for _, r := range reasons {
		fmt.Fprintln(stderr, r)
	}
	if err != nil {
		fmt.Fprintf(stderr, "sluice train: %v\n", err)
		return exitFailed
	}
	examples := train.Examples(pages)
	fmt.Fprintf(stdout, "%d training pages from %s (prepared in %s)", len(examples), strings.Join(sets, ", "), time.Since(t0).Round(time.Second))
	if n := len(pages) - len(examples); n > 0 {
		fmt.Fprintf(stdout, "; %d more scored in cross-validation but not trained on (no gold text, no text blocks, or gold not found in the page)", n)
	}
	if len(skipped) > 0 {
		var parts []string
		for s, n := range skipped {
			parts = append(parts, fmt.Sprintf("%s %d", s, n))
		}
		sort.Strings(parts)
		fmt.Fprintf(stdout, "; skipped (unreadable, or annotation not matching the page): %s", strings.Join(parts, ", "))
	}
	fmt.Fprintln(stdout)
	if len(examples) == 0 {
		fmt.Fprintln(stderr, "sluice train: no usable training pages")
		return exitFailed
	}
	cfg := train.Config{Features: &fc, PageWeight: *pageWeight, Margin: *margin, L2: *l2, MaxIterations: *iters, MinCount: *minCount, Template: tmpl, Boost: &boost, Workers: runtime.GOMAXPROCS(0)}
	if *verbose {
		cfg.Progress = func(p crf.Progress) {
			fmt.Fprintf(stderr, "iteration %d: objective %.1f, gradient %.3g (%s)\n", p.Iteration, p.Objective, p.GradNorm, p.Elapsed.Round(time.Second))
		}
		cfg.Stage = func(s string) { fmt.Fprintf(stderr, "training: %s\n", s) }
	}
	logf := func(format string, args ...any) { fmt.Fprintf(stdout, format+"\n", args...) }
	var results []cvRun
	if *cv > 0 {
		runs := []string{""}
		if *ablate {
			for _, g := range label.Groups() {
				if !fc.Off[g] {
					runs = append(runs, string(g))
				}
			}
		}
		for _, g := range runs {
			c := cfg
			if g != "" {
				f2 := fc
				f2.Off = map[label.Group]bool{label.Group(g): true}
				for k, v := range fc.Off {
					f2.Off[k] = v
				}
				c.Features = &f2
				logf("\nwithout %s:", g)
			}
			res, err := train.CrossValidate(ctx, pages, *cv, c, float64(threshold), logf)
			if err != nil {
				fmt.Fprintf(stderr, "sluice train: %v\n", err)
				return exitFailed
			}
			printCV(stdout, res)
			results = append(results, cvRun{Off: g, Result: res})
		}
		if *ablate {
			printAblation(stdout, results)
		}
		if *margOut != "" {
			if err := writeMarginals(*margOut, pages, results[0].Result); err != nil {
				fmt.Fprintf(stderr, "sluice train: --marginals: %v\n", err)
				return exitFailed
			}
		}
		if *jsonOut != "" {
			data, _ := json.MarshalIndent(results, "", "  ")
			if err := os.WriteFile(*jsonOut, append(data, '\n'), 0o644); err != nil {
				fmt.Fprintf(stderr, "sluice train: %v\n", err)
				return exitFailed
			}
		}
	}
	if *out != "" {
		t := time.Now()
		lab, err := train.Train(ctx, examples, cfg)
		if err != nil {
			fmt.Fprintf(stderr, "sluice train: %v\n", err)
			return exitFailed
		}
		th := map[string]float64{}
		switch {
		case threshold != 0:
			for _, st := range lab.Styles() {
				th[st] = float64(threshold)
			}
		case len(results) > 0:
			th = results[0].Result.Thresholds
		}
		if err := lab.SetThresholds(th); err != nil {
			fmt.Fprintf(stderr, "sluice train: %v\n", err)
			return exitFailed
		}
		f, err := os.Create(*out)
		if err == nil {
			err = lab.Save(f)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "sluice train: -o: %v\n", err)
			return exitFailed
		}
		st, _ := os.Stat(*out)
		fmt.Fprintf(stdout, "model written to %s (%d stage(s), %d features, %d KB), trained on %d pages in %s; styles and thresholds:", *out, len(lab.CRFs()), lab.NumFeatures(), st.Size()>>10, len(examples), time.Since(t).Round(time.Second))
		for _, st := range lab.Styles() {
			fmt.Fprintf(stdout, " %s %s", st, formatThreshold(lab.Threshold(st)))
		}
		fmt.Fprintln(stdout)
	}
	return exitOK
}

type cvRun struct {
	Off    string          `json:"off,omitempty"`
	Result *train.CVResult `json:"result"`
}

func printCV(w io.Writer, r *train.CVResult) {
	o := &r.Overall
	if len(r.Sweep) > 0 {
		printSweep(w, r)
	}
	fmt.Fprintf(w, "overall: %d test pages, block accuracy %.2f, content-vs-noise accuracy %.2f, training %s in all\n", o.Pages, 100*o.Accuracy, 100*o.Content, o.TrainTime.Round(time.Second))
	var sets []string
	for s := range o.Sets {
		sets = append(sets, s)
	}
	sort.Strings(sets)
	for _, s := range sets {
		ss := o.Sets[s]
		fmt.Fprintf(w, "  %-16s %-10s macro P %.2f R %.2f F1 %.2f  micro F1 %.2f", s, ss.Metric, 100*ss.Main.Macro.Precision, 100*ss.Main.Macro.Recall, 100*ss.Main.Macro.F1, 100*ss.Main.Micro.F1)
		if ss.Labelled.Pages > 0 {
			fmt.Fprintf(w, "  labelled F1 %.2f", 100*ss.Labelled.Macro.F1)
		}
		fmt.Fprintf(w, "  blocks: accuracy %.2f, content-vs-noise %.2f\n", 100*ss.Accuracy, 100*ss.Content)
		for _, c := range ss.Classes {
			fmt.Fprintf(w, "    class %d %-16s %7d blocks  kept %.2f%%\n", c.Class, c.Name, c.Blocks, 100*c.Kept)
		}
		var types []string
		for t := range ss.PageTypes {
			types = append(types, t)
		}
		sort.Strings(types)
		for _, t := range types {
			m := ss.PageTypes[t].Macro()
			fmt.Fprintf(w, "    %-14s %4d pages  F1 %.2f\n", t, ss.PageTypes[t].Pages(), 100*m.F1)
		}
	}
	fmt.Fprintln(w, o.Confusion().String())
}

// printSweep prints the held-out macro F1 of every set at each threshold
// of the grid, and the thresholds chosen.
func printSweep(w io.Writer, r *train.CVResult) {
	var sets []string
	for s := range r.Sweep[0].F1 {
		sets = append(sets, s)
	}
	sort.Strings(sets)
	fmt.Fprintf(w, "threshold sweep (macro F1 of each set's main metric, held-out pages):\n%9s", "threshold")
	for _, s := range sets {
		fmt.Fprintf(w, " %16s", s)
	}
	fmt.Fprintln(w)
	for _, pt := range r.Sweep {
		fmt.Fprintf(w, "%9s", formatThreshold(pt.Threshold))
		for _, s := range sets {
			fmt.Fprintf(w, " %16.2f", 100*pt.F1[s])
		}
		fmt.Fprintln(w)
	}
	var styles []string
	for st := range r.Thresholds {
		styles = append(styles, st)
	}
	sort.Strings(styles)
	fmt.Fprint(w, "thresholds chosen (best mean over the style's sets):")
	for _, st := range styles {
		fmt.Fprintf(w, " %s %s", st, formatThreshold(r.Thresholds[st]))
	}
	fmt.Fprintln(w)
}

func printAblation(w io.Writer, runs []cvRun) {
	if len(runs) == 0 {
		return
	}
	var sets []string
	for s := range runs[0].Result.Overall.Sets {
		sets = append(sets, s)
	}
	sort.Strings(sets)
	fmt.Fprintf(w, "\nablation (macro F1 of each set's main metric; block accuracy):\n%-12s %8s %8s", "without", "acc", "content")
	for _, s := range sets {
		fmt.Fprintf(w, " %16s", s)
	}
	fmt.Fprintln(w)
	for _, r := range runs {
		name := r.Off
		if name == "" {
			name = "(all on)"
		}
		o := r.Result.Overall
		fmt.Fprintf(w, "%-12s %8.2f %8.2f", name, 100*o.Accuracy, 100*o.Content)
		for _, s := range sets {
			if ss := o.Sets[s]; ss != nil {
				fmt.Fprintf(w, " %16.2f", 100*ss.Main.Macro.F1)
			} else {
				fmt.Fprintf(w, " %16s", "-")
			}
		}
		fmt.Fprintln(w)
	}
}

func validGroup(g string) bool {
	for _, x := range label.Groups() {
		if string(x) == g {
			return true
		}
	}
	return false
}

func groupNames() string {
	var s []string
	for _, g := range label.Groups() {
		s = append(s, string(g))
	}
	return strings.Join(s, ", ")
}

// heldOutPage is one line of the --marginals file: a held-out page and the
// probability of each label (in the order of label.Labels) for each of its
// blocks.
type heldOutPage struct {
	Set    string      `json:"set"`
	ID     string      `json:"id"`
	Style  string      `json:"style"`
	Fold   int         `json:"fold"`
	Labels []string    `json:"labels"`
	Blocks [][]float32 `json:"blocks"`
}

func writeMarginals(path string, pages []*train.TrainPage, res *train.CVResult) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	enc := json.NewEncoder(bw)
	for i, p := range pages {
		h := heldOutPage{Set: p.Data.Set, ID: p.Data.ID, Style: p.Example.Style, Fold: res.Fold[i], Labels: label.Labels}
		if h.Style == "" {
			h.Style = label.MainStyle
		}
		h.Blocks = make([][]float32, len(res.Marginals[i]))
		for b, m := range res.Marginals[i] {
			h.Blocks[b] = make([]float32, len(m))
			for k, v := range m {
				h.Blocks[b][k] = float32(v)
			}
		}
		if err := enc.Encode(h); err != nil {
			f.Close()
			return err
		}
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
