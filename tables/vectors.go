package tables

import "github.com/sluice-project/sluice/page"

// TableColumns names the columns of the rows Vector writes, in order: the
// input of the trained table classifier.
var TableColumns = []string{
	"rows", "cols", "cells", "empty", "empty_row_max", "empty_col_max",
	"empty_rows", "empty_cols", "mean_chars", "length_cv", "col_length_cv",
	"numeric", "links", "blocks", "merged", "th", "scope", "thead",
	"caption", "summary", "forms", "tags_per_cell", "nested", "fits",
	"heuristic_score",
}

// Vector appends the features as one row of len(TableColumns) values.
func (f Features) Vector(dst []float32) []float32 {
	tagsPerCell := 0.0
	if f.Cells > 0 {
		tagsPerCell = float64(f.Tags) / float64(f.Cells)
	}
	return append(dst,
		float32(f.Rows), float32(f.Cols), float32(f.Cells), float32(f.Empty),
		float32(f.EmptyRowMax), float32(f.EmptyColMax), float32(f.EmptyRows),
		float32(f.EmptyCols), float32(f.MeanChars), float32(f.LengthCV),
		float32(f.ColLengthCV), float32(f.Numeric), float32(f.Links),
		float32(f.Blocks), float32(f.Merged), float32(f.TH), float32(f.Scope),
		b2f32(f.THead), b2f32(f.Caption), b2f32(f.Summary), float32(f.Forms),
		float32(tagsPerCell), float32(f.Nested), b2f32(f.Fits),
		float32(DataScore(f)))
}

// CellColumns names the columns of the rows CellVectors writes, in order:
// the input of the trained cell classifier. The heuristic's role is one of
// them (one column per role), so the trees learn where it goes wrong.
var CellColumns = []string{
	"row", "col", "row_span", "col_span", "chars", "blocks", "numeric",
	"links", "th", "head", "scope", "row_merged", "col_merged", "row_empty",
	"col_empty", "row_index", "col_index", "rows_below", "wide",
	"row_header_share", "col_numeric_share", "repeats_first_row",
	"table_rows", "table_cols",
	"h_neutral", "h_data", "h_header", "h_thema", "h_final_important",
	"h_final_non_important",
}

// CellVectors returns one row of len(CellColumns) values per cell of t, in
// the order of t.Cells, or nil when the grid is empty or larger than
// MaxGrid.
func CellVectors(p *page.Page, t *page.Table) []float32 {
	fs := MeasureCells(p, t)
	g, ok := newGrid(t)
	if fs == nil || !ok {
		return nil
	}
	h := HeuristicCells(p, t)
	rowHead, colNum := make([]float32, g.rows), make([]float32, g.cols)
	firstRow := make([]string, g.cols)
	for i := range t.Cells {
		c := &t.Cells[i]
		if c.TH || c.Head || c.Scope {
			rowHead[c.Row]++
		}
		if c.Chars > 0 && numeric(cellText(p, c)) {
			colNum[c.Col]++
		}
		if c.Row == 0 {
			firstRow[c.Col] = cellText(p, c)
		}
	}
	x := make([]float32, 0, len(t.Cells)*len(CellColumns))
	for i := range t.Cells {
		c, f := &t.Cells[i], &fs[i]
		repeats := c.Row > 0 && c.Chars > 0 && cellText(p, c) == firstRow[c.Col]
		x = append(x,
			float32(f.Row), float32(f.Col), float32(f.RowSpan), float32(f.ColSpan),
			float32(f.Chars), float32(f.Blocks), b2f32(f.Numeric), float32(f.Links),
			b2f32(f.TH), b2f32(f.Head), b2f32(f.Scope), float32(f.RowMerged),
			float32(f.ColMerged), float32(f.RowEmpty), float32(f.ColEmpty),
			float32(c.Row), float32(c.Col), float32(g.rows-int(c.Row+c.RowSpan)),
			b2f32(int(c.ColSpan)*2 >= g.cols && g.cols > 1),
			rowHead[c.Row]/float32(g.cols), colNum[c.Col]/float32(g.rows),
			b2f32(repeats), float32(g.rows), float32(g.cols))
		for r := range Role(len(roleNames)) {
			x = append(x, b2f32(h[i] == r))
		}
	}
	return x
}

func b2f32(b bool) float32 {
	if b {
		return 1
	}
	return 0
}
