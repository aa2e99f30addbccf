package tables

import (
	"math"
	"unicode"

	"github.com/sluice-project/sluice/page"
)

// Features are the measures of a leaf table that tell data from layout:
// Wang & Hu's (grid size, cell length and its consistency, content types)
// and Kitten's additions (empty-cell rates per row and column, form,
// caption, tag count, nesting).
type Features struct {
	Rows, Cols, Cells int
	// Empty is the share of slots of the grid with no text (uncovered slots
	// included); EmptyRowMax and EmptyColMax the largest share of empty
	// slots in one row and in one column; EmptyRows and EmptyCols the
	// shares of rows and columns with no text at all.
	Empty, EmptyRowMax, EmptyColMax, EmptyRows, EmptyCols float64
	// MeanChars is the mean text length of non-empty cells, LengthCV the
	// coefficient of variation of that length (0 for cells all alike) and
	// ColLengthCV its mean over columns: data tables hold short cells of
	// similar length down a column.
	MeanChars, LengthCV, ColLengthCV float64
	// Numeric is the share of non-empty cells that start with a digit (or
	// a sign or currency before one); Links the share of the table's text
	// inside links; Blocks the mean number of blocks per non-empty cell.
	Numeric, Links, Blocks float64
	// Merged is the share of cells that span more than one slot.
	Merged float64
	// TH counts th cells, Scope cells with a scope attribute; THead,
	// Caption and Summary are the table-level evidence.
	TH, Scope               int
	THead, Caption, Summary bool
	// Forms counts form controls inside, Tags the elements of the table
	// (its own included), Nested the tables around it.
	Forms, Tags, Nested int
	// Fits is false when the grid is larger than MaxGrid (the slot-based
	// measures are then zero).
	Fits bool
}

// Measure returns the features of table t of page p.
func Measure(p *page.Page, t *page.Table) Features {
	f := Features{
		Rows: int(t.Rows), Cols: int(t.Cols), Cells: len(t.Cells),
		THead: t.THead, Caption: t.Caption != "", Summary: t.Summary != "",
		Forms: int(t.Forms), Nested: int(t.Nested),
	}
	if int(t.Node) >= 0 && int(t.Node) < len(p.Nodes) {
		f.Tags = int(p.Nodes[t.Node].Elements)
	}
	var lens []float64
	var links, chars, blocks, merged int
	for i := range t.Cells {
		c := &t.Cells[i]
		f.TH += b2i(c.TH)
		f.Scope += b2i(c.Scope)
		merged += b2i(c.RowSpan > 1 || c.ColSpan > 1)
		if c.Chars == 0 {
			continue
		}
		lens = append(lens, float64(c.Chars))
		blocks += int(c.End - c.First)
		for b := c.First; b < c.End && int(b) < len(p.Blocks); b++ {
			links += int(p.Blocks[b].LinkChars)
			chars += int(p.Blocks[b].Chars)
		}
		f.Numeric += b2f(numeric(cellText(p, c)))
	}
	if n := len(lens); n > 0 {
		f.Numeric /= float64(n)
		f.Blocks = float64(blocks) / float64(n)
		f.MeanChars, f.LengthCV = meanCV(lens)
	}
	if chars > 0 {
		f.Links = float64(links) / float64(chars)
	}
	if len(t.Cells) > 0 {
		f.Merged = float64(merged) / float64(len(t.Cells))
	}
	if g, ok := newGrid(t); ok {
		f.Fits = true
		f.slots(t, g)
	}
	return f
}

// slots sets the measures read from the grid: empty rates per row and
// column, and the length consistency down the columns.
func (f *Features) slots(t *page.Table, g grid) {
	rowEmpty := make([]int, g.rows)
	colEmpty := make([]int, g.cols)
	empty := 0
	var cvs float64
	ncv := 0
	col := make([]float64, 0, g.rows)
	for x := range g.cols {
		col = col[:0]
		for y := range g.rows {
			i := g.cell(y, x)
			if i < 0 || t.Cells[i].Chars == 0 {
				rowEmpty[y]++
				colEmpty[x]++
				empty++
				continue
			}
			if c := t.Cells[i]; int(c.Row) == y && int(c.Col) == x {
				col = append(col, float64(c.Chars))
			}
		}
		if len(col) > 1 {
			_, cv := meanCV(col)
			cvs += cv
			ncv++
		}
	}
	f.Empty = float64(empty) / float64(g.rows*g.cols)
	for _, n := range rowEmpty {
		f.EmptyRowMax = max(f.EmptyRowMax, float64(n)/float64(g.cols))
		f.EmptyRows += b2f(n == g.cols)
	}
	for _, n := range colEmpty {
		f.EmptyColMax = max(f.EmptyColMax, float64(n)/float64(g.rows))
		f.EmptyCols += b2f(n == g.rows)
	}
	f.EmptyRows /= float64(g.rows)
	f.EmptyCols /= float64(g.cols)
	if ncv > 0 {
		f.ColLengthCV = cvs / float64(ncv)
	}
}

// meanCV returns the mean of xs and their coefficient of variation.
func meanCV(xs []float64) (mean, cv float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	var v float64
	for _, x := range xs {
		v += (x - mean) * (x - mean)
	}
	if mean > 0 {
		cv = math.Sqrt(v/float64(len(xs))) / mean
	}
	return mean, cv
}

// numeric reports whether s starts with a number, perhaps after a sign or
// a currency symbol.
func numeric(s string) bool {
	for _, r := range s {
		switch {
		case unicode.IsDigit(r):
			return true
		case r == '-' || r == '+' || r == '.' || r == '(' || unicode.Is(unicode.Sc, r):
			continue
		}
		return false
	}
	return false
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func b2f(b bool) float64 { return float64(b2i(b)) }
