package tables

import (
	"slices"
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
	// Caption is the kept text of the table's caption ("" when the cleaner
	// dropped it or there is none).
	Caption string
	g       grid
}

// At returns the index in Table.Cells of the cell covering row y, column
// x of the grid, or -1 for an empty slot or one outside the grid.
func (v *View) At(y, x int) int { return int(v.g.cell(y, x)) }

// Clauses returns the table's data rows linearised from the kept text
// (LinearizeTexts), with the grid row of each clause.
func (v *View) Clauses() ([]string, []int) {
	t := *v.Table
	t.Caption = v.Caption
	return LinearizeTexts(&t, v.Roles, v.Texts)
}

// Views returns the data tables of labelled page p that are written as
// tables, in page order, and, when there is any, the owner of each block:
// owner[b] is the index in the views of the table whose cell holds block
// b, or -1. The blocks of the table's caption (the blocks just before its
// first cell that are inside the table element) belong to it too.
//
// The rule: a leaf table is written as a table when Classify says it holds
// data, TypeCells types it (its grid fits MaxGrid), and the cleaner kept a
// block in at least two of its non-empty cells and in at least half of
// them. Any other table, and any table whose cells are mostly dropped, is
// left to be read as ordinary blocks.
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
		v.Caption = ownCaption(p, t, owner, int32(len(views)))
		views = append(views, v)
	}
	return views, owner
}

// ownCaption gives the blocks of table t before its first cell that are
// inside the table element (its caption's) to owner o, and returns their
// kept text.
func ownCaption(p *page.Page, t *page.Table, owner []int32, o int32) string {
	first := int32(len(p.Blocks))
	for ci := range t.Cells {
		first = min(first, max(t.Cells[ci].First, 0))
	}
	if len(t.Cells) == 0 || t.Caption == "" {
		return ""
	}
	var parts []string
	for b := int(first) - 1; b >= 0 && owner[b] < 0 && inside(p, p.Blocks[b].Node, t.Node); b-- {
		owner[b] = o
		if bl := &p.Blocks[b]; bl.Label.Kept() {
			parts = append(parts, strings.Join(strings.Fields(bl.Text), " "))
		}
	}
	slices.Reverse(parts)
	return strings.Join(parts, " ")
}

// inside reports whether node n is below node anc.
func inside(p *page.Page, n, anc int32) bool {
	in := false
	p.Ancestors(n, func(i int32, _ *page.Node) bool {
		in = i == anc
		return !in
	})
	return in
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

// DropData labels page.Other every block of p's data tables that Views
// would write as tables (sluice clean --no-tables, as trafilatura's
// option leaves tables out), and returns how many blocks it dropped.
// Layout tables and their text are left alone.
func DropData(p *page.Page) int {
	_, owner := Views(p)
	n := 0
	for b, t := range owner {
		if t >= 0 && p.Blocks[b].Label.Kept() {
			p.Blocks[b].Label = page.Other
			n++
		}
	}
	return n
}
