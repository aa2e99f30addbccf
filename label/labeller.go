package label

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/sluice-project/sluice/crf"
	"github.com/sluice-project/sluice/features"
	"github.com/sluice-project/sluice/internal/freelist"
	"github.com/sluice-project/sluice/page"
)

// Labeller is a trained block labeller: an ordered list of stages (see
// Stage) over the block features of an features.Extractor, such as boosted trees, a
// linear-chain CRF, context trees, path smoothing and the content region.
// It is safe for concurrent use.
type Labeller struct {
	stages []Stage
	crf    *crf.Model // the crf stage's model, whose labels the marginals have
	ext    *features.Extractor
	cfg    FeatureConfig
	dict   attrDict     // the trees' dictionary with the CRF's ids, when there are trees
	labels []page.Label // CRF label index → page label
	other  int          // CRF index of page.Other, -1 if absent
	para   int          // CRF index of page.Paragraph, else of the first content label
}

// Labels are the CRF label names, in the order of Victor's five.
var Labels = []string{"other", "heading", "paragraph", "list", "continuation"}

// New builds a labeller from its stages, in order (see CheckStages), and
// the feature configuration they were trained with. The configuration's
// stage list (FeatureConfig.Stages) is set from the stages, and the
// feature groups that stages give (see StageGroups) are switched on or off
// to match.
func New(cfg FeatureConfig, stages ...Stage) (*Labeller, error) {
	names := stageNames(stages)
	if err := CheckStages(names); err != nil {
		return nil, err
	}
	cfg = cfg.WithStages(names)
	cfg.Config = unreadGroupsOff(cfg.Config, stages)
	ext, err := features.NewExtractor(cfg.Config)
	if err != nil {
		return nil, err
	}
	if err := checkConfig(&cfg); err != nil {
		return nil, err
	}
	l := &Labeller{stages: slices.Clone(stages), ext: ext, cfg: cfg, other: -1, para: -1}
	for _, st := range l.stages {
		if err := bindStage(l, st); err != nil {
			return nil, err
		}
	}
	if err := l.setLabels(); err != nil {
		return nil, err
	}
	for _, st := range l.stages {
		if t, ok := st.(*TreesStage); ok {
			l.dict = t.dict.withCRF(l.crf)
		}
	}
	return l, nil
}

// NewLabeller wraps a trained CRF and the feature configuration it was
// trained with, as a labeller of stages crf, smooth and region.
func NewLabeller(m *crf.Model, cfg FeatureConfig) (*Labeller, error) {
	return New(cfg, CRFStage{m}, SmoothStage{}, RegionStage{})
}

// checkConfig checks the styles and the settings of the stages in cfg.
func checkConfig(cfg *FeatureConfig) error {
	for _, st := range cfg.Styles {
		if err := CheckStyle(st); err != nil {
			return err
		}
	}
	if err := checkSmooth(cfg.Smooth); err != nil {
		return err
	}
	if err := checkRegion(cfg.Region); err != nil {
		return err
	}
	return checkBlend(cfg.Blend)
}

// bindStage lets a stage that needs the labeller's extractor or models
// learn them, and records the CRF whose labels the marginals have.
func bindStage(l *Labeller, st Stage) error {
	switch s := st.(type) {
	case CRFStage:
		if s.Model == nil {
			return errors.New("label: the crf stage has no model")
		}
		l.crf = s.Model
	case StackStage:
		if s.Model == nil {
			return errors.New("label: the stack stage has no model")
		}
		if !slices.Equal(l.crf.Labels(), s.Model.Labels()) {
			return fmt.Errorf("label: the stages of a labeller have different labels (%v and %v)", l.crf.Labels(), s.Model.Labels())
		}
	case *TreesStage:
		if s == nil || s.model == nil {
			return errors.New("label: the trees stage has no trees")
		}
		s.learnBuckets(l.ext)
	case ContextStage:
		if s.Model == nil {
			return errors.New("label: the context stage has no trees")
		}
	}
	return nil
}

// setLabels maps the CRF's labels to page labels.
func (l *Labeller) setLabels() error {
	for i, name := range l.crf.Labels() {
		lab, ok := page.ParseLabel(name)
		if !ok {
			return fmt.Errorf("label: model label %q is not one of %v", name, Labels)
		}
		switch {
		case lab == page.Other:
			l.other = i
		case lab == page.Paragraph || l.para < 0:
			l.para = i
		}
		l.labels = append(l.labels, lab)
	}
	if l.other < 0 {
		return errors.New("label: model has no \"other\" label")
	}
	if l.para < 0 {
		return errors.New("label: model has no content label")
	}
	return nil
}

// Features returns the feature configuration of the model.
func (l *Labeller) Features() FeatureConfig {
	c := l.cfg
	if c.Cues == nil {
		c.Cues = sourceMap(c.CueSource)
	}
	if c.TextCues == nil {
		c.TextCues = sourceMap(c.TextCueSource)
	}
	c.CueSource, c.TextCueSource = nil, nil
	return c
}

// CRF returns the model of the last CRF stage (stack, else crf).
func (l *Labeller) CRF() *crf.Model {
	ms := l.CRFs()
	return ms[len(ms)-1]
}

// CRFs returns the model of each CRF stage, in order: one, or two with a
// stack stage.
func (l *Labeller) CRFs() []*crf.Model {
	var ms []*crf.Model
	for _, st := range l.stages {
		switch s := st.(type) {
		case CRFStage:
			ms = append(ms, s.Model)
		case StackStage:
			ms = append(ms, s.Model)
		}
	}
	return ms
}

// Stages returns the labeller's stages, in the order they run.
func (l *Labeller) Stages() []Stage { return slices.Clone(l.stages) }

// StageNames returns the names of the labeller's stages, in order.
func (l *Labeller) StageNames() []string { return stageNames(l.stages) }

// NumFeatures is the number of CRF features of all CRF stages.
func (l *Labeller) NumFeatures() int {
	n := 0
	for _, m := range l.CRFs() {
		n += m.NumFeatures()
	}
	return n
}

// Label sets every block's Score to the model's probability that it is
// content (one minus the marginal of "other") and its Label: blocks scoring
// below threshold are Other; the others get the most probable of the
// content labels (heading, paragraph, list item, continuation). With
// threshold 0.5 this is close to the Viterbi path; a higher threshold trades
// recall for precision. Threshold ExpectedF1 adapts the cut to each
// page (see ExpectedF1).
func (l *Labeller) Label(p *page.Page, threshold float64) {
	l.label(p, MainStyle, threshold)
}

// LabelStyle labels p as Label does, in an annotation style the model was
// trained with (see Styles); a threshold of 0 means the style's (see
// Threshold).
func (l *Labeller) LabelStyle(p *page.Page, style string, threshold float64) error {
	style = NormStyle(style)
	if !l.HasStyle(style) {
		return fmt.Errorf("label: the model knows no style %q (it knows %s)", style, styleList(l.cfg.Styles))
	}
	if threshold == 0 {
		threshold = l.Threshold(style)
	}
	l.label(p, style, threshold)
	return nil
}

// Styles returns the annotation styles the model knows, MainStyle first.
func (l *Labeller) Styles() []string { return append([]string{MainStyle}, l.cfg.Styles...) }

// HasStyle reports whether the model knows style ("" is MainStyle).
func (l *Labeller) HasStyle(style string) bool {
	style = NormStyle(style)
	return style == MainStyle || slices.Contains(l.cfg.Styles, style)
}

// Threshold returns the decision threshold of a style: the one chosen by
// cross-validation when the model was trained (see
// FeatureConfig.Thresholds; it may be ExpectedF1), or 0.5.
func (l *Labeller) Threshold(style string) float64 {
	if t, ok := l.cfg.Thresholds[NormStyle(style)]; ok && validThreshold(t) {
		return t
	}
	return 0.5
}

// SetThresholds records decision thresholds per style in the model (those
// of styles it does not know are an error).
func (l *Labeller) SetThresholds(th map[string]float64) error {
	for s, t := range th {
		if !l.HasStyle(s) {
			return fmt.Errorf("label: threshold for style %q, which the model does not know (it knows %s)", s, styleList(l.cfg.Styles))
		}
		if !validThreshold(t) {
			return fmt.Errorf("label: threshold %g for style %q: must be above 0 and at most 1, or ExpectedF1", t, s)
		}
	}
	l.cfg.Thresholds = maps.Clone(th)
	return nil
}

func (l *Labeller) label(p *page.Page, style string, threshold float64) {
	if len(p.Blocks) == 0 {
		return
	}
	ab := attrBufs.Get()
	l.Decide(p, l.marginals(p, style, ab), threshold)
	const most = features.MaxPooled
	if cap(ab.stack.p) <= most && cap(ab.stack.win.out) <= most && cap(ab.boost.p) <= most && cap(ab.smooth.hash) <= most && cap(ab.context.finalBuf) <= most && ab.win.pooled() && ab.attrs.Pooled() && cap(ab.copies.keys) <= most && cap(ab.copies.cand) <= most {
		attrBufs.Put(ab)
	}
}

// marginals runs the stages on p in style, with ab's memory.
func (l *Labeller) marginals(p *page.Page, style string, ab *work) [][]float64 {
	s := state{p: p, style: style, prep: l.ext.Prepare(p), ab: ab}
	defer s.prep.Release()
	last := 0 // the last stage that reads block attributes
	for i, st := range l.stages {
		if n := st.Name(); n == StageCRF || n == StageStack {
			last = i
		}
	}
	for i, st := range l.stages {
		// The last stage that reads attributes frees the page passes'
		// memory once it has read them all (see crfPass).
		s.lastReader = i == last
		st.run(l, &s)
	}
	if style == MainStyle {
		DropAltAlone(p, s.marg, l.other)
		DropFarCopies(p, s.marg, l.other, &ab.copies)
	}
	DropMachineText(p, s.marg, l.other)
	return s.marg
}

// attrBufs holds the attribute memory of labelling, reused from page to
// page: a page's attributes are some 400 KB.
var attrBufs = freelist.New[work](0)

// Marginals returns, for each block of p, the model's probability of each
// label (indexed as Labels) in a style the model knows, after the model's
// path smoothing and content region steps (see Smooth and Focus). With
// Decide it splits LabelStyle in two, so that one labelling can be decided
// at several thresholds.
func (l *Labeller) Marginals(p *page.Page, style string) ([][]float64, error) {
	if !l.HasStyle(style) {
		return nil, fmt.Errorf("label: the model knows no style %q (it knows %s)", NormStyle(style), styleList(l.cfg.Styles))
	}
	if len(p.Blocks) == 0 {
		return nil, nil
	}
	return l.marginals(p, style, new(work)), nil
}

// Decide sets the Score and Label of p's blocks from their marginals (as
// Marginals returns them) and a threshold, as Label does; threshold
// ExpectedF1 chooses the blocks of each page by the expected-F1 rule.
//
// With a fixed threshold, when the blocks kept hold some but less than RescueShare of the page's
// words, the model has most likely missed the page's content rather than
// found a page with that little: the content of a listing, a catalogue or
// a forum thread is made of many short, linked items that look like the
// link lists it has learnt to drop. The page is then decided again at a
// third of the threshold. In 6-fold cross-validation on the shared sets
// this raised WCXB's bag-of-words F1 by one point and L3S-GN1's by half a
// point, and left the others within ±0.6. (A page of which nothing is kept
// is left so: sluice.Cleaner then falls back to the heuristic pipeline,
// which does better on such pages, mostly tiny ones, unless the model
// judges its text boilerplate too: sluice.FallbackFloor. ExpectedF1
// decides the pages the model is unsure of everywhere itself; see
// UnsureContent.)
func (l *Labeller) Decide(p *page.Page, marg [][]float64, threshold float64) {
	if len(marg) != len(p.Blocks) {
		return
	}
	if threshold == ExpectedF1 {
		l.decide(p, marg, l.expectedF1Threshold(p, marg))
		return
	}
	kept, all := l.decide(p, marg, threshold)
	if kept > 0 && float64(kept) < RescueShare*float64(all) {
		l.decide(p, marg, threshold/3)
	}
}

// RescueShare is the share of a page's words below which Decide decides
// again at a lower threshold.
const RescueShare = 0.1

// decide labels p's blocks at threshold and returns the words kept and the
// words of the page.
func (l *Labeller) decide(p *page.Page, marg [][]float64, threshold float64) (kept, all int) {
	prevKept := false
	for i := range p.Blocks {
		m := marg[i]
		b := &p.Blocks[i]
		b.Score = 1 - m[l.other]
		all += int(b.Words)
		if b.Score < threshold {
			b.Label = page.Other
			prevKept = false
			continue
		}
		best, bp := page.Paragraph, -1.0
		for k, v := range m {
			if k != l.other && v > bp {
				best, bp = l.labels[k], v
			}
		}
		if best == page.Continuation && !prevKept {
			best = page.Paragraph
		}
		b.Label = best
		prevKept = true
		kept += int(b.Words)
	}
	return kept, all
}

// validThreshold reports whether t is a threshold a model can record.
func validThreshold(t float64) bool { return t == ExpectedF1 || t > 0 && t <= 1 }
