package tableset

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// Report is what Check found.
type Report struct {
	// Tables counts the table labels by label (data, layout, ?); BySet
	// the table labels of each set.
	Tables map[string]int
	BySet  map[string]int
	// Cells is the number of cell labels, CellTables the data tables with
	// every cell labelled.
	Cells, CellTables int
	// Problems are the references that do not resolve and the cells that
	// do not fit, each an *Error with file and line.
	Problems []error
}

// Check validates a tables file and, when cellsFile is not empty, a cells
// file against the data: every table reference names an existing page and
// table index, every cell label a table labelled data in the tables file
// and the top-left slot of one of its cells, and a data table with cell
// labels has all of its cells labelled. A file that cannot be read or
// parsed is the error; the problems with the data are in the report.
func Check(ctx context.Context, src *Source, tablesFile, cellsFile string) (*Report, error) {
	return check(ctx, src, tablesFile, cellsFile, nil)
}

func check(ctx context.Context, src *Source, tablesFile, cellsFile string, each func(*Example)) (*Report, error) {
	ls, err := ReadTables(tablesFile)
	if err != nil {
		return nil, err
	}
	var cells []CellLabel
	if cellsFile != "" {
		if cells, err = ReadCells(cellsFile); err != nil {
			return nil, err
		}
	}
	rep := &Report{Tables: map[string]int{}, BySet: map[string]int{}, Cells: len(cells)}
	labels := map[Ref]string{}
	for _, l := range ls {
		rep.Tables[l.Label]++
		rep.BySet[l.Set]++
		labels[l.Ref] = l.Label
	}
	for _, c := range cells {
		switch lab, ok := labels[c.Ref]; {
		case !ok:
			rep.Problems = append(rep.Problems, &Error{File: cellsFile, Line: c.Line, Msg: c.Ref.String() + " is not in " + tablesFile})
		case lab != LabelData:
			rep.Problems = append(rep.Problems, &Error{File: cellsFile, Line: c.Line,
				Msg: fmt.Sprintf("%s is labelled %s in %s: cells are labelled only in data tables", c.Ref, lab, tablesFile)})
		}
	}
	err = src.Resolve(ctx, tablesFile, ls, cells, func(_ int, ex *Example, err error) bool {
		if err != nil {
			rep.Problems = append(rep.Problems, err)
			return true
		}
		if ex.Label == LabelData && len(ex.Cells) > 0 {
			rep.checkCells(cellsFile, ex)
		}
		if each != nil {
			each(ex)
		}
		return true
	})
	return rep, err
}

// checkCells checks that the cell labels of ex name its cells, all of them.
func (rep *Report) checkCells(file string, ex *Example) {
	type at struct{ row, col int }
	cells := map[at]bool{}
	for _, c := range ex.Table.Cells {
		cells[at{int(c.Row), int(c.Col)}] = true
	}
	labelled := 0
	for _, c := range ex.Cells {
		if !cells[at{c.Row, c.Col}] {
			rep.Problems = append(rep.Problems, &Error{File: file, Line: c.Line,
				Msg: fmt.Sprintf("%s has no cell whose top-left slot is [%d,%d] (grid %d×%d)", ex.Ref, c.Row, c.Col, ex.Table.Rows, ex.Table.Cols)})
			continue
		}
		labelled++
	}
	if labelled < len(cells) {
		rep.Problems = append(rep.Problems, &Error{File: file, Line: ex.Cells[0].Line,
			Msg: fmt.Sprintf("%s: %d of its %d cells labelled: label all of them (sluice tables dump --cells prints them)", ex.Ref, labelled, len(cells))})
		return
	}
	rep.CellTables++
}

// Write prints the report: the problems, then the counts.
func (rep *Report) Write(w io.Writer) {
	for _, p := range rep.Problems {
		fmt.Fprintln(w, p)
	}
	n := rep.Tables[LabelData] + rep.Tables[LabelLayout] + rep.Tables[LabelUnknown]
	fmt.Fprintf(w, "tables: %d (data %d, layout %d, not labelled ? %d)\n", n,
		rep.Tables[LabelData], rep.Tables[LabelLayout], rep.Tables[LabelUnknown])
	var sets []string
	for _, s := range slices.Sorted(maps.Keys(rep.BySet)) {
		sets = append(sets, fmt.Sprintf("%s %d", s, rep.BySet[s]))
	}
	fmt.Fprintf(w, "by set: %s\n", strings.Join(sets, ", "))
	fmt.Fprintf(w, "cells: %d labels, %d data tables with every cell labelled\n", rep.Cells, rep.CellTables)
	if len(rep.Problems) > 0 {
		fmt.Fprintf(w, "%d problems\n", len(rep.Problems))
	} else {
		fmt.Fprintln(w, "ok")
	}
}
