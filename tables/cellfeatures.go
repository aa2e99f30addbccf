package tables

import "github.com/sluice-project/sluice/page"

// CellFeatures are the measures of one cell that Kitten's cell classifier
// reads (Wang & Hu's, plus the cell's height and length, the rate of
// merged cells on its row and column, and its line breaks), for the
// trained cell classifier to come.
type CellFeatures struct {
	// Row and Col are the cell's position as a share of the grid (0 at the
	// top or left, 1 at the bottom or right); RowSpan and ColSpan its spans.
	Row, Col         float64
	RowSpan, ColSpan int
	// Chars is its text length, Blocks its blocks (lines) and Numeric
	// whether its text starts with a number; Links the share of its text
	// inside links.
	Chars, Blocks int
	Numeric       bool
	Links         float64
	// TH, Head and Scope are the markup evidence.
	TH, Head, Scope bool
	// RowMerged and ColMerged are the shares of the cells of its first row
	// and first column that span more than one slot; RowEmpty and ColEmpty
	// the shares of the slots of its row and column with no text.
	RowMerged, ColMerged, RowEmpty, ColEmpty float64
}

// MeasureCells returns the features of every cell of table t, or nil when
// its grid is empty or larger than MaxGrid.
func MeasureCells(p *page.Page, t *page.Table) []CellFeatures {
	g, ok := newGrid(t)
	if !ok {
		return nil
	}
	rowMerged, rowEmpty := make([]float64, g.rows), make([]float64, g.rows)
	colMerged, colEmpty := make([]float64, g.cols), make([]float64, g.cols)
	for y := range g.rows {
		for x := range g.cols {
			i := g.cell(y, x)
			if i < 0 || t.Cells[i].Chars == 0 {
				rowEmpty[y]++
				colEmpty[x]++
				continue
			}
			if c := &t.Cells[i]; c.RowSpan > 1 || c.ColSpan > 1 {
				rowMerged[y]++
				colMerged[x]++
			}
		}
	}
	out := make([]CellFeatures, len(t.Cells))
	for i := range t.Cells {
		c := &t.Cells[i]
		f := &out[i]
		f.Row, f.Col = share(int(c.Row), g.rows-1), share(int(c.Col), g.cols-1)
		f.RowSpan, f.ColSpan = int(c.RowSpan), int(c.ColSpan)
		f.Chars, f.Blocks = int(c.Chars), int(c.End-c.First)
		f.TH, f.Head, f.Scope = c.TH, c.Head, c.Scope
		if c.Chars > 0 {
			f.Numeric = numeric(cellText(p, c))
			var links int
			for b := c.First; b < c.End && int(b) < len(p.Blocks); b++ {
				links += int(p.Blocks[b].LinkChars)
			}
			f.Links = float64(links) / float64(c.Chars)
		}
		f.RowMerged, f.RowEmpty = rowMerged[c.Row]/float64(g.cols), rowEmpty[c.Row]/float64(g.cols)
		f.ColMerged, f.ColEmpty = colMerged[c.Col]/float64(g.rows), colEmpty[c.Col]/float64(g.rows)
	}
	return out
}

// share returns i/n, 0 when n is 0.
func share(i, n int) float64 {
	if n <= 0 {
		return 0
	}
	return float64(i) / float64(n)
}
