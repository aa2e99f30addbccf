package label

import "github.com/sluice-project/sluice/crf"

// CRFStage is the crf stage: a linear-chain CRF (package crf, as Victor
// uses) computes each block's label marginals from the block attributes
// of the stages before it.
type CRFStage struct{ Model *crf.Model }

// Name returns StageCRF.
func (CRFStage) Name() string { return StageCRF }

func (c CRFStage) run(l *Labeller, s *state) { s.marg = l.crfPass(s, c.Model, nil) }

// MarshalBinary encodes the CRF, the stage's part of a model file.
func (c CRFStage) MarshalBinary() ([]byte, error) { return c.Model.MarshalBinary() }
