package train

import (
	"github.com/sluice-project/sluice/crf"
	"github.com/sluice-project/sluice/label"
)

// trainStack trains the stack stage's CRF on the sequences' attributes
// with the Stack group's summary of the CRF's held-out marginals held, with
// the CRF's template and the stack's lines (label.StackTemplate).
func (j *job) trainStack(held [][][]float64) (label.Stage, error) {
	seqs := make([]crf.Sequence, len(j.seqs))
	for k, seq := range j.seqs {
		attrs := label.StackAttrs(j.ext, j.examples[j.used[k]].Page, seq.Attrs, held[k])
		seqs[k] = crf.Sequence{Attrs: attrs, Labels: seq.Labels, Weight: seq.Weight, Cost: seq.Cost}
	}
	opts := j.opts
	var err error
	if opts.Template, err = crf.ParseTemplate(label.StackTemplate(j.tmpl)); err != nil {
		return nil, err
	}
	j.stage("second stage")
	m, err := crf.Train(j.ctx, seqs, opts)
	if err != nil {
		return nil, err
	}
	return label.StackStage{Model: m}, nil
}
