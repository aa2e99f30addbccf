package label

import "fmt"

// BlendStage is the blend stage: each block's content probability moves
// from the CRF's toward the boosted trees' verdict by
// FeatureConfig.Blend. The context stage, where a model has one, takes its
// place.
type BlendStage struct{}

// Name returns StageBlend.
func (BlendStage) Name() string { return StageBlend }

func (BlendStage) run(l *Labeller, s *state) { blend(s.marg, s.tp, l.other, l.para, l.cfg.Blend) }

// DefaultBlend is the Blend of new models. On the shared data, with the
// trees' held-out verdicts, it raised the content-word F1 of every set
// (see docs/experiments.md).
const DefaultBlend = 0.5

func checkBlend(w float64) error {
	if !(w >= 0 && w <= 1) {
		return fmt.Errorf("label: blend weight %g: must be from 0 (the CRF alone) to 1 (the boosted trees alone)", w)
	}
	return nil
}

// blend moves each block's content probability in marg (one minus the
// marginal of label other) toward the trees' probability p[i] with weight w,
// scaling the content labels' marginals alike; para is the label that
// takes the content probability of a block the CRF gave none.
func blend(marg [][]float64, p []float64, other, para int, w float64) {
	if w == 0 {
		return
	}
	for i, m := range marg {
		c := 1 - m[other]
		nc := (1-w)*c + w*p[i]
		m[other] = 1 - nc
		if c <= 0 {
			m[para] += nc
			continue
		}
		for k := range m {
			if k != other {
				m[k] *= nc / c
			}
		}
	}
}
