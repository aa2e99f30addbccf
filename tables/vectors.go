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
	"empty", "col_heading", "corner_empty", "col_th_share", "col_distinct",
	"col_chars_ratio", "row_numeric_share", "row_h_header_share",
	"col_h_header_share",
	"h_neutral", "h_data", "h_header", "h_thema", "h_final_important",
	"h_final_non_important",
}

// CellColumn returns the index of the column named name in CellColumns,
// or -1.
func CellColumn(name string) int {
	for i, c := range CellColumns {
		if c == name {
			return i
		}
	}
	return -1
}

// CellVectors returns one row of len(CellColumns) values per cell of t, in
// the order of t.Cells, or nil when the grid is empty or larger than
// MaxGrid.
func CellVectors(p *page.Page, t *page.Table) []float32 {
	v := newVectorizer(p, t)
	if v == nil {
		return nil
	}
	x := make([]float32, 0, len(t.Cells)*len(CellColumns))
	for i := range t.Cells {
		x = v.row(x, i)
	}
	return x
}

// vectorizer writes the CellVectors row of one cell at a time, so that the
// model needs one row of scratch, not the whole table's.
type vectorizer struct {
	t  *page.Table
	g  grid
	fs []CellFeatures
	h  []Role // the heuristic's roles
	a  *axes
}

// newVectorizer measures table t of page p, or returns nil when its grid
// is empty or larger than MaxGrid.
func newVectorizer(p *page.Page, t *page.Table) *vectorizer {
	fs := MeasureCells(p, t)
	g, ok := newGrid(t)
	if fs == nil || !ok {
		return nil
	}
	h := HeuristicCells(p, t)
	return &vectorizer{t: t, g: g, fs: fs, h: h, a: newAxes(p, t, g, h)}
}

// row appends the values of cell i to x.
func (v *vectorizer) row(x []float32, i int) []float32 {
	c, f, g, a := &v.t.Cells[i], &v.fs[i], v.g, v.a
	repeats := c.Row > 0 && c.Chars > 0 && a.text[i] == a.firstRow[c.Col]
	x = append(x,
		float32(f.Row), float32(f.Col), float32(f.RowSpan), float32(f.ColSpan),
		float32(f.Chars), float32(f.Blocks), b2f32(f.Numeric), float32(f.Links),
		b2f32(f.TH), b2f32(f.Head), b2f32(f.Scope), float32(f.RowMerged),
		float32(f.ColMerged), float32(f.RowEmpty), float32(f.ColEmpty),
		float32(c.Row), float32(c.Col), float32(g.rows-int(c.Row+c.RowSpan)),
		b2f32(int(c.ColSpan)*2 >= g.cols && g.cols > 1),
		a.rowHead[c.Row]/float32(g.cols), a.colNum[c.Col]/float32(g.rows),
		b2f32(repeats), float32(g.rows), float32(g.cols))
	x = a.cellContext(x, i, c)
	for r := range Role(len(roleNames)) {
		x = append(x, b2f32(v.h[i] == r))
	}
	return x
}

// axes are the per-row and per-column measures CellVectors reads.
type axes struct {
	t                           *page.Table
	g                           grid
	text, firstRow              []string
	rowHead, colNum, colTH      []float32
	rowNum, rowHH, colHH        []float32
	colN, colChars, colDistinct []float32
	meanChars                   float32
	cornerEmpty                 bool
}

// newAxes measures the rows and columns of t, whose heuristic roles are h.
func newAxes(p *page.Page, t *page.Table, g grid, h []Role) *axes {
	a := &axes{t: t, g: g, text: make([]string, len(t.Cells)), firstRow: make([]string, g.cols)}
	a.rowHead, a.rowNum, a.rowHH = make([]float32, g.rows), make([]float32, g.rows), make([]float32, g.rows)
	a.colNum, a.colTH, a.colHH = make([]float32, g.cols), make([]float32, g.cols), make([]float32, g.cols)
	a.colN, a.colChars, a.colDistinct = make([]float32, g.cols), make([]float32, g.cols), make([]float32, g.cols)
	seen := make([]map[string]bool, g.cols)
	var chars, n float32
	for i := range t.Cells {
		c := &t.Cells[i]
		a.text[i] = cellText(p, c)
		if c.TH || c.Head || c.Scope {
			a.rowHead[c.Row]++
		}
		a.colTH[c.Col] += b2f32(c.TH)
		a.rowHH[c.Row] += b2f32(h[i] == Header)
		a.colHH[c.Col] += b2f32(h[i] == Header)
		if c.Row == 0 {
			a.firstRow[c.Col] = a.text[i]
		}
		if c.Chars == 0 {
			continue
		}
		num := numeric(a.text[i])
		a.colNum[c.Col] += b2f32(num)
		a.rowNum[c.Row] += b2f32(num)
		a.colN[c.Col]++
		a.colChars[c.Col] += float32(c.Chars)
		chars, n = chars+float32(c.Chars), n+1
		if seen[c.Col] == nil {
			seen[c.Col] = map[string]bool{}
		}
		if !seen[c.Col][a.text[i]] {
			seen[c.Col][a.text[i]] = true
			a.colDistinct[c.Col]++
		}
	}
	if n > 0 {
		a.meanChars = chars / n
	}
	k := g.cell(0, 0)
	a.cornerEmpty = k < 0 || t.Cells[k].Chars == 0
	return a
}

// cellContext appends the context columns of cell i (c): its own
// emptiness, its column's heading and make-up, and its row's.
func (a *axes) cellContext(x []float32, i int, c *page.Cell) []float32 {
	heading := false
	if k := a.g.cell(0, int(c.Col)); k >= 0 && int(k) != i {
		hc := &a.t.Cells[k]
		heading = hc.Chars > 0 && (hc.TH || hc.Head || a.colN[c.Col] > 0 && !numeric(a.text[k]))
	}
	rows, cols := float32(a.g.rows), float32(a.g.cols)
	var ratio, distinct float32
	if n := a.colN[c.Col]; n > 0 {
		distinct = a.colDistinct[c.Col] / n
		if a.meanChars > 0 {
			ratio = a.colChars[c.Col] / n / a.meanChars
		}
	}
	return append(x, b2f32(c.Chars == 0), b2f32(heading), b2f32(a.cornerEmpty),
		a.colTH[c.Col]/rows, distinct, ratio, a.rowNum[c.Row]/cols,
		a.rowHH[c.Row]/cols, a.colHH[c.Col]/rows)
}

func b2f32(b bool) float32 {
	if b {
		return 1
	}
	return 0
}
