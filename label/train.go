package label

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/sluice-project/sluice/crf"
	"github.com/sluice-project/sluice/gbdt"
	"github.com/sluice-project/sluice/page"
)

// Example is one training page: its blocks and their correct labels.
type Example struct {
	Page   *page.Page
	Labels []page.Label
	// Style is the annotation style of the labels (see MainStyle); ""
	// means MainStyle.
	Style string
	// Group names the pages that must not be split when Train holds some
	// out (the pages of one site, whose templates repeat); "" is a group
	// of its own.
	Group string
}

// DefaultIterations is the default cap on L-BFGS iterations. On all the
// shared data the objective is still falling at 150 and at 300; a 6-fold
// cross-validation with 300 instead of 150 raised cleaneval-dev from 90.74
// to 91.24 and Dragnet from 91.59 to 92.12, lost CleanPortalEval 0.4 and
// left the other sets within 0.2, for twice the training time.
const DefaultIterations = 300

// TrainConfig configures Train. Zero fields take the documented defaults.
type TrainConfig struct {
	// Features selects the block features; the zero value means
	// DefaultFeatureConfig().
	Features *FeatureConfig
	// Template is a CRF template (see package crf); "" means
	// DefaultTemplate for the feature configuration.
	Template string
	// L2, MinCount, MaxIterations and Workers are passed to crf.Train
	// (defaults: L2 1, MinCount 2, MaxIterations DefaultIterations, all
	// cores).
	L2            float64
	MinCount      int
	MaxIterations int
	Workers       int
	// PageWeight, from 0 (off) to 1, weighs each page in the training
	// objective by (mean blocks per page / its blocks)^PageWeight (see
	// pageWeights), so that pages of many blocks do not outweigh the
	// others as much as their length would: the scores that matter are
	// per page.
	PageWeight float64
	// Margin, 0 (off) or more, trains with word-weighted margins
	// (softmax-margin, see crf.Sequence.Cost): labelling a block on the
	// wrong side of content and other costs Margin × ln(1 + its words),
	// so that the model keeps long blocks, which weigh most in the
	// word-level scores, further from the wrong side than short ones.
	Margin float64
	// StackFolds is the number of folds by which Train gets held-out
	// first-stage marginals to train a two-stage labeller's second stage
	// on (default 3; see stack.go). A two-stage labeller is trained unless
	// the Stack feature group is off, or the examples fall in fewer than
	// two groups.
	StackFolds int
	// Boost configures the boosted trees of the Boost group (see
	// boost.go); nil means DefaultBoost(). BoostFolds is the number of
	// folds by which Train gets their held-out verdicts for the CRF to
	// learn from (default 3). The trees are trained unless the Boost
	// group is off or the examples fall in fewer than two groups.
	Boost      *gbdt.Options
	BoostFolds int
	// Context configures the context trees of the Context group (see
	// context.go); nil means DefaultContext(). Their held-out CRF
	// marginals come from StackFolds inner folds.
	Context *gbdt.Options
	// Progress, if set, is called after every optimiser iteration.
	Progress func(crf.Progress)
	// Stage, if set, is called before each CRF is trained, with what it
	// is: "first stage without fold 1 of 3", "first stage", "second stage".
	Stage func(string)
}

// DefaultTemplate returns the CRF template used unless one is given: every
// attribute of the block itself; the markup, split, density, link and
// filter evidence of the neighbours one block away; the split and filter
// evidence two blocks away; and label transitions (Victor used a window of
// the same kind with CRF++).
func DefaultTemplate(e *Extractor) string {
	var near, far []string
	for _, g := range []Group{Container, Split, Density, FilterScore, ClassID, Sentence, Bullet, Boost} {
		near = append(near, e.Keys(g)...)
	}
	for _, g := range []Group{Split, FilterScore} {
		far = append(far, e.Keys(g)...)
	}
	var sb strings.Builder
	sb.WriteString("U[0]\n")
	if len(near) > 0 {
		fmt.Fprintf(&sb, "U[-1]:%s\nU[1]:%s\n", strings.Join(near, ","), strings.Join(near, ","))
	}
	if len(far) > 0 {
		fmt.Fprintf(&sb, "U[-2]:%s\nU[2]:%s\n", strings.Join(far, ","), strings.Join(far, ","))
	}
	sb.WriteString("B\n")
	return sb.String()
}

// Train trains a labeller on examples. A two-stage labeller (see stack.go)
// costs StackFolds+2 trainings of a CRF: one per fold, on the examples of
// the other folds, for the held-out first-stage marginals the second stage
// learns from; then the first stage on all examples, and the second. A
// one-stage labeller with context trees (see context.go) costs
// StackFolds+1, the held-out marginals being what the trees learn from.
func Train(ctx context.Context, examples []Example, cfg TrainConfig) (*Labeller, error) {
	fc := DefaultFeatureConfig()
	if cfg.Features != nil {
		fc = *cfg.Features
	}
	ext, err := NewExtractor(fc)
	if err != nil {
		return nil, err
	}
	styles, err := stylesOf(examples)
	if err != nil {
		return nil, err
	}
	fc.Styles = styles
	tmplText := cfg.Template
	if tmplText == "" {
		tmplText = DefaultTemplate(ext)
		if len(styles) > 0 {
			tmplText += StyleLine + "\n"
		}
	}
	tmpl, err := crf.ParseTemplate(tmplText)
	if err != nil {
		return nil, err
	}
	// The settings, checked before any page's attributes are extracted.
	if !(cfg.PageWeight >= 0 && cfg.PageWeight <= 1) {
		return nil, fmt.Errorf("label: PageWeight %v is outside 0..1", cfg.PageWeight)
	}
	if !(cfg.Margin >= 0) || math.IsInf(cfg.Margin, 0) {
		return nil, fmt.Errorf("label: Margin %v: give 0 (off) or more", cfg.Margin)
	}
	var seqs []crf.Sequence
	var used []int // index in examples of each sequence
	for i, ex := range examples {
		if len(ex.Page.Blocks) == 0 {
			continue
		}
		if len(ex.Labels) != len(ex.Page.Blocks) {
			return nil, fmt.Errorf("label: example %d has %d labels for %d blocks", i, len(ex.Labels), len(ex.Page.Blocks))
		}
		ls := make([]int, len(ex.Labels))
		for k, l := range ex.Labels {
			ls[k] = int(l)
		}
		seqs = append(seqs, crf.Sequence{Attrs: withStyle(ext.Attrs(ex.Page), ex.Style), Labels: ls, Cost: marginCosts(ex.Page, ls, cfg.Margin)})
		used = append(used, i)
	}
	if len(seqs) == 0 {
		return nil, errors.New("label: no training example has blocks")
	}
	pageWeights(seqs, cfg.PageWeight)
	stage := func(name string) {
		if cfg.Stage != nil {
			cfg.Stage(name)
		}
	}
	groups := make([]string, len(seqs))
	for k, i := range used {
		groups[k] = examples[i].Group
		if groups[k] == "" {
			groups[k] = fmt.Sprintf("#%d", i)
		}
	}
	other := slices.Index(Labels, "other")
	var bst *TreesStage
	var tp [][]float64 // the trees' held-out verdicts
	if bfolds := min(cmp.Or(cfg.BoostFolds, 3), distinct(groups)); fc.Off[Boost] || bfolds < 2 {
		fc.switchOff(Boost)
	} else {
		opt := DefaultBoost()
		if cfg.Boost != nil {
			opt = *cfg.Boost
		}
		opt.Workers = cfg.Workers
		words := make([][]int32, len(seqs))
		for k, i := range used {
			for _, b := range examples[i].Page.Blocks {
				words[k] = append(words[k], b.Words)
			}
		}
		if bst, tp, err = ext.trainBoost(ctx, seqs, words, groups, bfolds, other, opt, stage); err != nil {
			return nil, err
		}
	}
	opts := crf.TrainOptions{
		Labels:        Labels,
		Template:      tmpl,
		L2:            cfg.L2,
		MinCount:      cfg.MinCount,
		MaxIterations: cfg.MaxIterations,
		Workers:       cfg.Workers,
		Progress:      cfg.Progress,
	}
	if opts.MinCount == 0 {
		opts.MinCount = 2
	}
	if opts.MaxIterations == 0 {
		opts.MaxIterations = DefaultIterations
	}
	folds := cfg.StackFolds
	if folds == 0 {
		folds = 3
	}
	folds = min(folds, distinct(groups))
	// The context trees need the boosted trees' verdicts and held-out
	// folds, and read one stage.
	if bst == nil || folds < 2 || !fc.Off[Stack] {
		fc.switchOff(Context)
	}
	if fc.Off[Stack] || folds < 2 {
		fc.switchOff(Stack)
		var held [][][]float64
		if !fc.Off[Context] {
			if held, err = heldOutMarginals(ctx, seqs, groups, folds, opts, stage); err != nil {
				return nil, err
			}
		}
		stage("first stage")
		m, err := crf.Train(ctx, seqs, opts)
		if err != nil {
			return nil, err
		}
		if !fc.Off[Context] {
			copt := DefaultContext()
			if cfg.Context != nil {
				copt = *cfg.Context
			}
			copt.Workers = cfg.Workers
			pages := make([]*page.Page, len(seqs))
			sts := make([]int, len(seqs))
			for k, i := range used {
				pages[k], sts[k] = examples[i].Page, styleIndex(fc.Styles, examples[i].Style)
			}
			stage(fmt.Sprintf("context trees (%d blocks, %d columns)", blockCount(seqs), contextCols))
			cm, err := trainContext(ctx, seqs, pages, sts, held, tp, other, slices.Index(Labels, "paragraph"), &fc, copt)
			if err != nil {
				return nil, err
			}
			return New(fc, bst, CRFStage{m}, ContextStage{cm}, SmoothStage{}, RegionStage{})
		}
		if bst != nil {
			return New(fc, bst, CRFStage{m}, BlendStage{}, SmoothStage{}, RegionStage{})
		}
		return New(fc, CRFStage{m}, SmoothStage{}, RegionStage{})
	}
	held, err := heldOutMarginals(ctx, seqs, groups, folds, opts, stage)
	if err != nil {
		return nil, err
	}
	stage("first stage")
	first, err := crf.Train(ctx, seqs, opts)
	if err != nil {
		return nil, err
	}
	seqs2 := make([]crf.Sequence, len(seqs))
	for k, seq := range seqs {
		var ss stackScratch
		seqs2[k] = crf.Sequence{Attrs: ext.stackAttrs(examples[used[k]].Page, seq.Attrs, held[k], other, &ss), Labels: seq.Labels, Weight: seq.Weight, Cost: seq.Cost}
	}
	opts.Template, err = crf.ParseTemplate(stackTemplate(tmplText))
	if err != nil {
		return nil, err
	}
	stage("second stage")
	second, err := crf.Train(ctx, seqs2, opts)
	if err != nil {
		return nil, err
	}
	if bst != nil {
		return New(fc, bst, CRFStage{first}, StackStage{second}, BlendStage{}, SmoothStage{}, RegionStage{})
	}
	return New(fc, CRFStage{first}, StackStage{second}, SmoothStage{}, RegionStage{})
}

// heldOutMarginals trains a CRF per fold of groups, on the sequences of
// the other folds, and returns its marginals of the fold's sequences.
func heldOutMarginals(ctx context.Context, seqs []crf.Sequence, groups []string, folds int, opts crf.TrainOptions, stage func(string)) ([][][]float64, error) {
	fold := AssignFolds(groups, folds)
	held := make([][][]float64, len(seqs))
	for f := range folds {
		var train []crf.Sequence
		for k := range seqs {
			if fold[k] != f {
				train = append(train, seqs[k])
			}
		}
		stage(fmt.Sprintf("first stage without fold %d of %d", f+1, folds))
		m, err := crf.Train(ctx, train, opts)
		if err != nil {
			return nil, fmt.Errorf("label: fold %d of %d: %w", f+1, folds, err)
		}
		for k := range seqs {
			if fold[k] == f {
				held[k] = m.Marginals(seqs[k].Attrs)
			}
		}
	}
	return held, nil
}

// blockCount is the number of blocks of seqs.
func blockCount(seqs []crf.Sequence) int {
	n := 0
	for _, s := range seqs {
		n += len(s.Labels)
	}
	return n
}

// switchOff switches group g off in a copy of fc.Off, so that the
// caller's map is left alone.
func (fc *FeatureConfig) switchOff(g Group) {
	off := maps.Clone(fc.Off)
	if off == nil {
		off = map[Group]bool{}
	}
	off[g] = true
	fc.Off = off
}

// switchOn switches group g on in a copy of fc.Off.
func (fc *FeatureConfig) switchOn(g Group) {
	if !fc.Off[g] {
		return
	}
	off := maps.Clone(fc.Off)
	delete(off, g)
	fc.Off = off
}

func distinct(s []string) int {
	seen := make(map[string]bool, len(s))
	for _, v := range s {
		seen[v] = true
	}
	return len(seen)
}

// AssignFolds assigns items to k folds so that items of one group never
// fall in two folds. Groups are dealt largest first to the smallest fold,
// in an order fixed by a hash of the group name, so folds are balanced and
// stable.
func AssignFolds(groups []string, k int) []int {
	members := map[string][]int{}
	for i, g := range groups {
		members[g] = append(members[g], i)
	}
	names := make([]string, 0, len(members))
	for n := range members {
		names = append(names, n)
	}
	hash := func(s string) uint64 { h := fnv.New64a(); h.Write([]byte(s)); return h.Sum64() }
	sort.Slice(names, func(i, j int) bool {
		a, b := len(members[names[i]]), len(members[names[j]])
		if a != b {
			return a > b
		}
		return hash(names[i]) < hash(names[j])
	})
	fold := make([]int, len(groups))
	sizes := make([]int, k)
	for _, n := range names {
		f := 0
		for j := 1; j < k; j++ {
			if sizes[j] < sizes[f] {
				f = j
			}
		}
		for _, i := range members[n] {
			fold[i] = f
		}
		sizes[f] += len(members[n])
	}
	return fold
}

// DefaultPageWeight is the page weighting exponent sluice train uses unless
// told otherwise (TrainConfig.PageWeight). In 6-fold cross-validation on
// the shared sets, 0.5 raised cleaneval-dev by 0.44, CleanPortalEval by
// 0.43, Dragnet by 0.37 and L3S-GN1 by 0.22, and left readability and WCXB
// within 0.1.
const DefaultPageWeight = 0.5

// DefaultMargin is the word-weighted margin scale sluice train uses unless
// told otherwise (TrainConfig.Margin). In 6-fold cross-validation on the
// shared sets (with page weights 0.5, each style's threshold chosen by the
// cross-validation), 0.5 raised every set: cleaneval-dev by 0.22,
// CleanPortalEval 0.36, Dragnet 0.68, L3S-GN1 0.42, readability 0.15 and
// WCXB 0.34; 0.25, 1 and 2 gave less (the main sets' mean 91.64, 91.56
// and 91.48, against 91.68 at 0.5 and 91.29 without).
const DefaultMargin = 0.5

// Page weights are clamped to this range before they are scaled to a mean
// of 1, so that no tiny page counts like a hundred.
const minPageWeight, maxPageWeight = 0.2, 5

// pageWeights sets each sequence's weight to (mean length / its
// length)^gamma, clamped, then scaled so that the weights average 1 (the
// L2 penalty keeps its strength against the data). gamma 0 leaves every
// weight at 1.
func pageWeights(seqs []crf.Sequence, gamma float64) {
	if gamma == 0 {
		return
	}
	mean := 0.0
	for _, s := range seqs {
		mean += float64(len(s.Labels))
	}
	mean /= float64(len(seqs))
	sum := 0.0
	for i := range seqs {
		w := math.Pow(mean/float64(len(seqs[i].Labels)), gamma)
		w = min(max(w, minPageWeight), maxPageWeight)
		seqs[i].Weight = w
		sum += w
	}
	for i := range seqs {
		seqs[i].Weight *= float64(len(seqs)) / sum
	}
}

// marginCosts returns the softmax-margin costs of a page's blocks (see
// TrainConfig.Margin), or nil when margin is 0: for each block, labels on
// the other side of content and other than its label ls[t] cost margin ×
// ln(1 + words); labels on the same side cost nothing.
func marginCosts(p *page.Page, ls []int, margin float64) []float64 {
	if margin == 0 {
		return nil
	}
	other := slices.Index(Labels, "other")
	L := len(Labels)
	cost := make([]float64, len(ls)*L)
	for t, y := range ls {
		c := margin * math.Log1p(float64(p.Blocks[t].Words))
		for z := range L {
			if (z == other) != (y == other) {
				cost[t*L+z] = c
			}
		}
	}
	return cost
}
