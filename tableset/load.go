package tableset

import (
	"context"
	"fmt"

	"github.com/sluice-project/sluice/page"
)

// Example is one labelled table with the page it is on.
type Example struct {
	TableLabel
	// Cells are the table's cell labels (empty unless it is labelled data
	// and its cells were labelled), in file order.
	Cells []CellLabel
	// Page is the segmented page and Table its table Ref.Table.
	Page  *page.Page
	Table *page.Table
	// Site is the site of the page when the data set says it
	// (dataset.Page.Site), for grouping cross-validation folds; else "".
	Site string
}

// Resolve finds the page and table of each of ls in turn and calls fn
// with its index in ls and the example, or with the error that says why
// the reference does not resolve (an *Error at the label's line of file).
// It stops when fn returns false or ctx is done. cells are attached to
// the examples of their tables.
func (s *Source) Resolve(ctx context.Context, file string, ls []TableLabel, cells []CellLabel, fn func(i int, ex *Example, err error) bool) error {
	byRef := map[Ref][]CellLabel{}
	for _, c := range cells {
		byRef[c.Ref] = append(byRef[c.Ref], c)
	}
	for i, l := range ls {
		if err := ctx.Err(); err != nil {
			return err
		}
		p, err := s.Page(ctx, l.Set, l.Page)
		if err != nil {
			if !fn(i, nil, &Error{File: file, Line: l.Line, Msg: err.Error()}) {
				return nil
			}
			continue
		}
		if l.Table >= len(p.Tables) {
			err := &Error{File: file, Line: l.Line, Msg: fmt.Sprintf("%s: the page has %d leaf tables", l.Ref, len(p.Tables))}
			if !fn(i, nil, err) {
				return nil
			}
			continue
		}
		ex := &Example{TableLabel: l, Cells: byRef[l.Ref], Page: p, Table: &p.Tables[l.Table], Site: s.lastSite}
		if !fn(i, ex, nil) {
			return nil
		}
	}
	return nil
}

// Load reads a tables file and, when cellsFile is not empty, a cells file,
// checks them against the data (see Check) and returns the labelled tables
// (labels data and layout; ? is left out) with their pages. Any problem
// fails the load: train only on files that Check passes. The examples of
// one page share it; every page stays in memory while the examples do.
func Load(ctx context.Context, src *Source, tablesFile, cellsFile string) ([]Example, error) {
	var out []Example
	rep, err := check(ctx, src, tablesFile, cellsFile, func(ex *Example) {
		if ex.Label != LabelUnknown {
			out = append(out, *ex)
		}
	})
	if err != nil {
		return nil, err
	}
	if len(rep.Problems) > 0 {
		return nil, fmt.Errorf("%d problems in the labels, the first: %w", len(rep.Problems), rep.Problems[0])
	}
	return out, nil
}
