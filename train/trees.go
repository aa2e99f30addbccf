package train

import (
	"cmp"
	"fmt"
	"math"

	"github.com/sluice-project/sluice/crf"
	"github.com/sluice-project/sluice/gbdt"
	"github.com/sluice-project/sluice/label"
)

// DefaultBoost returns the options of the boosted trees that Train uses
// unless told otherwise: 150 trees of depth 5 at shrinkage 0.2, each
// fitted to half the blocks. On the shared data (3 folds, the trees'
// verdicts blended half and half with the CRF's) they gave WCXB a
// content-word F1 of 85.12 against 85.21 for 300 trees at 0.1 (and 84.74
// for the CRF alone), at half the labelling cost.
func DefaultBoost() gbdt.Options {
	return gbdt.Options{Trees: 150, Depth: 5, LearningRate: 0.2, Bins: 64, MinLeaf: 5, L2: 1, Subsample: 0.5}
}

// treeData is the training data of a set of trees: one row per block of
// every sequence, its content-or-other target and its weight.
type treeData struct {
	x     []float32
	width int
	y, w  []float64
	first []int // first row of each sequence, and the number of rows last
}

// rows returns the rows of sequence k.
func (d *treeData) rows(k int) (lo, hi int) { return d.first[k], d.first[k+1] }

// trainTrees fits the trees stage's boosted trees to the sequences'
// content-or-other labels, appends their verdicts to every sequence's
// attributes (held-out verdicts, from inner folds of the groups, so that
// the CRF sees how the trees do on pages they did not see) and keeps the
// trees fitted to all of them and the held-out verdicts.
func (j *job) trainTrees() error {
	opt := DefaultBoost()
	if j.cfg.Boost != nil {
		opt = *j.cfg.Boost
	}
	opt.Workers = j.cfg.Workers
	spec := label.NewTreeSpec(j.seqs)
	b, err := label.NewTreesStage(j.ext, spec, nil)
	if err != nil {
		return err
	}
	d := j.treeRows(b)
	folds := min(cmp.Or(j.cfg.BoostFolds, 3), distinct(j.groups))
	size := fmt.Sprintf("%d blocks, %d columns", len(d.y), d.width)
	held, err := j.heldOutTrees(d, folds, opt, size)
	if err != nil {
		return err
	}
	j.stage("boosted trees (" + size + ")")
	m, err := gbdt.Train(j.ctx, d.x, d.width, d.y, d.w, opt)
	if err != nil {
		return fmt.Errorf("train: boosted trees: %w", err)
	}
	if j.trees, err = label.NewTreesStage(j.ext, spec, m); err != nil {
		return err
	}
	j.tp = make([][]float64, len(j.seqs))
	for k := range j.seqs {
		s := &j.seqs[k]
		lo, hi := d.rows(k)
		j.tp[k] = held[lo:hi:hi]
		out := make([][]crf.Attr, len(s.Attrs))
		for i, a := range s.Attrs {
			out[i] = label.AppendTreeVerdict(j.ext, append(make([]crf.Attr, 0, len(a)+2), a...), held[lo+i])
		}
		s.Attrs = out
	}
	return nil
}

// treeRows builds the trees' training data from the sequences' attributes.
func (j *job) treeRows(b *label.TreesStage) *treeData {
	rows := blockCount(j.seqs)
	d := &treeData{width: b.Width(), x: make([]float32, 0, rows*b.Width()),
		y: make([]float64, 0, rows), w: make([]float64, 0, rows), first: make([]int, len(j.seqs)+1)}
	other := otherLabel()
	var scratch []float32
	for k, s := range j.seqs {
		d.first[k] = len(d.y)
		scratch = b.Rows(s.Attrs, scratch)
		d.x = append(d.x, scratch[:len(s.Attrs)*d.width]...)
		blocks := j.blocksOf(k)
		for i, l := range s.Labels {
			d.y = append(d.y, boolTarget(l != other))
			d.w = append(d.w, boostWeight(j.treeW[k], blocks[i].Words))
		}
	}
	d.first[len(j.seqs)] = len(d.y)
	return d
}

// heldOutTrees fits trees on each inner fold's complement and returns
// every row's verdict from the trees that did not see it.
func (j *job) heldOutTrees(d *treeData, folds int, opt gbdt.Options, size string) ([]float64, error) {
	held := make([]float64, len(d.y))
	fold := AssignFolds(j.groups, folds)
	fw := make([]float64, len(d.w))
	for f := range folds {
		// The fold's rows weigh nothing, which leaves them out.
		for k := range j.seqs {
			lo, hi := d.rows(k)
			for r := lo; r < hi; r++ {
				fw[r] = d.w[r]
				if fold[k] == f {
					fw[r] = 0
				}
			}
		}
		j.stage(fmt.Sprintf("boosted trees without fold %d of %d (%s)", f+1, folds, size))
		m, err := gbdt.Train(j.ctx, d.x, d.width, d.y, fw, opt)
		if err != nil {
			return nil, fmt.Errorf("train: boosted trees, fold %d of %d: %w", f+1, folds, err)
		}
		for k := range j.seqs {
			if fold[k] != f {
				continue
			}
			lo, hi := d.rows(k)
			for r := lo; r < hi; r++ {
				held[r] = m.Prob(d.x[r*d.width : (r+1)*d.width])
			}
		}
	}
	return held, nil
}

// boostWeight is a block's weight in the trees' training: its page's
// weight times 1 + ln(1 + its words), as long blocks weigh most in the
// word-level scores.
func boostWeight(pageWeight float64, words int32) float64 {
	if pageWeight == 0 {
		pageWeight = 1
	}
	return pageWeight * (1 + math.Log1p(float64(max(words, 0))))
}

func boolTarget(v bool) float64 {
	if v {
		return 1
	}
	return 0
}
