package tables

import "github.com/sluice-project/sluice/page"

// Kind says what a leaf table is for.
type Kind uint8

const (
	// Layout tables place blocks on the page; they are read as ordinary
	// blocks.
	Layout Kind = iota
	// Data tables hold values to be read with their headers.
	Data
)

// String returns "layout" or "data".
func (k Kind) String() string {
	if k == Data {
		return "data"
	}
	return "layout"
}

// HeuristicKind tells a data table from a layout table by DataScore, the
// fallback when no trained model is given.
func HeuristicKind(p *page.Page, t *page.Table) Kind {
	if DataScore(Measure(p, t)) > 0 {
		return Data
	}
	return Layout
}

// DataScore is the heuristic's evidence that a table with features f holds
// data: positive for data, negative or zero for layout.
//
// Vetoes first: a table needs two rows and two columns, a grid that fits,
// no form controls, and cells that are not paragraphs (mean under 120
// characters, under two blocks each). Then markup evidence (th, thead,
// scope, caption, summary) counts for data, as do numbers and cells of
// consistent length down the columns; empty rows and columns, links and
// many tags per cell count for layout.
func DataScore(f Features) float64 {
	if f.Rows < 2 || f.Cols < 2 || !f.Fits || f.Forms > 0 ||
		f.MeanChars > 120 || f.Blocks >= 2 || f.Links > 0.5 {
		return -1
	}
	s := -0.5
	if f.TH > 0 || f.THead || f.Scope > 0 {
		s += 1
	}
	if f.Caption {
		s += 0.75
	}
	if f.Summary {
		s += 0.25
	}
	s += f.Numeric
	if f.ColLengthCV < 0.5 {
		s += 0.5
	}
	if f.Rows >= 3 && f.Cols >= 3 {
		s += 0.25
	}
	s -= 1.5 * (f.EmptyRows + f.EmptyCols)
	s -= f.Empty
	s -= f.Links
	if f.Cells > 0 && float64(f.Tags)/float64(f.Cells) > 4 {
		s -= 0.5
	}
	return s
}
