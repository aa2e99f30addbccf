package tables

import (
	"strings"

	"github.com/sluice-project/sluice/page"
)

// View is a data table of a labelled page as the output formats write it:
// its cells' roles and the text of their kept blocks.
type View struct {
	// Table is the table, Index its index in Page.Tables.
	Table *page.Table
	Index int
	// Roles are the cells' roles (TypeCells), Texts the text of each
	// cell's kept blocks joined by spaces, "" for a cell the cleaner
	// dropped.
	Roles []Role
	Texts []string
	g     grid
}

// At returns the index in Table.Cells of the cell covering row y, column
// x of the grid, or -1 for an empty slot or one outside the grid.
func (v *View) At(y, x int) int { return int(v.g.cell(y, x)) }

// Clauses returns the table's data rows linearised from the kept text
// (LinearizeTexts), with the grid row of each clause.
func (v *View) Clauses() ([]string, []int) { return LinearizeTexts(v.Table, v.Roles, v.Texts) }

// Views returns the data tables of labelled page p that are written as
// tables, in page order, and, when there is any, the owner of each block:
// owner[b] is the index in the views of the table whose cell holds block
// b, or -1.
//
// The rule: a leaf table is written as a table when Classify says it holds
// data, TypeCells types it (its grid fits MaxGrid), and the cleaner kept a
// block in at least two of its non-empty cells and in at least half of
// them. Any other table, and any table whose cells are mostly dropped, is
// left to be read as ordinary blocks. Blocks of the table outside its
// cells (a caption's) have no owner.
func Views(p *page.Page) (views []View, owner []int32) {
	for ti := range p.Tables {
		t := &p.Tables[ti]
		if !mostlyKept(p, t) || Classify(p, t) != Data {
			continue
		}
		roles := TypeCells(p, t)
		g, ok := newGrid(t)
		if roles == nil || !ok {
			continue
		}
		v := View{Table: t, Index: ti, Roles: roles, Texts: make([]string, len(t.Cells)), g: g}
		if owner == nil {
			owner = make([]int32, len(p.Blocks))
			for b := range owner {
				owner[b] = -1
			}
		}
		for ci := range t.Cells {
			c := &t.Cells[ci]
			v.Texts[ci] = keptText(p, c)
			for b := max(c.First, 0); b < c.End && int(b) < len(p.Blocks); b++ {
				owner[b] = int32(len(views))
			}
		}
		views = append(views, v)
	}
	return views, owner
}

// mostlyKept reports whether the cleaner kept a block in at least two of
// the non-empty cells of t and in at least half of them.
func mostlyKept(p *page.Page, t *page.Table) bool {
	full, kept := 0, 0
	for ci := range t.Cells {
		c := &t.Cells[ci]
		if c.Chars == 0 {
			continue
		}
		full++
		for b := max(c.First, 0); b < c.End && int(b) < len(p.Blocks); b++ {
			if p.Blocks[b].Label.Kept() {
				kept++
				break
			}
		}
	}
	return kept >= 2 && 2*kept >= full
}

// keptText returns the text of the kept blocks of cell c joined by single
// spaces, white space runs (line breaks included) made one space.
func keptText(p *page.Page, c *page.Cell) string {
	var sb strings.Builder
	for b := max(c.First, 0); b < c.End && int(b) < len(p.Blocks); b++ {
		bl := &p.Blocks[b]
		if !bl.Label.Kept() {
			continue
		}
		for _, f := range strings.Fields(bl.Text) {
			if sb.Len() > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(f)
		}
	}
	return sb.String()
}
