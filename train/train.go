package train

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"sort"

	"github.com/sluice-project/sluice/crf"
	"github.com/sluice-project/sluice/crf/lbfgs"
	"github.com/sluice-project/sluice/features"
	"github.com/sluice-project/sluice/gbdt"
	"github.com/sluice-project/sluice/label"
	"github.com/sluice-project/sluice/page"
)

// Example is one training page: its blocks and their correct labels.
type Example struct {
	Page   *page.Page
	Labels []page.Label
	// Style is the annotation style of the labels (see label.MainStyle);
	// "" means label.MainStyle.
	Style string
	// Group names the pages that must not be split when Train holds some
	// out (the pages of one site, whose templates repeat); "" is a group
	// of its own.
	Group string
	// Weight multiplies the page's weight in the training objective (its
	// page weight, Config.PageWeight, before the weights are scaled to a
	// mean of 1); 0 means 1. LoadOptions.TypeWeights sets it by page type.
	Weight float64
}

// DefaultIterations is the default cap on L-BFGS iterations. On all the
// shared data the objective is still falling at 150 and at 300; a 6-fold
// cross-validation with 300 instead of 150 raised cleaneval-dev from 90.74
// to 91.24 and Dragnet from 91.59 to 92.12, lost CleanPortalEval 0.4 and
// left the other sets within 0.2, for twice the training time.
const DefaultIterations = 300

// Config configures Train. Zero fields take the documented defaults.
type Config struct {
	// Features selects the block features; nil means
	// label.DefaultFeatureConfig().
	Features *label.FeatureConfig
	// Template is a CRF template (see package crf); "" means
	// features.DefaultTemplate for the feature configuration.
	Template string
	// L2, MinCount, MaxIterations and Workers are passed to crf.Train
	// (defaults: L2 1, MinCount 2, MaxIterations DefaultIterations, all
	// cores).
	L2            float64
	MinCount      int
	MaxIterations int
	Workers       int
	// MinSites, when above 1, leaves out of every sequence the
	// attributes that the examples of fewer than MinSites groups (sites)
	// have (see dropSiteAttrs): a class name one site uses tells a model
	// nothing about the next site. Off by default: held out with 2, no
	// shared set moved beyond the spread of a retrained model
	// (docs/experiments.md).
	MinSites int
	// PageWeight, from 0 (off) to 1, weighs each page in the training
	// objective by (mean blocks per page / its blocks)^PageWeight (see
	// pageWeights), so that pages of many blocks do not outweigh the
	// others as much as their length would: the scores that matter are
	// per page.
	PageWeight float64
	// GoldShare, from 0 (off) to 1, weighs each page in the boosted trees'
	// training (both stages) by (mean gold share / its gold share)^GoldShare,
	// where a page's gold share is the part of its words the alignment
	// labels content (see goldShareWeights): a wrong block costs a page's
	// F1 about its words over the page's gold words, so a page whose gold
	// is a small part of it (a product page's title, price and specs)
	// loses more F1 by each block it keeps wrongly.
	GoldShare float64
	// BlindSites, from 0 (off) to 1, is the share of the training sites
	// whose pages are read without the text cue table (features.TextCues),
	// as pages in a language the table holds no word of: a model trained
	// only on pages whose words the table knows has never seen a block
	// judged without them (see blindSite). The table itself is still
	// learnt from every site. It needs examples of two sites or more (the
	// cue folds), and does nothing with one.
	BlindSites float64
	// Margin, 0 (off) or more, trains with word-weighted margins
	// (softmax-margin, see crf.Sequence.Cost): labelling a block on the
	// wrong side of content and other costs Margin × ln(1 + its words),
	// so that the model keeps long blocks, which weigh most in the
	// word-level scores, further from the wrong side than short ones.
	Margin float64
	// Stages lists the stages of the labeller to train, in order (see
	// label.Stage and label.CheckStages); nil means the list that
	// Features' groups give (see StagesOf). Stages that learn from
	// held-out verdicts (trees, stack, context) are left out when the
	// examples fall in fewer than two groups.
	Stages []string
	// StackFolds is the number of folds by which Train gets the CRF's
	// held-out marginals for the stack or context stage to learn from
	// (default 3).
	StackFolds int
	// Boost configures the boosted trees of the trees stage; nil means
	// DefaultBoost(). BoostFolds is the number of folds by which Train
	// gets their held-out verdicts for the CRF to learn from (default 3).
	Boost      *gbdt.Options
	BoostFolds int
	// Context configures the context trees of the context stage; nil
	// means DefaultContext().
	Context *gbdt.Options
	// Progress, if set, is called after every optimiser iteration.
	Progress func(crf.Progress)
	// Stage, if set, is called before each CRF is trained, with what it
	// is: "first stage without fold 1 of 3", "first stage", "second stage".
	Stage func(string)
	// FoldSeed, when not 0, deals the sites to CrossValidate's folds in
	// another order (Folds): cross-validations with different seeds
	// hold out different partitions of the same pages, so that their
	// spread can be seen. Train itself does not read it (its inner folds
	// stay as they are).
	FoldSeed uint64
}

// Train trains a labeller on examples, stage by stage (see Config.Stages).
// The stack and context stages learn from the CRF's verdicts on pages it
// was not trained on: with either, Train first trains StackFolds CRFs on
// inner folds of the examples (keeping groups whole), then the CRF on all
// of them, then the stage. The trees likewise learn on BoostFolds inner
// folds first, so that the CRF learns from their verdicts on pages they
// did not see.
func Train(ctx context.Context, examples []Example, cfg Config) (*label.Labeller, error) {
	j, err := newJob(ctx, examples, cfg)
	if err != nil {
		return nil, err
	}
	var stages []label.Stage
	if j.has(label.StageTrees) {
		if err := j.trainTrees(); err != nil {
			return nil, err
		}
		stages = append(stages, j.trees)
	}
	var held [][][]float64
	if j.has(label.StageStack) || j.has(label.StageContext) {
		if held, err = heldOutMarginals(ctx, j.seqs, j.groups, j.folds, j.opts, j.stage); err != nil {
			return nil, err
		}
	}
	j.stage("first stage")
	m, err := crf.Train(ctx, j.seqs, j.opts)
	if err != nil {
		return nil, err
	}
	stages = append(stages, label.CRFStage{Model: m})
	for _, name := range j.stages[len(stages):] {
		st, err := j.trainStage(name, held)
		if err != nil {
			return nil, err
		}
		stages = append(stages, st)
	}
	return label.New(j.fc, stages...)
}

// trainStage trains a stage after the CRF, from the CRF's held-out
// marginals where it needs them.
func (j *job) trainStage(name string, held [][][]float64) (label.Stage, error) {
	switch name {
	case label.StageStack:
		return j.trainStack(held)
	case label.StageContext:
		return j.trainContext(held)
	case label.StageBlend:
		return label.BlendStage{}, nil
	case label.StageSmooth:
		return label.SmoothStage{}, nil
	case label.StageRegion:
		return label.RegionStage{}, nil
	}
	return nil, fmt.Errorf("train: no way to train stage %q", name)
}

// job is one run of Train: the examples as CRF sequences and what the
// stages share.
type job struct {
	ctx      context.Context
	cfg      Config
	fc       label.FeatureConfig
	ext      *features.Extractor
	cueExt   []*features.Extractor // per cue fold (learnedcues.go)
	cueFold  []int                 // cue fold of each example
	blind    []bool                // each example read without text cues (Config.BlindSites)
	blindExt []*features.Extractor // per cue fold, its table less the text cues
	tmpl     string                // the CRF template's text
	stages   []string
	examples []Example
	seqs     []crf.Sequence
	used     []int    // index in examples of each sequence
	groups   []string // group of each sequence
	opts     crf.TrainOptions
	folds    int // inner folds for held-out CRF marginals
	trees    *label.TreesStage
	tp       [][]float64 // the trees' held-out verdicts of each sequence's blocks
	treeW    []float64   // each sequence's weight in the trees' training
}

// newJob checks cfg, chooses the stages and turns the examples into CRF
// sequences.
func newJob(ctx context.Context, examples []Example, cfg Config) (*job, error) {
	j := &job{ctx: ctx, cfg: cfg, examples: examples, fc: label.DefaultFeatureConfig()}
	if cfg.Features != nil {
		j.fc = *cfg.Features
	}
	j.stages = cfg.Stages
	if j.stages == nil {
		j.stages = StagesOf(j.fc)
	}
	if err := label.CheckStages(j.stages); err != nil {
		return nil, err
	}
	j.fc = j.fc.WithStages(j.stages)
	if !(cfg.BlindSites >= 0 && cfg.BlindSites <= 1) {
		return nil, fmt.Errorf("train: BlindSites %v is outside 0..1", cfg.BlindSites)
	}
	if err := j.features(); err != nil {
		return nil, err
	}
	if !(cfg.GoldShare >= 0 && cfg.GoldShare <= 1) {
		return nil, fmt.Errorf("train: GoldShare %v is outside 0..1", cfg.GoldShare)
	}
	if !(cfg.PageWeight >= 0 && cfg.PageWeight <= 1) {
		return nil, fmt.Errorf("train: PageWeight %v is outside 0..1", cfg.PageWeight)
	}
	if !(cfg.Margin >= 0) || math.IsInf(cfg.Margin, 0) {
		return nil, fmt.Errorf("train: Margin %v: give 0 (off) or more", cfg.Margin)
	}
	if err := j.sequences(); err != nil {
		return nil, err
	}
	if cfg.MinSites > 1 {
		n := dropSiteAttrs(j.seqs, j.groups, cfg.MinSites)
		j.stage(fmt.Sprintf("%d attributes left out: the pages of fewer than %d sites have them", n, cfg.MinSites))
	}
	j.crfOptions()
	j.folds = min(cmp.Or(cfg.StackFolds, 3), distinct(j.groups))
	j.dropUnlearnable()
	return j, nil
}

// features builds the extractor, the styles and the CRF template.
func (j *job) features() error {
	if err := j.learnCues(); err != nil {
		return err
	}
	ext, err := features.NewExtractor(j.fc.Config)
	if err != nil {
		return err
	}
	styles, err := stylesOf(j.examples)
	if err != nil {
		return err
	}
	j.ext, j.fc.Styles = ext, styles
	j.tmpl = j.cfg.Template
	if j.tmpl == "" {
		j.tmpl = features.DefaultTemplate(ext)
		if len(styles) > 0 {
			j.tmpl += label.StyleLine + "\n"
		}
	}
	tmpl, err := crf.ParseTemplate(j.tmpl)
	if err != nil {
		return err
	}
	j.opts.Template = tmpl
	return nil
}

// sequences turns the examples with blocks into weighted CRF sequences.
func (j *job) sequences() error {
	for i, ex := range j.examples {
		if len(ex.Page.Blocks) == 0 {
			continue
		}
		if len(ex.Labels) != len(ex.Page.Blocks) {
			return fmt.Errorf("train: example %d has %d labels for %d blocks", i, len(ex.Labels), len(ex.Page.Blocks))
		}
		ls := make([]int, len(ex.Labels))
		for k, l := range ex.Labels {
			ls[k] = int(l)
		}
		attrs := label.WithStyle(j.trainingExtractor(i).Attrs(ex.Page), ex.Style)
		// pageWeights reads an example weight of 0 as 1.
		j.seqs = append(j.seqs, crf.Sequence{Attrs: attrs, Labels: ls, Cost: marginCosts(ex.Page, ls, j.cfg.Margin), Weight: ex.Weight})
		j.used = append(j.used, i)
		g := ex.Group
		if g == "" {
			g = fmt.Sprintf("#%d", i)
		}
		j.groups = append(j.groups, g)
	}
	if len(j.seqs) == 0 {
		return errors.New("train: no training example has blocks")
	}
	pageWeights(j.seqs, j.cfg.PageWeight)
	j.treeW = goldShareWeights(j.seqs, j.blocksOf, j.cfg.GoldShare)
	return nil
}

// blocksOf returns the blocks of sequence k's page.
func (j *job) blocksOf(k int) []page.Block { return j.examples[j.used[k]].Page.Blocks }

// goldShareWeights returns each sequence's weight in the trees' training:
// its Weight times (mean share / its share)^gamma, clamped as page
// weights are, where a page's share is the part of its words labelled
// content (at least minGoldShare), then scaled so that the factors average
// 1. gamma 0 gives each sequence its Weight.
func goldShareWeights(seqs []crf.Sequence, blocks func(int) []page.Block, gamma float64) []float64 {
	w := make([]float64, len(seqs))
	if gamma == 0 {
		for k := range seqs {
			w[k] = seqs[k].Weight
		}
		return w
	}
	other := otherLabel()
	share := make([]float64, len(seqs))
	mean := 0.0
	for k, s := range seqs {
		bs := blocks(k)
		var gold, all float64
		for i, l := range s.Labels {
			all += float64(bs[i].Words)
			if l != other {
				gold += float64(bs[i].Words)
			}
		}
		share[k] = max(gold/max(all, 1), minGoldShare)
		mean += share[k]
	}
	mean /= float64(len(seqs))
	sum := 0.0
	for k := range seqs {
		f := clampedPow(mean/share[k], gamma)
		w[k] = f
		sum += f
	}
	for k := range seqs {
		w[k] *= float64(len(seqs)) / sum * seqs[k].Weight
	}
	return w
}

// minGoldShare is the least gold share goldShareWeights reads, so that a
// page whose gold is empty counts as one of a little gold.
const minGoldShare = 0.02

// crfOptions sets the options of every CRF trained.
func (j *job) crfOptions() {
	j.opts.Labels = label.Labels
	j.opts.L2 = j.cfg.L2
	j.opts.MinCount = cmp.Or(j.cfg.MinCount, 2)
	j.opts.MaxIterations = cmp.Or(j.cfg.MaxIterations, DefaultIterations)
	j.opts.Workers = j.cfg.Workers
	j.opts.Progress = j.cfg.Progress
	j.opts.Minimizer = lbfgs.Minimizer{}
}

// dropUnlearnable leaves out the stages that learn from held-out verdicts
// when there are too few groups for inner folds: the trees (and with them
// blend and context) below two groups for BoostFolds, stack and context
// below two for StackFolds.
func (j *job) dropUnlearnable() {
	bfolds := min(cmp.Or(j.cfg.BoostFolds, 3), distinct(j.groups))
	drop := map[string]bool{}
	if bfolds < 2 {
		drop[label.StageTrees], drop[label.StageBlend], drop[label.StageContext] = true, true, true
	}
	if j.folds < 2 {
		drop[label.StageStack], drop[label.StageContext] = true, true
	}
	j.stages = slices.DeleteFunc(slices.Clone(j.stages), func(s string) bool { return drop[s] })
	j.fc = j.fc.WithStages(j.stages)
}

// has reports whether the job trains stage name.
func (j *job) has(name string) bool { return slices.Contains(j.stages, name) }

// stage reports the start of a training step.
func (j *job) stage(name string) {
	if j.cfg.Stage != nil {
		j.cfg.Stage(name)
	}
}

// StagesOf returns the stages that the feature groups of fc call for, as
// sluice train chose them before stages were named: the trees unless the
// boost group is off; the crf; the stack stage unless the stack group is
// off, else the context stage with trees unless the context group is off;
// blend with trees and no context; smooth and region.
func StagesOf(fc label.FeatureConfig) []string {
	trees := !fc.Off[features.Boost]
	stack := !fc.Off[features.Stack]
	context := trees && !stack && !fc.Off[features.Context]
	var s []string
	if trees {
		s = append(s, label.StageTrees)
	}
	s = append(s, label.StageCRF)
	if stack {
		s = append(s, label.StageStack)
	}
	if context {
		s = append(s, label.StageContext)
	}
	if trees && !context {
		s = append(s, label.StageBlend)
	}
	return append(s, label.StageSmooth, label.StageRegion)
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
			return nil, fmt.Errorf("train: fold %d of %d: %w", f+1, folds, err)
		}
		for k := range seqs {
			if fold[k] == f {
				held[k] = m.Marginals(seqs[k].Attrs)
			}
		}
	}
	return held, nil
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
func AssignFolds(groups []string, k int) []int { return AssignFoldsSeeded(groups, k, 0) }

// AssignFoldsSeeded is AssignFolds with the groups of one size dealt in
// the order of a hash of the seed and the group name; seed 0 is
// AssignFolds's order.
func AssignFoldsSeeded(groups []string, k int, seed uint64) []int {
	members := map[string][]int{}
	for i, g := range groups {
		members[g] = append(members[g], i)
	}
	names := make([]string, 0, len(members))
	for n := range members {
		names = append(names, n)
	}
	hash := func(s string) uint64 {
		h := fnv.New64a()
		if seed != 0 {
			h.Write(binary.LittleEndian.AppendUint64(nil, seed))
		}
		h.Write([]byte(s))
		return h.Sum64()
	}
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

// pageWeights multiplies each sequence's weight (its example's Weight)
// by (mean length / its length)^gamma, clamped, then scales the weights
// so that they average 1 (the L2 penalty keeps its strength against the
// data). gamma 0 and examples of weight 1 leave every weight at 1.
func pageWeights(seqs []crf.Sequence, gamma float64) {
	mean := 0.0
	for _, s := range seqs {
		mean += float64(len(s.Labels))
	}
	mean /= float64(len(seqs))
	sum := 0.0
	for i := range seqs {
		w := 1.0
		if gamma != 0 {
			w = clampedPow(mean/float64(len(seqs[i].Labels)), gamma)
		}
		if seqs[i].Weight <= 0 {
			seqs[i].Weight = 1 // 0 means 1
		}
		seqs[i].Weight *= w
		sum += seqs[i].Weight
	}
	for i := range seqs {
		seqs[i].Weight *= float64(len(seqs)) / sum
	}
}

// clampedPow returns r^gamma clamped to the page weights' range.
func clampedPow(r, gamma float64) float64 {
	return min(max(math.Pow(r, gamma), minPageWeight), maxPageWeight)
}

// marginCosts returns the softmax-margin costs of a page's blocks (see
// TrainConfig.Margin), or nil when margin is 0: for each block, labels on
// the other side of content and other than its label ls[t] cost margin ×
// ln(1 + words); labels on the same side cost nothing.
func marginCosts(p *page.Page, ls []int, margin float64) []float64 {
	if margin == 0 {
		return nil
	}
	other := otherLabel()
	L := len(label.Labels)
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
