package tableset

import (
	"context"
	"errors"
	"fmt"

	"github.com/sluice-project/sluice/gbdt"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/tables"
)

// TrainOptions configures Train and CrossValidate.
type TrainOptions struct {
	// GBDT are the boosted trees' options, for the table classifier and
	// for each cell model alike. Its zero fields take the values of
	// DefaultGBDT (not gbdt's own defaults, which suit larger data), Seed
	// included.
	GBDT gbdt.Options
}

// DefaultGBDT are the tree options for a few hundred tables and a few
// thousand cells: 100 trees of depth 2, learning rate 0.1, seed 1, and a
// minimum hessian sum of 0.1 in a leaf. A row's hessian is p(1-p), about
// 0.06 for a role one cell in sixteen has, so gbdt's default of 1 (some 16
// rows) would forbid the leaves that hold the few thema or final cells of
// a small set. docs/tables.md says how they were chosen.
var DefaultGBDT = gbdt.Options{Trees: 100, Depth: 2, LearningRate: 0.1, MinLeaf: 0.1, Seed: 1}

// gbdtOptions returns opt.GBDT with its zero fields set from DefaultGBDT.
func (opt TrainOptions) gbdtOptions() gbdt.Options {
	o := opt.GBDT
	d := DefaultGBDT
	if o.Trees == 0 {
		o.Trees = d.Trees
	}
	if o.Depth == 0 {
		o.Depth = d.Depth
	}
	if o.LearningRate == 0 {
		o.LearningRate = d.LearningRate
	}
	if o.MinLeaf == 0 {
		o.MinLeaf = d.MinLeaf
	}
	if o.Seed == 0 {
		o.Seed = d.Seed
	}
	return o
}

// ErrNoCells is returned (wrapped) by Train when no data table has its
// cells labelled: the header model cannot be trained.
var ErrNoCells = errors.New("no data table has its cells labelled: the header model needs a cells file (sluice tables dump --cells)")

// prepared is an example turned into model rows once, for Train and for
// every fold of CrossValidate.
type prepared struct {
	ex *Example
	// data is the table's label; ruled is true when tables.Model.Kind
	// decides the table by rule (not two rows and two columns, or too
	// large a grid), so the table classifier never sees it.
	data, ruled bool
	row         []float32 // Features.Vector
	score       float64   // tables.DataScore, the sample's stratum
	// cellX are CellVectors rows and roles the labelled role of each cell
	// of Table.Cells (-1 when unlabelled); both nil unless the table is
	// labelled data with its cells labelled.
	cellX []float32
	roles []int8
}

// prepare measures ex.
func prepare(ex *Example) prepared {
	f := tables.Measure(ex.Page, ex.Table)
	p := prepared{ex: ex, data: ex.Label == LabelData, row: f.Vector(nil), score: tables.DataScore(f)}
	p.ruled = !f.Fits || f.Rows < 2 || f.Cols < 2
	if !p.data || len(ex.Cells) == 0 {
		return p
	}
	p.cellX = tables.CellVectors(ex.Page, ex.Table)
	if p.cellX == nil {
		return p
	}
	p.roles = cellRoles(ex)
	return p
}

// cellRoles returns the labelled role of each cell of ex.Table, -1 for a
// cell without a label.
func cellRoles(ex *Example) []int8 {
	type at struct{ row, col int }
	byAt := map[at]tables.Role{}
	for _, c := range ex.Cells {
		byAt[at{c.Row, c.Col}] = c.Role
	}
	roles := make([]int8, len(ex.Table.Cells))
	for i, c := range ex.Table.Cells {
		roles[i] = -1
		if r, ok := byAt[at{int(c.Row), int(c.Col)}]; ok {
			roles[i] = int8(r)
		}
	}
	return roles
}

// Train fits the table classifier and the header model of a tables.Model
// on examples (as Load returns them). The table classifier is a gbdt
// model over Features.Vector rows, data 1 and layout 0, of the tables that
// tables.Model.Kind does not decide by rule (at least two rows and two
// columns, grid within tables.MaxGrid); tables labelled ? are left out.
// The cell model is the header model that tables.Model.Cells reads: a
// gbdt model, header 1 and data 0, over the CellVectors rows of the
// labelled non-empty cells of the data tables whose cells are labelled,
// among those labelled header or data that the heuristic calls header or
// data (the other roles and empty cells come from the heuristic's rules).
// Train fails when the tables are not of both labels or when no
// data table has cell labels (ErrNoCells).
func Train(ctx context.Context, examples []Example, opt TrainOptions) (*tables.Model, error) {
	ps := make([]prepared, len(examples))
	for i := range examples {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ps[i] = prepare(&examples[i])
	}
	return fit(ctx, ps, opt.gbdtOptions())
}

// fit trains a model on prepared examples.
func fit(ctx context.Context, ps []prepared, o gbdt.Options) (*tables.Model, error) {
	var x []float32
	var y []float64
	var n [2]int
	for i := range ps {
		p := &ps[i]
		if p.ex.Label != LabelData && p.ex.Label != LabelLayout || p.ruled {
			continue
		}
		x = append(x, p.row...)
		y = append(y, b2f(p.data))
		n[b2i(p.data)]++
	}
	if n[0] == 0 || n[1] == 0 {
		return nil, fmt.Errorf("tableset: %d tables labelled data and %d layout (with at least two rows and two columns): the table classifier needs both", n[1], n[0])
	}
	table, err := gbdt.Train(ctx, x, len(tables.TableColumns), y, nil, o)
	if err != nil {
		return nil, fmt.Errorf("tableset: table classifier: %w", err)
	}
	header, err := fitHeader(ctx, ps, o)
	if err != nil {
		return nil, err
	}
	return tables.NewModel(table, header)
}

// fitHeader trains the header model tables.Model.Cells reads: header (1)
// against data (0), on the labelled non-empty cells that are header or
// data and that the heuristic calls header or data (the other roles and
// empty cells come from the heuristic's rules). It returns nil when the
// cells are all of one of the two.
func fitHeader(ctx context.Context, ps []prepared, o gbdt.Options) (*gbdt.Model, error) {
	w := len(tables.CellColumns)
	hData, hHeader := tables.CellColumn("h_data"), tables.CellColumn("h_header")
	var x []float32
	var y []float64
	var n, headers int
	for i := range ps {
		p := &ps[i]
		for j, r := range p.roles {
			row := p.cellX[j*w : (j+1)*w]
			role := tables.Role(r)
			if r < 0 || emptyCell(p.ex.Table, j) || role != tables.Header && role != tables.DataCell ||
				row[hData] == 0 && row[hHeader] == 0 {
				continue
			}
			x, y = append(x, row...), append(y, b2f(role == tables.Header))
			n, headers = n+1, headers+b2i(role == tables.Header)
		}
	}
	switch {
	case n == 0:
		return nil, fmt.Errorf("tableset: %w", ErrNoCells)
	case headers == 0 || headers == n:
		return nil, nil
	}
	m, err := gbdt.Train(ctx, x, w, y, nil, o)
	if err != nil {
		return nil, fmt.Errorf("tableset: header model: %w", err)
	}
	return m, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func b2f(b bool) float64 { return float64(b2i(b)) }

// emptyCell reports whether cell i of t is empty (typed by rule, never by the header model).
func emptyCell(t *page.Table, i int) bool { return t.Cells[i].Chars == 0 }
