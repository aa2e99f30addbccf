package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/crf"
	"github.com/sluice-project/sluice/dataset"
	"github.com/sluice-project/sluice/features"
	"github.com/sluice-project/sluice/gbdt"
	"github.com/sluice-project/sluice/internal/progress"
	"github.com/sluice-project/sluice/label"
	"github.com/sluice-project/sluice/train"
)

// trainCmd is sluice train: its flags, and what validate makes of them.
type trainCmd struct {
	cmdIO

	data, out, off, on, stages, jsonOut, margOut, tmplFile string
	typeWeight                                             string
	cv, limit, iters, minCount, minSites, trees, treeDepth int
	contextTrees, contextDepth                             int
	cvSeed                                                 uint64
	ablate, printTmpl, verbose                             bool
	l2, minQuality, smooth, region, pageWeight, goldShare  float64
	margin, blend, blindSites                              float64
	threshold                                              thresholdFlag

	cfg         train.Config // the training settings
	fc          label.FeatureConfig
	sets        []string           // the data sets to read
	styles      map[string]string  // their annotation styles, where given
	typeWeights map[string]float64 // --type-weight
}

func cmdTrain(args []string, stdout, stderr io.Writer) int {
	return runCommand("train", &trainCmd{cmdIO: cmdIO{stdout: stdout, stderr: stderr}}, args, stdout, stderr)
}

func (c *trainCmd) flagSet() *flag.FlagSet {
	fs := newFlagSet("train")
	fs.StringVar(&c.typeWeight, "type-weight", "", "weigh the pages of a page type (a gold's page type: WCXB's product, listing...) `TYPE=W,...` times in training")
	fs.StringVar(&c.data, "data", "", "comma-separated data `sets` (names under the data folder, or directories; default: all), each optionally followed by :STYLE")
	fs.StringVar(&c.out, "o", "", "write the trained model to `FILE`")
	fs.IntVar(&c.cv, "cv", 0, "cross-validate with `K` folds first")
	fs.Uint64Var(&c.cvSeed, "cv-seed", 0, "with --cv: deal the sites to the folds in the order of seed `N` (0: the fixed order), to see how far the figures move with the partition")
	fs.BoolVar(&c.ablate, "ablate", false, "with --cv: also cross-validate with each feature group switched off, and without each stage but crf")
	fs.StringVar(&c.stages, "stages", "", "comma-separated `stages` of the labeller, in order, from "+strings.Join(label.StageNames(), ",")+" (default: the embedded model's, "+strings.Join(embeddedStages(), ",")+")")
	fs.StringVar(&c.off, "off", "", "comma-separated feature `groups` to switch off (boost, stack and context leave out the trees, stack and context stages, as before --stages)")
	fs.StringVar(&c.on, "on", "", "comma-separated feature `groups` off by default to switch on: classid (the fixed list of English class/id words that the learned cues replace), item (the parts of repeated items), schema (the kind of page the markup declares), sectioncues (the text cues of the heading a block sits under), headline (where a block sits in the element tree relative to the headline)")
	fs.IntVar(&c.limit, "limit", 0, "at most `N` pages per set")
	fs.Float64Var(&c.l2, "l2", 1, "L2 regularisation")
	fs.IntVar(&c.iters, "iterations", train.DefaultIterations, "at most `N` L-BFGS iterations")
	fs.IntVar(&c.minCount, "min-count", 2, "drop features seen fewer than `N` times")
	fs.IntVar(&c.minSites, "min-sites", 0, "drop attributes that the pages of fewer than `N` sites have (0 or 1: keep them)")
	fs.Float64Var(&c.minQuality, "min-quality", 0.5, "skip pages whose gold aligns with less than this share of its words")
	fs.Float64Var(&c.smooth, "smooth", label.DefaultSmooth, "path smoothing `weight`, from 0 (off) to 1: how far each block's content probability moves toward the mean over the blocks at the same element path")
	fs.Float64Var(&c.region, "region", label.DefaultRegion, "content region `factor`, from 0 (off) to 1: how much the content probability of blocks outside the element that holds the page's likely content is lowered")
	fs.Float64Var(&c.goldShare, "gold-share-weight", 0, "gold share weighting `exponent` of the boosted trees, from 0 (off) to 1: each page counts as (mean share of its words in the gold / its share)^exponent, so that the pages whose gold is small, where each block kept wrongly costs most F1, count more")
	fs.Float64Var(&c.blindSites, "blind-sites", 0, "`share` of the training sites, from 0 (off) to 1, whose pages are read without the learned text cues, as pages in a language the cue table knows no word of, so that the model also learns to judge blocks without them")
	fs.Float64Var(&c.pageWeight, "page-weight", train.DefaultPageWeight, "page weighting `exponent`, from 0 (off) to 1: each page counts in training as (mean blocks per page / its blocks)^exponent, so that long pages outweigh short ones less")
	fs.Var(&c.threshold, "threshold", "content probability at which a block is kept, or ef (per page, the blocks that maximise the expected F1), for the scores and, with -o, recorded in the model; default: with --cv, chosen per style by the cross-validation among ef and fixed thresholds (and recorded), else ef, as the embedded model")
	fs.StringVar(&c.jsonOut, "json", "", "write the cross-validation results as JSON to `FILE`, with each page's held-out score")
	fs.StringVar(&c.margOut, "marginals", "", "with --cv: write every held-out page's block label probabilities to `FILE`, one JSON object a page")
	fs.Float64Var(&c.margin, "margin", train.DefaultMargin, "word-weighted margin `scale`, 0 (off) or more: training makes labelling a block on the wrong side of content and other cost scale × ln(1 + its words) (softmax-margin), so that long blocks are kept further from the wrong side")
	fs.Float64Var(&c.blend, "blend", label.DefaultBlend, "blend `weight`, from 0 (the CRF alone) to 1 (the trees alone): how far the blend stage moves each block's content probability from the CRF's toward the boosted trees'")
	fs.IntVar(&c.trees, "trees", train.DefaultBoost().Trees, "boosted trees of the trees stage, whose verdict the CRF reads")
	fs.IntVar(&c.treeDepth, "tree-depth", train.DefaultBoost().Depth, fmt.Sprintf("depth of each boosted tree, 1 to %d", gbdt.MaxDepth))
	fs.IntVar(&c.contextTrees, "context-trees", train.DefaultContext().Trees, "boosted trees of the context stage, which judge each block again from the verdicts around it")
	fs.IntVar(&c.contextDepth, "context-depth", train.DefaultContext().Depth, fmt.Sprintf("depth of each context tree, 1 to %d", gbdt.MaxDepth))
	fs.StringVar(&c.tmplFile, "template", "", "train with the CRF feature template in `FILE` (the syntax of package crf; see --print-template) instead of the default; it is used as it is, so add the style line it prints when training on several styles")
	fs.BoolVar(&c.printTmpl, "print-template", false, "print the default CRF feature template for the feature groups and stages on (see --off, --stages) and exit")
	fs.BoolVar(&c.verbose, "v", false, "print the optimiser's every iteration and why pages were skipped")
	return fs
}

// embeddedStages returns the stages of the embedded model.
func embeddedStages() []string {
	lab, err := sluice.DefaultModel()
	if err != nil {
		return nil
	}
	return lab.StageNames()
}

// validate checks the flags, before any data is loaded, and makes the
// training configuration.
func (c *trainCmd) validate(args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("unexpected argument %q: give data sets with --data", args[0])
	}
	switch {
	case c.out == "" && c.cv == 0 && !c.printTmpl:
		return errors.New("nothing to do: give -o MODEL, --cv K, or both")
	case c.margOut != "" && c.cv == 0:
		return errors.New("--marginals needs --cv")
	case c.ablate && c.cv == 0:
		return errors.New("--ablate needs --cv")
	case c.cvSeed != 0 && c.cv == 0:
		return errors.New("--cv-seed needs --cv")
	case c.minSites < 0:
		return fmt.Errorf("--min-sites %d: give a number of sites, or 0 (off)", c.minSites)
	}
	if err := c.checkSettings(); err != nil {
		return err
	}
	if c.out != "" { // a model's folder is made, or a bad -o said, before minutes of training
		if st, err := os.Stat(c.out); err == nil && st.IsDir() {
			return fmt.Errorf("-o %s is a directory; name the model file", c.out)
		}
		if err := os.MkdirAll(filepath.Dir(c.out), 0o755); err != nil {
			return fmt.Errorf("-o: %w", err)
		}
	}
	c.fc = label.DefaultFeatureConfig()
	c.fc.Smooth, c.fc.Region, c.fc.Blend = c.smooth, c.region, c.blend
	stages, err := c.stageList()
	if err != nil {
		return err
	}
	boost := train.DefaultBoost()
	boost.Trees, boost.Depth = c.trees, c.treeDepth
	context := train.DefaultContext()
	context.Trees, context.Depth = c.contextTrees, c.contextDepth
	c.cfg = train.Config{Features: &c.fc, Stages: stages, PageWeight: c.pageWeight, GoldShare: c.goldShare, BlindSites: c.blindSites, Margin: c.margin, L2: c.l2, MaxIterations: c.iters,
		MinCount: c.minCount, MinSites: c.minSites, Boost: &boost, Context: &context, Workers: runtime.GOMAXPROCS(0), FoldSeed: c.cvSeed}
	if c.tmplFile != "" {
		b, err := os.ReadFile(c.tmplFile)
		if err != nil {
			return fmt.Errorf("--template: %w", err)
		}
		if _, err := crf.ParseTemplate(string(b)); err != nil {
			return fmt.Errorf("--template %s: %w", c.tmplFile, err)
		}
		c.cfg.Template = string(b)
	}
	c.dataSets()
	return c.readTypeWeights()
}

// readTypeWeights reads --type-weight: TYPE=W pairs, W above 0.
func (c *trainCmd) readTypeWeights() error {
	for _, kv := range splitList(c.typeWeight) {
		t, v, ok := strings.Cut(kv, "=")
		w, err := strconv.ParseFloat(v, 64)
		if !ok || t == "" || err != nil || !(w > 0) || math.IsInf(w, 0) {
			return fmt.Errorf("--type-weight %q: give TYPE=WEIGHT pairs, the weight above 0 (product=3,listing=2)", kv)
		}
		if c.typeWeights == nil {
			c.typeWeights = map[string]float64{}
		}
		c.typeWeights[t] = w
	}
	return nil
}

// checkSettings checks the numeric settings.
func (c *trainCmd) checkSettings() error {
	for _, f := range []struct {
		name, what string
		v          float64
	}{{"smooth", "a weight", c.smooth}, {"region", "a factor", c.region}, {"page-weight", "an exponent", c.pageWeight}, {"gold-share-weight", "an exponent", c.goldShare}, {"blind-sites", "a share", c.blindSites}, {"blend", "a weight", c.blend}} {
		if !(f.v >= 0 && f.v <= 1) {
			return fmt.Errorf("--%s %g: give %s from 0 (off) to 1", f.name, f.v, f.what)
		}
	}
	if !(c.margin >= 0) || math.IsInf(c.margin, 0) {
		return fmt.Errorf("--margin %g: give 0 (off) or more", c.margin)
	}
	if c.trees < 1 || c.treeDepth < 1 || c.treeDepth > gbdt.MaxDepth {
		return fmt.Errorf("--trees %d --tree-depth %d: give at least one tree (or leave out the trees stage) of depth 1 to %d", c.trees, c.treeDepth, gbdt.MaxDepth)
	}
	if c.contextTrees < 1 || c.contextDepth < 1 || c.contextDepth > gbdt.MaxDepth {
		return fmt.Errorf("--context-trees %d --context-depth %d: give at least one tree (or leave out the context stage) of depth 1 to %d", c.contextTrees, c.contextDepth, gbdt.MaxDepth)
	}
	return nil
}

// stageList reads --off into the feature configuration and returns the
// stage list: --stages, or the one --off calls for.
func (c *trainCmd) stageList() ([]string, error) {
	stageGroup := false
	for _, g := range splitList(c.on) {
		if !slices.Contains(features.Groups(), features.Group(g)) {
			return nil, fmt.Errorf("--on: unknown feature group %q (groups: %s)", g, groupNames())
		}
		delete(c.fc.Off, features.Group(g))
	}
	for _, g := range splitList(c.off) {
		// context names the context stage, as before --stages.
		if !slices.Contains(features.Groups(), features.Group(g)) && features.Group(g) != features.Context {
			return nil, fmt.Errorf("--off: unknown feature group %q (groups: %s)", g, groupNames())
		}
		c.fc.Off[features.Group(g)] = true
		stageGroup = stageGroup || features.Group(g) == features.Context || slices.Contains(label.StageGroups(), features.Group(g))
	}
	if c.stages == "" && stageGroup {
		return train.StagesOf(c.fc), nil // --off names the stages left out, as before --stages
	}
	if c.stages == "" {
		// The embedded model's stages, so that sluice train -o builds what
		// is embedded.
		if st := embeddedStages(); st != nil {
			c.fc = c.fc.WithStages(st)
			return st, nil
		}
		return train.StagesOf(c.fc), nil
	}
	if stageGroup {
		return nil, fmt.Errorf("--off %s with --stages: name the stages with --stages alone", c.off)
	}
	stages := splitList(c.stages)
	if err := label.CheckStages(stages); err != nil {
		return nil, fmt.Errorf("--stages: %w", err)
	}
	c.fc = c.fc.WithStages(stages)
	return stages, nil
}

// dataSets reads --data: set names or folders, each with an optional
// ":STYLE".
func (c *trainCmd) dataSets() {
	c.styles = map[string]string{}
	for _, d := range splitList(c.data) {
		name := d
		// SET:STYLE; a colon in a path (C:\data) is not a style.
		if i := strings.LastIndexByte(d, ':'); i > 0 && label.CheckStyle(d[i+1:]) == nil {
			name, c.styles[d[:i]] = d[:i], d[i+1:]
		}
		c.sets = append(c.sets, name)
	}
}

// run prints the template, or loads the pages, cross-validates and trains
// as asked.
func (c *trainCmd) run(ctx context.Context) int {
	if c.printTmpl {
		return c.printTemplate()
	}
	pages, err := c.load(ctx)
	if err != nil {
		fmt.Fprintf(c.stderr, "sluice train: %v\n", err)
		return exitFailed
	}
	examples := train.Examples(pages)
	if len(examples) == 0 {
		fmt.Fprintln(c.stderr, "sluice train: no usable training pages")
		return exitFailed
	}
	// Each model trained says which step it is on (a cross-validation
	// trains one a fold); -v adds every optimiser iteration.
	t0 := time.Now()
	c.cfg.Stage = func(s string) {
		fmt.Fprintf(c.stderr, "training: %s (%s)\n", s, time.Since(t0).Round(time.Second))
	}
	if c.verbose {
		c.cfg.Progress = func(p crf.Progress) {
			fmt.Fprintf(c.stderr, "iteration %d: objective %.1f, gradient %.3g (%s)\n", p.Iteration, p.Objective, p.GradNorm, p.Elapsed.Round(time.Second))
		}
	}
	var results []train.Ablated
	if c.cv > 0 {
		if results, err = c.crossValidate(ctx, pages); err != nil {
			fmt.Fprintf(c.stderr, "sluice train: %v\n", err)
			return exitFailed
		}
	}
	if c.out != "" {
		if err := c.trainModel(ctx, examples, results); err != nil {
			fmt.Fprintf(c.stderr, "sluice train: %v\n", err)
			return exitFailed
		}
	}
	return exitOK
}

// printTemplate prints the default CRF template of the configuration.
func (c *trainCmd) printTemplate() int {
	ext, err := features.NewExtractor(c.fc.Config)
	if err != nil {
		fmt.Fprintf(c.stderr, "sluice train: %v\n", err)
		return exitFailed
	}
	fmt.Fprintf(c.stdout, "# the default CRF template of sluice train (see package crf)\n%s", features.DefaultTemplate(ext))
	fmt.Fprintf(c.stdout, "# added when the pages are of several annotation styles:\n# %s\n", label.StyleLine)
	return exitOK
}

// load reads and aligns the pages of the data sets, with a progress bar,
// and says how many it has.
func (c *trainCmd) load(ctx context.Context) ([]*train.TrainPage, error) {
	if len(c.sets) == 0 {
		var err error
		if c.sets, err = dataset.Sets(); err != nil {
			return nil, err
		}
	}
	t0 := time.Now()
	var bar *progress.Bar
	// Why pages were left out, told for annotated sets (made by hand, so
	// every page left out is a mistake to fix) and with -v.
	var reasons []string
	skip := func(set *dataset.Set, id string, reason error) {
		if set.Kind.Spec().Annotated() || c.verbose {
			what := "skipped"
			if se := (*train.SkipError)(nil); errors.As(reason, &se) && se.Scored {
				what = "not trained on (scored)"
			}
			reasons = append(reasons, fmt.Sprintf("sluice train: %s: %s %s: %v", set.Name, what, id, reason))
		}
	}
	pages, skipped, err := train.LoadTraining(ctx, c.sets, train.LoadOptions{MinQuality: c.minQuality, Limit: c.limit, Styles: c.styles, Skip: skip, TypeWeights: c.typeWeights, Progress: func(set string, done, total int) {
		if bar == nil || bar.Label() != set {
			if bar != nil {
				bar.Finish()
			}
			bar = progress.New(c.stderr, "aligning "+set, total)
		}
		bar.Add(1)
	}})
	if bar != nil {
		bar.Finish()
	}
	for _, r := range reasons {
		fmt.Fprintln(c.stderr, r)
	}
	if err != nil {
		return nil, err
	}
	c.printLoaded(pages, skipped, time.Since(t0))
	return pages, nil
}

// printLoaded says how many pages were read, trained on and left out.
func (c *trainCmd) printLoaded(pages []*train.TrainPage, skipped map[string]int, took time.Duration) {
	examples := train.Examples(pages)
	fmt.Fprintf(c.stdout, "%d training pages from %s (prepared in %s)", len(examples), strings.Join(c.sets, ", "), took.Round(time.Second))
	if n := len(pages) - len(examples); n > 0 {
		fmt.Fprintf(c.stdout, "; %d more scored in cross-validation but not trained on (no gold text, no text blocks, or gold not found in the page)", n)
	}
	if len(skipped) > 0 {
		var parts []string
		for s, n := range skipped {
			parts = append(parts, fmt.Sprintf("%s %d", s, n))
		}
		sort.Strings(parts)
		fmt.Fprintf(c.stdout, "; skipped (unreadable, or annotation not matching the page): %s", strings.Join(parts, ", "))
	}
	fmt.Fprintln(c.stdout)
}

// crossValidate runs the cross-validation, and with --ablate one more per
// feature group and stage left out, and writes what --marginals and
// --json ask for.
func (c *trainCmd) crossValidate(ctx context.Context, pages []*train.TrainPage) ([]train.Ablated, error) {
	logf := func(format string, args ...any) { fmt.Fprintf(c.stdout, format+"\n", args...) }
	var results []train.Ablated
	for _, run := range c.ablations() {
		if run.off != "" {
			logf("\nwithout %s:", run.off)
		}
		res, err := train.CrossValidate(ctx, pages, c.cv, run.cfg, float64(c.threshold), logf)
		if err != nil {
			return nil, err
		}
		res.WriteReport(c.stdout)
		results = append(results, train.Ablated{Off: run.off, Result: res})
	}
	if c.ablate {
		train.WriteAblation(c.stdout, results)
	}
	if c.margOut != "" {
		if err := writeMarginals(c.margOut, pages, results[0].Result); err != nil {
			return nil, fmt.Errorf("--marginals: %w", err)
		}
	}
	if c.jsonOut != "" {
		if err := writeJSONFile(c.jsonOut, results); err != nil {
			return nil, err
		}
	}
	return results, nil
}

// ablation is one cross-validation run: the configuration, and what it
// leaves out ("" for none).
type ablation struct {
	off string
	cfg train.Config
}

// ablations returns the runs to cross-validate: the configuration, and
// with --ablate, the configuration without each feature group on (but
// those that stages give) and without each stage but crf (and the stages
// that need it).
func (c *trainCmd) ablations() []ablation {
	runs := []ablation{{"", c.cfg}}
	if !c.ablate {
		return runs
	}
	for _, g := range features.Groups() {
		if c.fc.Off[g] || slices.Contains(label.StageGroups(), g) {
			continue
		}
		f2 := c.fc
		f2.Off = maps.Clone(c.fc.Off)
		f2.Off[g] = true
		cfg := c.cfg
		cfg.Features = &f2
		runs = append(runs, ablation{string(g), cfg})
	}
	for _, s := range c.cfg.Stages {
		if s == label.StageCRF {
			continue
		}
		cfg := c.cfg
		cfg.Stages = label.RemoveStage(c.cfg.Stages, s)
		runs = append(runs, ablation{s + " stage", cfg})
	}
	return runs
}

// trainModel trains on all examples, records the thresholds (--threshold,
// else the cross-validation's) and writes the model file.
func (c *trainCmd) trainModel(ctx context.Context, examples []train.Example, results []train.Ablated) error {
	t := time.Now()
	lab, err := train.Train(ctx, examples, c.cfg)
	if err != nil {
		return err
	}
	th := map[string]float64{}
	switch {
	case c.threshold != 0:
		for _, st := range lab.Styles() {
			th[st] = float64(c.threshold)
		}
	case len(results) > 0:
		th = results[0].Result.Thresholds
	default:
		for _, st := range lab.Styles() {
			th[st] = label.ExpectedF1 // the embedded model's rule
		}
	}
	if err := lab.SetThresholds(th); err != nil {
		return err
	}
	f, err := os.Create(c.out)
	if err == nil {
		err = lab.Save(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return fmt.Errorf("-o: %w", err)
	}
	st, _ := os.Stat(c.out)
	fmt.Fprintf(c.stdout, "model written to %s (stages %s, %d features, %d KB), trained on %d pages in %s; styles and thresholds:", c.out, strings.Join(lab.StageNames(), ","), lab.NumFeatures(), st.Size()>>10, len(examples), time.Since(t).Round(time.Second))
	for _, st := range lab.Styles() {
		fmt.Fprintf(c.stdout, " %s %s", st, label.FormatThreshold(lab.Threshold(st)))
	}
	fmt.Fprintln(c.stdout)
	return nil
}

// groupNames lists the feature groups, for messages.
func groupNames() string {
	var s []string
	for _, g := range features.Groups() {
		s = append(s, string(g))
	}
	return strings.Join(s, ", ")
}

// writeMarginals writes the held-out marginals of --marginals FILE
// (train.WriteMarginals).
func writeMarginals(path string, pages []*train.TrainPage, res *train.CVResult) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	if err := train.WriteMarginals(bw, pages, res); err != nil {
		f.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
