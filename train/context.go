package train

import (
	"fmt"

	"github.com/sluice-project/sluice/gbdt"
	"github.com/sluice-project/sluice/label"
)

// DefaultContext returns the options of the context trees that Train uses
// unless told otherwise: 150 trees of depth 4 at shrinkage 0.1, each fitted
// to half the blocks, leaves of at least 20.
func DefaultContext() gbdt.Options {
	return gbdt.Options{Trees: 150, Depth: 4, LearningRate: 0.1, Bins: 64, MinLeaf: 20, L2: 1, Subsample: 0.5}
}

// trainContext fits the context stage's trees to the sequences'
// content-or-other labels from the CRF's held-out marginals held and the
// trees' held-out verdicts (j.tp), as the context stage will see them on
// new pages.
func (j *job) trainContext(held [][][]float64) (label.Stage, error) {
	opt := DefaultContext()
	if j.cfg.Context != nil {
		opt = *j.cfg.Context
	}
	opt.Workers = j.cfg.Workers
	rows := blockCount(j.seqs)
	j.stage(fmt.Sprintf("context trees (%d blocks, %d columns)", rows, label.ContextColumns))
	x := make([]float32, 0, rows*label.ContextColumns)
	y := make([]float64, 0, rows)
	w := make([]float64, 0, rows)
	other := otherLabel()
	for k, s := range j.seqs {
		ex := j.examples[j.used[k]]
		x = append(x, label.ContextRows(ex.Page, held[k], j.tp[k], ex.Style, &j.fc)...)
		for i, l := range s.Labels {
			y = append(y, boolTarget(l != other))
			w = append(w, boostWeight(j.treeW[k], ex.Page.Blocks[i].Words))
		}
	}
	m, err := gbdt.Train(j.ctx, x, label.ContextColumns, y, w, opt)
	if err != nil {
		return nil, fmt.Errorf("train: context trees: %w", err)
	}
	return label.NewContextStage(m)
}
