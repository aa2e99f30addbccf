package label

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/sluice-project/sluice/crf"
	"github.com/sluice-project/sluice/page"
)

// Example is one training page: its blocks and their correct labels.
type Example struct {
	Page   *page.Page
	Labels []page.Label
	// Style is the annotation style of the labels (see MainStyle); ""
	// means MainStyle.
	Style string
}

// TrainConfig configures Train. Zero fields take the documented defaults.
type TrainConfig struct {
	// Features selects the block features; the zero value means
	// DefaultFeatureConfig().
	Features *FeatureConfig
	// Template is a CRF template (see package crf); "" means
	// DefaultTemplate for the feature configuration.
	Template string
	// L2, MinCount, MaxIterations and Workers are passed to crf.Train
	// (defaults: L2 1, MinCount 2, MaxIterations 150, all cores).
	L2            float64
	MinCount      int
	MaxIterations int
	Workers       int
	// Progress, if set, is called after every optimiser iteration.
	Progress func(crf.Progress)
}

// DefaultTemplate returns the CRF template used unless one is given: every
// attribute of the block itself; the markup, split, density, link and
// filter evidence of the neighbours one block away; the split and filter
// evidence two blocks away; and label transitions (Victor used a window of
// the same kind with CRF++).
func DefaultTemplate(e *Extractor) string {
	var near, far []string
	for _, g := range []Group{Container, Split, Density, FilterScore, ClassID, Sentence, Bullet} {
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

// Train trains a labeller on examples.
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
	var seqs []crf.Sequence
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
		seqs = append(seqs, crf.Sequence{Attrs: withStyle(ext.Attrs(ex.Page), ex.Style), Labels: ls})
	}
	if len(seqs) == 0 {
		return nil, errors.New("label: no training example has blocks")
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
		opts.MaxIterations = 150
	}
	m, err := crf.Train(ctx, seqs, opts)
	if err != nil {
		return nil, err
	}
	return NewLabeller(m, fc)
}
