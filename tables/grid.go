package tables

import "github.com/sluice-project/sluice/page"

// MaxGrid is the largest grid (rows × columns) that Classify, TypeCells
// and Linearize look into; a larger table is treated as layout.
const MaxGrid = 250_000

// grid maps each slot of a table to the cell covering it (-1 for none).
type grid struct {
	rows, cols int
	at         []int32
}

// newGrid returns the slot map of t, or false when t is empty or larger
// than MaxGrid.
func newGrid(t *page.Table) (grid, bool) {
	r, c := int(t.Rows), int(t.Cols)
	if r <= 0 || c <= 0 || r*c > MaxGrid {
		return grid{}, false
	}
	g := grid{rows: r, cols: c, at: make([]int32, r*c)}
	for i := range g.at {
		g.at[i] = -1
	}
	for i, cl := range t.Cells {
		for y := cl.Row; y < cl.Row+cl.RowSpan && int(y) < r; y++ {
			for x := cl.Col; x < cl.Col+cl.ColSpan && int(x) < c; x++ {
				g.at[int(y)*c+int(x)] = int32(i)
			}
		}
	}
	return g, true
}

// cell returns the index of the cell at row y, column x, or -1.
func (g grid) cell(y, x int) int32 {
	if y < 0 || x < 0 || y >= g.rows || x >= g.cols {
		return -1
	}
	return g.at[y*g.cols+x]
}
