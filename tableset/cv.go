package tableset

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/sluice-project/sluice/gbdt"
	"github.com/sluice-project/sluice/tables"
)

// StratumScore splits the tables into the sample's two strata: data-ish
// (tables.DataScore at least StratumScore, the default MinScore of
// Sample) and the others.
const StratumScore = 0.3

// CVResult is what CrossValidate measured on the held-out folds.
type CVResult struct {
	// Folds is the number of folds, Groups the number of sites (or pages,
	// for pages without a site) they were made of.
	Folds, Groups int
	// Tables are the examples labelled data or layout, Ruled those of them
	// that tables.Model.Kind decides by rule (layout: fewer than two rows
	// or columns, or too large a grid), counted in both evaluations.
	Tables, Ruled int
	// CellTables are the data tables with labelled cells, Cells their
	// labelled cells.
	CellTables, Cells int
	// Options are the tree options every fold was trained with, and
	// Trees says them in words (for the report and the JSON file).
	Options gbdt.Options `json:"-"`
	Trees   string
	// Model is the trained model's evaluation, Heuristic that of the
	// heuristics (tables.HeuristicKind, tables.HeuristicCells) on the
	// same tables.
	Model, Heuristic Eval
}

// Eval holds the confusion matrices of one classifier.
type Eval struct {
	// Tables are the held-out tables by label and predicted kind
	// (classes data, layout).
	Tables Confusion
	// Strata are the same tables split by the sample's strata:
	// "DataScore >= 0.3" and "DataScore < 0.3".
	Strata []Stratum
	// Cells are the labelled cells of the held-out data tables by label
	// and predicted role (classes in tables.Role order). A cell whose
	// table got no roles (grid larger than tables.MaxGrid) counts in the
	// extra last column.
	Cells Confusion
}

// Stratum is the table confusion of one stratum of the sample.
type Stratum struct {
	Name   string
	Tables Confusion
}

// Confusion counts examples by labelled class (row) and predicted class
// (column, with one extra last column: no prediction).
type Confusion struct {
	Classes []string
	Counts  [][]int
	// Scores are the per-class figures, in Classes order.
	Scores []Score
}

// Score is the precision, recall and F-score of one class.
type Score struct {
	Class string
	// Support is the number of examples labelled Class, Predicted the
	// number predicted Class, Correct both.
	Support, Predicted, Correct int
	// Precision, Recall and F (their harmonic mean); 0 when undefined.
	Precision, Recall, F float64
}

func newConfusion(classes []string) Confusion {
	c := Confusion{Classes: classes, Counts: make([][]int, len(classes))}
	for i := range c.Counts {
		c.Counts[i] = make([]int, len(classes)+1)
	}
	return c
}

// add counts one example of label predicted pred (-1: none).
func (c *Confusion) add(label, pred int) {
	if pred < 0 {
		pred = len(c.Classes)
	}
	c.Counts[label][pred]++
}

// score fills c.Scores from the counts.
func (c *Confusion) score() {
	c.Scores = make([]Score, len(c.Classes))
	for k, name := range c.Classes {
		s := Score{Class: name}
		for i := range c.Counts {
			s.Support += c.Counts[k][i]
			s.Predicted += c.Counts[i][k]
		}
		s.Correct = c.Counts[k][k]
		if s.Predicted > 0 {
			s.Precision = float64(s.Correct) / float64(s.Predicted)
		}
		if s.Support > 0 {
			s.Recall = float64(s.Correct) / float64(s.Support)
		}
		if s.Precision+s.Recall > 0 {
			s.F = 2 * s.Precision * s.Recall / (s.Precision + s.Recall)
		}
		c.Scores[k] = s
	}
}

func newEval() Eval {
	kinds := []string{tables.Data.String(), tables.Layout.String()}
	var roles []string
	for r := tables.Neutral; r <= tables.FinalNonImportant; r++ {
		roles = append(roles, r.String())
	}
	return Eval{
		Tables: newConfusion(kinds),
		Strata: []Stratum{
			{Name: fmt.Sprintf("DataScore >= %v", StratumScore), Tables: newConfusion(kinds)},
			{Name: fmt.Sprintf("DataScore < %v", StratumScore), Tables: newConfusion(kinds)},
		},
		Cells: newConfusion(roles),
	}
}

func (e *Eval) score() {
	e.Tables.score()
	for i := range e.Strata {
		e.Strata[i].Tables.score()
	}
	e.Cells.score()
}

// kindIndex is the class of a kind in Eval.Tables: data 0, layout 1.
func kindIndex(k tables.Kind) int { return b2i(k != tables.Data) }

// CrossValidate measures Train's models by k-fold cross-validation on
// examples: the tables of one site (Example.Site; a page without a site is
// a group of its own) are all in one fold, the groups shuffled by seed and
// dealt, largest first, to the fold with the fewest tables so far, so the
// same examples and seed give the same folds. Each fold's model is
// trained on the other folds and evaluated on the fold's tables with
// tables.Model.Kind and, for the data tables with labelled cells,
// tables.Model.Cells (empty cells typed by rule, then the fix-up rule):
// what the shipped model would return. The heuristics are measured on the
// same tables. folds is lowered to the number of groups when there are
// fewer; fewer than two groups is an error.
func CrossValidate(ctx context.Context, examples []Example, folds int, seed uint64, opt TrainOptions) (*CVResult, error) {
	if folds < 2 {
		return nil, fmt.Errorf("tableset: %d folds, want at least 2", folds)
	}
	var ps []prepared
	for i := range examples {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if l := examples[i].Label; l == LabelData || l == LabelLayout {
			ps = append(ps, prepare(&examples[i]))
		}
	}
	fold, groups := assignFolds(ps, folds, seed)
	if groups < 2 {
		return nil, fmt.Errorf("tableset: the %d labelled tables come from %d site or page: cross-validation needs at least 2", len(ps), groups)
	}
	res := &CVResult{Folds: min(folds, groups), Groups: groups, Tables: len(ps), Options: opt.gbdtOptions(),
		Model: newEval(), Heuristic: newEval()}
	o := res.Options
	res.Trees = fmt.Sprintf("%d trees, depth %d, learning rate %v, min leaf %v, seed %d", o.Trees, o.Depth, o.LearningRate, o.MinLeaf, o.Seed)
	for k := range res.Folds {
		var train []prepared
		for i := range ps {
			if fold[i] != k {
				train = append(train, ps[i])
			}
		}
		m, err := fit(ctx, train, res.Options)
		if err != nil {
			return nil, fmt.Errorf("fold %d of %d: %w", k+1, res.Folds, err)
		}
		for i := range ps {
			if fold[i] == k {
				res.evaluate(m, &ps[i])
			}
		}
	}
	res.Model.score()
	res.Heuristic.score()
	return res, nil
}

// evaluate counts held-out example p under model m and the heuristics.
func (res *CVResult) evaluate(m *tables.Model, p *prepared) {
	ex := p.ex
	label := b2i(!p.data)
	stratum := b2i(p.score < StratumScore)
	res.Ruled += b2i(p.ruled)
	for _, e := range []struct {
		ev   *Eval
		kind tables.Kind
	}{{&res.Model, m.Kind(ex.Page, ex.Table)}, {&res.Heuristic, tables.HeuristicKind(ex.Page, ex.Table)}} {
		e.ev.Tables.add(label, kindIndex(e.kind))
		e.ev.Strata[stratum].Tables.add(label, kindIndex(e.kind))
	}
	if p.roles == nil {
		return
	}
	res.CellTables++
	model, heur := m.Cells(ex.Page, ex.Table), tables.HeuristicCells(ex.Page, ex.Table)
	for i, r := range p.roles {
		if r < 0 {
			continue
		}
		res.Cells++
		res.Model.Cells.add(int(r), roleAt(model, i))
		res.Heuristic.Cells.add(int(r), roleAt(heur, i))
	}
}

// roleAt is the predicted role of cell i, -1 when the table got none.
func roleAt(roles []tables.Role, i int) int {
	if roles == nil {
		return -1
	}
	return int(roles[i])
}

// assignFolds gives each of ps a fold in [0, folds) by group (site, else
// page) and returns the folds and the number of groups.
func assignFolds(ps []prepared, folds int, seed uint64) ([]int, int) {
	byGroup := map[string][]int{}
	for i := range ps {
		k := "page " + ps[i].ex.Set + "/" + ps[i].ex.Ref.Page
		if ps[i].ex.Site != "" {
			k = "site " + ps[i].ex.Site
		}
		byGroup[k] = append(byGroup[k], i)
	}
	keys := make([]string, 0, len(byGroup))
	for k := range byGroup {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	rnd := rand.New(rand.NewPCG(seed, 0x7461626c65736574))
	rnd.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	slices.SortStableFunc(keys, func(a, b string) int { return cmp.Compare(len(byGroup[b]), len(byGroup[a])) })
	folds = max(1, min(folds, len(keys)))
	size := make([]int, folds)
	fold := make([]int, len(ps))
	for _, k := range keys {
		f := 0
		for j := range size {
			if size[j] < size[f] {
				f = j
			}
		}
		for _, i := range byGroup[k] {
			fold[i] = f
		}
		size[f] += len(byGroup[k])
	}
	return fold, len(keys)
}
