package label

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/sluice-project/sluice/crf"
	"github.com/sluice-project/sluice/internal/freelist"
	"github.com/sluice-project/sluice/page"
)

// Labeller is a trained block labeller: a linear-chain CRF over the block
// features of Extractor, or two of them in a row (see stack.go). It is safe
// for concurrent use.
type Labeller struct {
	crf    *crf.Model // the first stage
	stack  *crf.Model // the second stage, or nil
	boost  *booster   // the boosted trees of the Boost group, or nil
	ext    *Extractor
	cfg    FeatureConfig
	labels []page.Label // CRF label index → page label
	other  int          // CRF index of page.Other, -1 if absent
	para   int          // CRF index of page.Paragraph, else of the first content label
}

// Labels are the CRF label names, in the order of Victor's five.
var Labels = []string{"other", "heading", "paragraph", "list", "continuation"}

// NewLabeller wraps a trained CRF and the feature configuration it was
// trained with, as a one-stage labeller (the Stack group is switched off in
// its configuration).
func NewLabeller(m *crf.Model, cfg FeatureConfig) (*Labeller, error) {
	cfg.switchOff(Stack)
	cfg.switchOff(Boost)
	cfg.switchOff(Context)
	return newLabeller(m, nil, nil, cfg)
}

// NewStackedLabeller wraps the two CRFs of a two-stage labeller: first
// labels a page's blocks from their attributes, second from their
// attributes and the Stack group's summary of first's marginals. cfg must
// have the Stack group on; the Boost group is switched off.
func NewStackedLabeller(first, second *crf.Model, cfg FeatureConfig) (*Labeller, error) {
	cfg.switchOff(Boost)
	cfg.switchOff(Context)
	return newStacked(first, second, nil, cfg)
}

// newStacked is NewStackedLabeller with boosted trees.
func newStacked(first, second *crf.Model, boost *booster, cfg FeatureConfig) (*Labeller, error) {
	if cfg.Off[Stack] {
		return nil, errors.New("label: a two-stage labeller needs the stack feature group, which its configuration switches off")
	}
	if second == nil {
		return nil, errors.New("label: a two-stage labeller needs its second stage")
	}
	if !slices.Equal(first.Labels(), second.Labels()) {
		return nil, fmt.Errorf("label: the stages of a labeller have different labels (%v and %v)", first.Labels(), second.Labels())
	}
	return newLabeller(first, second, boost, cfg)
}

// newLabeller wraps one or two CRFs and, if the Boost group is on, the
// boosted trees whose verdicts they read.
func newLabeller(m, stack *crf.Model, boost *booster, cfg FeatureConfig) (*Labeller, error) {
	ext, err := NewExtractor(cfg)
	if err != nil {
		return nil, err
	}
	if on := !cfg.Off[Boost]; on != (boost != nil) {
		if on {
			return nil, errors.New("label: the model's configuration has the boost feature group on but the model has no boosted trees")
		}
		return nil, errors.New("label: the model has boosted trees but its configuration switches the boost feature group off")
	}
	if on, has := !cfg.Off[Context], boost != nil && boost.context != nil; on != has {
		if on {
			return nil, errors.New("label: the model's configuration has the context feature group on but the model has no context trees")
		}
		return nil, errors.New("label: the model has context trees but its configuration switches the context feature group off")
	}
	for _, st := range cfg.Styles {
		if err := CheckStyle(st); err != nil {
			return nil, err
		}
	}
	if err := checkSmooth(cfg.Smooth); err != nil {
		return nil, err
	}
	if err := checkRegion(cfg.Region); err != nil {
		return nil, err
	}
	if err := checkBlend(cfg.Blend); err != nil {
		return nil, err
	}
	l := &Labeller{crf: m, stack: stack, boost: boost, ext: ext, cfg: cfg, other: -1, para: -1}
	for i, name := range m.Labels() {
		lab, ok := page.ParseLabel(name)
		if !ok {
			return nil, fmt.Errorf("label: model label %q is not one of %v", name, Labels)
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
		return nil, errors.New("label: model has no \"other\" label")
	}
	if l.para < 0 {
		return nil, errors.New("label: model has no content label")
	}
	return l, nil
}

// Features returns the feature configuration of the model.
func (l *Labeller) Features() FeatureConfig { return l.cfg }

// CRF returns the model of the last stage.
func (l *Labeller) CRF() *crf.Model {
	if l.stack != nil {
		return l.stack
	}
	return l.crf
}

// Stages returns the CRF of each stage, the first first: one, or two for a
// two-stage labeller.
func (l *Labeller) Stages() []*crf.Model {
	if l.stack != nil {
		return []*crf.Model{l.crf, l.stack}
	}
	return []*crf.Model{l.crf}
}

// NumFeatures is the number of CRF features of all stages.
func (l *Labeller) NumFeatures() int {
	n := 0
	for _, m := range l.Stages() {
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
	style = normStyle(style)
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
	style = normStyle(style)
	return style == MainStyle || slices.Contains(l.cfg.Styles, style)
}

// Threshold returns the decision threshold of a style: the one chosen by
// cross-validation when the model was trained (see
// FeatureConfig.Thresholds; it may be ExpectedF1), or 0.5.
func (l *Labeller) Threshold(style string) float64 {
	if t, ok := l.cfg.Thresholds[normStyle(style)]; ok && validThreshold(t) {
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
	if cap(ab.out) <= maxPooled && cap(ab.stack.out) <= maxPooled && cap(ab.boost.out) <= maxPooled && cap(ab.smooth.hash) <= maxPooled && cap(ab.context.finalBuf) <= maxPooled {
		clear(ab.out[:cap(ab.out)])
		clear(ab.stack.out[:cap(ab.stack.out)])
		clear(ab.boost.out[:cap(ab.boost.out)])
		attrBufs.Put(ab)
	}
}

// marginals runs the stages on p in style, with ab's memory.
func (l *Labeller) marginals(p *page.Page, style string, ab *AttrBuf) [][]float64 {
	attrs := withStyle(l.ext.AttrsInto(p, ab), style)
	if l.boost != nil {
		attrs = l.boost.attrs(attrs, l.ext.buckets[bBP], &ab.boost)
	}
	marg := l.crf.Marginals(attrs)
	if l.stack != nil {
		marg = l.stack.Marginals(l.ext.stackAttrs(p, attrs, marg, l.other, &ab.stack))
	}
	switch {
	case l.boost != nil && l.boost.context != nil:
		l.applyContext(p, style, marg, ab.boost.p, &ab.context)
	case l.boost != nil:
		blend(marg, ab.boost.p, l.other, l.para, l.cfg.Blend)
	}
	smoothPaths(p, marg, l.other, l.para, l.cfg.Smooth, &ab.smooth)
	focusRegion(p, marg, l.other, l.para, l.cfg.Region, &ab.smooth)
	return marg
}

// attrBufs holds the attribute memory of labelling, reused from page to
// page: a page's attributes are some 400 KB.
var attrBufs = freelist.New[AttrBuf](0)

// Marginals returns, for each block of p, the model's probability of each
// label (indexed as Labels) in a style the model knows, after the model's
// path smoothing and content region steps (see Smooth and Focus). With
// Decide it splits LabelStyle in two, so that one labelling can be decided
// at several thresholds.
func (l *Labeller) Marginals(p *page.Page, style string) ([][]float64, error) {
	if !l.HasStyle(style) {
		return nil, fmt.Errorf("label: the model knows no style %q (it knows %s)", normStyle(style), styleList(l.cfg.Styles))
	}
	if len(p.Blocks) == 0 {
		return nil, nil
	}
	return l.marginals(p, style, new(AttrBuf)), nil
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
// which does better on such pages, mostly tiny ones.)
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

// Model files. modelMagic starts a one-stage model: the feature
// configuration (its length, little-endian uint32, then JSON), then the CRF
// model. modelMagic2 starts a two-stage one: the feature configuration, the
// first stage's CRF (its length, uint32, then the model), then the second's.
// modelMagic3 starts a model with boosted trees (the Boost group): the
// feature configuration, the trees (length-prefixed, see booster.marshal),
// the first stage (length-prefixed), then the second stage's CRF, or
// nothing for a one-stage model. modelMagic4 is modelMagic3 with context
// trees (the Context group), which booster.marshal writes after the trees.
const (
	modelMagic  = "SLUICEM1"
	modelMagic2 = "SLUICEM2"
	modelMagic3 = "SLUICEM3"
	modelMagic4 = "SLUICEM4"
)

// MarshalBinary encodes the labeller as a model file.
func (l *Labeller) MarshalBinary() ([]byte, error) {
	cfg, err := json.Marshal(l.cfg)
	if err != nil {
		return nil, err
	}
	m, err := l.crf.MarshalBinary()
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	switch {
	case l.boost != nil && l.boost.context != nil:
		buf.WriteString(modelMagic4)
	case l.boost != nil:
		buf.WriteString(modelMagic3)
	case l.stack == nil:
		buf.WriteString(modelMagic)
	default:
		buf.WriteString(modelMagic2)
	}
	writePrefixed(&buf, cfg)
	if l.boost != nil {
		b, err := l.boost.marshal()
		if err != nil {
			return nil, err
		}
		writePrefixed(&buf, b)
	}
	if l.boost == nil && l.stack == nil {
		buf.Write(m) // SLUICEM1: the one CRF, not prefixed
		return buf.Bytes(), nil
	}
	writePrefixed(&buf, m)
	if l.stack != nil {
		m2, err := l.stack.MarshalBinary()
		if err != nil {
			return nil, err
		}
		buf.Write(m2)
	}
	return buf.Bytes(), nil
}

// writePrefixed writes data's length, a little-endian uint32, then data.
func writePrefixed(buf *bytes.Buffer, data []byte) {
	binary.Write(buf, binary.LittleEndian, uint32(len(data)))
	buf.Write(data)
}

// Save writes the model file to w.
func (l *Labeller) Save(w io.Writer) error {
	data, err := l.MarshalBinary()
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// Load reads a model file written by Save.
func Load(data []byte) (*Labeller, error) {
	var magic string
	if len(data) >= len(modelMagic)+4 {
		magic = string(data[:len(modelMagic)])
	}
	if !slices.Contains([]string{modelMagic, modelMagic2, modelMagic3, modelMagic4}, magic) {
		return nil, errors.New("label: not a sluice model file (it should start with " + modelMagic + ", " + modelMagic2 + ", " + modelMagic3 + " or " + modelMagic4 + "; train one with sluice train)")
	}
	data = data[len(modelMagic):]
	cfgData, data, ok := lengthPrefixed(data)
	if !ok {
		return nil, errors.New("label: model file truncated in its feature configuration")
	}
	var cfg FeatureConfig
	if err := json.Unmarshal(cfgData, &cfg); err != nil {
		return nil, fmt.Errorf("label: model feature configuration: %w", err)
	}
	var b *booster
	if magic != modelMagic4 {
		cfg.switchOff(Context) // models made before the Context group have none
	}
	if magic == modelMagic3 || magic == modelMagic4 {
		ext, err := NewExtractor(cfg)
		if err != nil {
			return nil, err
		}
		bdata, rest, ok := lengthPrefixed(data)
		if !ok {
			return nil, errors.New("label: model file truncated in its boosted trees")
		}
		if b, err = unmarshalBooster(ext, bdata, magic == modelMagic4); err != nil {
			return nil, err
		}
		data = rest
	} else {
		cfg.switchOff(Boost) // models made before the Boost group have none
	}
	if magic == modelMagic {
		m, err := crf.Unmarshal(data)
		if err != nil {
			return nil, err
		}
		return NewLabeller(m, cfg)
	}
	first, data, ok := lengthPrefixed(data)
	if !ok {
		return nil, errors.New("label: model file truncated in its first stage")
	}
	m1, err := crf.Unmarshal(first)
	if err != nil {
		return nil, fmt.Errorf("label: first stage: %w", err)
	}
	if (magic == modelMagic3 || magic == modelMagic4) && len(data) == 0 {
		if !cfg.Off[Stack] {
			return nil, errors.New("label: model file truncated: its configuration has two stages but the file holds one")
		}
		return newLabeller(m1, nil, b, cfg)
	}
	m2, err := crf.Unmarshal(data)
	if err != nil {
		return nil, fmt.Errorf("label: second stage: %w", err)
	}
	return newStacked(m1, m2, b, cfg)
}

// lengthPrefixed splits data after a little-endian uint32 length and that
// many bytes.
func lengthPrefixed(data []byte) (part, rest []byte, ok bool) {
	if len(data) < 4 {
		return nil, nil, false
	}
	n := binary.LittleEndian.Uint32(data)
	data = data[4:]
	if uint64(n) > uint64(len(data)) {
		return nil, nil, false
	}
	return data[:n], data[n:], true
}

// validThreshold reports whether t is a threshold a model can record.
func validThreshold(t float64) bool { return t == ExpectedF1 || t > 0 && t <= 1 }
