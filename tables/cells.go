package tables

import (
	"slices"
	"strings"

	"github.com/sluice-project/sluice/page"
)

// Role is what a cell of a data table holds (Kitten, section 3.1.2).
type Role uint8

const (
	// Neutral is an empty cell, there for rendering (not missing data).
	Neutral Role = iota
	// DataCell is a value, read with its headers.
	DataCell
	// Header names the data of its column or row.
	Header
	// Thema is the table's caption or information about all of its data.
	Thema
	// FinalImportant is like Thema but below the data (a legend).
	FinalImportant
	// FinalNonImportant is a header repeated inside the table.
	FinalNonImportant
)

var roleNames = [...]string{"neutral", "data", "header", "thema", "finalImportant", "finalNonImportant"}

// String returns Kitten's name of the role.
func (r Role) String() string {
	if int(r) < len(roleNames) {
		return roleNames[r]
	}
	return "unknown"
}

// HeuristicCells gives each cell of table t a role with the heuristic that
// is the fallback when no trained model is given (and one of the trained
// model's features), then applies Kitten's fix-up rule. It returns nil for a table whose grid
// is empty or larger than MaxGrid.
//
// Empty cells are neutral, but those of the body (not in the first row or
// column, with data cells in their row and their column), which stand for
// a missing value, are data. Rows at the top whose only non-empty cell spans
// half the columns or more, or is text in the first column, are thema, and
// such rows at the bottom finalImportant, when a row of data is left above
// them. th cells, cells in thead and cells with a
// scope are headers; a table without any of these gets its first row as
// headers when that row is not mostly numbers, and its first column as row
// headers when the top-left cell is empty or the first column holds no
// numbers while the others mostly do. A later row repeating the header row
// is finalNonImportant, and so is a later row repeating any row of two or
// more distinct, non-numeric texts, whose first occurrence is then a
// header (a heading row no markup marks). The fix-up: a lone data cell in
// a row of headers is a header.
func HeuristicCells(p *page.Page, t *page.Table) []Role {
	g, ok := newGrid(t)
	if !ok {
		return nil
	}
	c := typer{p: p, t: t, g: g, roles: make([]Role, len(t.Cells))}
	for i := range t.Cells {
		if t.Cells[i].Chars > 0 {
			c.roles[i] = DataCell
		}
	}
	top := c.lone(0, 1, g.rows, Thema)
	bottom := max(c.lone(g.rows-1, -1, top, FinalImportant), top)
	if bottom == top {
		// Every row under the first holds text in its first cell only
		// (the others empty, or ticks drawn as images): these are the
		// table's rows, not a legend under it.
		for y := bottom + 1; y < g.rows; y++ {
			c.setRow(y, DataCell, FinalImportant)
		}
		bottom = g.rows - 1
	}
	c.headers(top, bottom)
	c.repeats(top, bottom)
	c.repeatedRows(top, bottom)
	c.missing()
	c.fixUp()
	return c.roles
}

// repeatedRows finds heading rows that no markup marks: a row of two or
// more distinct, non-numeric texts that a later row repeats exactly (a
// long table that repeats its heading before each group). Its first
// occurrence is header, the repeats finalNonImportant.
func (c *typer) repeatedRows(top, bottom int) {
	first := map[string]int{}
	for y := top; y <= bottom; y++ {
		key, ok := c.rowKey(y)
		if !ok {
			continue
		}
		f, seen := first[key]
		if !seen {
			first[key] = y
			continue
		}
		c.setRow(f, Header, DataCell)
		c.setRow(y, FinalNonImportant, DataCell, Header)
	}
}

// rowKey returns the texts of the non-empty cells of row y joined, and
// whether the row can be a heading: two or more cells, distinct texts,
// none a number.
func (c *typer) rowKey(y int) (string, bool) {
	var texts []string
	for _, i := range c.row(y) {
		if c.t.Cells[i].Chars == 0 {
			continue
		}
		t := cellText(c.p, &c.t.Cells[i])
		if numeric(t) || slices.Contains(texts, t) {
			return "", false
		}
		texts = append(texts, t)
	}
	return strings.Join(texts, "\x00"), len(texts) >= 2
}

// setRow gives role r to the non-empty cells of row y whose role is one of
// from.
func (c *typer) setRow(y int, r Role, from ...Role) {
	for _, i := range c.row(y) {
		if c.t.Cells[i].Chars > 0 && slices.Contains(from, c.roles[i]) {
			c.roles[i] = r
		}
	}
}

// missing makes data the empty cells that stand for a missing value
// rather than for rendering (Kitten's neutral): those outside the first
// row and column with a data cell both in their row and in their column.
func (c *typer) missing() {
	rowData, colData := make([]bool, c.g.rows), make([]bool, c.g.cols)
	for i, r := range c.roles {
		if r == DataCell {
			rowData[c.t.Cells[i].Row], colData[c.t.Cells[i].Col] = true, true
		}
	}
	for i := range c.t.Cells {
		cl := &c.t.Cells[i]
		if cl.Chars == 0 && cl.Row > 0 && cl.Col > 0 && rowData[cl.Row] && colData[cl.Col] {
			c.roles[i] = DataCell
		}
	}
}

// typer holds the state of TypeCells.
type typer struct {
	p     *page.Page
	t     *page.Table
	g     grid
	roles []Role
}

// row returns the indices of the cells whose top-left slot is in row y.
func (c *typer) row(y int) []int32 {
	var out []int32
	for x := 0; x < c.g.cols; x++ {
		if i := c.g.cell(y, x); i >= 0 && int(c.t.Cells[i].Row) == y && int(c.t.Cells[i].Col) == x {
			out = append(out, i)
		}
	}
	return out
}

// lone marks the rows from y in direction dy, up to row stop (excluded),
// whose only non-empty cell is spanning (a title) as role r, and returns the
// first row not so marked.
func (c *typer) lone(y, dy, stop int, r Role) int {
	if c.g.cols < 2 {
		return y
	}
	for ; y >= 0 && y < c.g.rows && y != stop; y += dy {
		var full []int32
		for _, i := range c.row(y) {
			if c.t.Cells[i].Chars > 0 {
				full = append(full, i)
			}
		}
		if len(full) != 1 || !c.spanning(y, full[0]) {
			return y
		}
		c.roles[full[0]] = r
	}
	return y
}

// spanning reports whether cell i, the only non-empty cell of row y, reads
// as a title of the table: it spans half the columns or more, or it is
// text (not a number) in the first column with the rest of the row empty.
func (c *typer) spanning(y int, i int32) bool {
	cl := &c.t.Cells[i]
	if cl.ColSpan*2 >= int32(c.g.cols) {
		return true
	}
	return cl.Col == 0 && c.restEmpty(y, i) && !numeric(cellText(c.p, cl))
}

// restEmpty reports whether every slot of row y outside cell i is empty.
func (c *typer) restEmpty(y int, i int32) bool {
	for x := 0; x < c.g.cols; x++ {
		if j := c.g.cell(y, x); j >= 0 && j != i && c.t.Cells[j].Chars > 0 {
			return false
		}
	}
	return true
}

// headers marks the header cells of rows [top, bottom].
func (c *typer) headers(top, bottom int) {
	markup := false
	for i, cl := range c.t.Cells {
		if c.roles[i] == DataCell && (cl.TH || cl.Head || cl.Scope) {
			c.roles[i] = Header
			markup = true
		}
	}
	if markup || bottom-top < 1 {
		return
	}
	first := c.row(top)
	if c.numericShare(first) < 0.5 {
		for _, i := range first {
			if c.roles[i] == DataCell {
				c.roles[i] = Header
			}
		}
	}
	corner := c.g.cell(top, 0)
	if (corner >= 0 && c.t.Cells[corner].Chars == 0) || c.firstColumnNames(top+1, bottom) {
		for y := top + 1; y <= bottom; y++ {
			if i := c.g.cell(y, 0); i >= 0 && c.roles[i] == DataCell {
				c.roles[i] = Header
			}
		}
	}
}

// firstColumnNames reports whether, in rows [top, bottom], the first column
// holds no numbers while the other columns mostly do.
func (c *typer) firstColumnNames(top, bottom int) bool {
	var names, rest []int32
	for y := top; y <= bottom; y++ {
		for _, i := range c.row(y) {
			if c.t.Cells[i].Col == 0 {
				names = append(names, i)
			} else {
				rest = append(rest, i)
			}
		}
	}
	return len(names) > 0 && c.numericShare(names) == 0 && c.numericShare(rest) >= 0.5
}

// numericShare is the share of the non-empty cells among is that start
// with a number.
func (c *typer) numericShare(is []int32) float64 {
	n, num := 0, 0
	for _, i := range is {
		if c.t.Cells[i].Chars == 0 {
			continue
		}
		n++
		num += b2i(numeric(cellText(c.p, &c.t.Cells[i])))
	}
	if n == 0 {
		return 0
	}
	return float64(num) / float64(n)
}

// repeats marks the rows below the first header row that repeat its text
// as finalNonImportant.
func (c *typer) repeats(top, bottom int) {
	var head []string
	y := top
	for ; y <= bottom && head == nil; y++ {
		head = c.headerTexts(y)
	}
	for ; y <= bottom; y++ {
		cells := c.row(y)
		var texts []string
		for _, i := range cells {
			if c.t.Cells[i].Chars > 0 {
				texts = append(texts, cellText(c.p, &c.t.Cells[i]))
			}
		}
		if !equal(texts, head) {
			continue
		}
		for _, i := range cells {
			if c.t.Cells[i].Chars > 0 {
				c.roles[i] = FinalNonImportant
			}
		}
	}
}

// headerTexts returns the texts of row y's non-empty cells when they are
// all headers (at least two), else nil.
func (c *typer) headerTexts(y int) []string {
	var out []string
	for _, i := range c.row(y) {
		switch c.roles[i] {
		case Header:
			out = append(out, cellText(c.p, &c.t.Cells[i]))
		case Neutral:
		default:
			return nil
		}
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// fixUp applies Kitten's manual rule: a lone data cell in a row whose
// other non-empty cells (at least two) are all headers is a header.
func (c *typer) fixUp() {
	for y := 0; y < c.g.rows; y++ {
		lone, heads := int32(-1), 0
		for _, i := range c.row(y) {
			switch c.roles[i] {
			case Header:
				heads++
			case DataCell:
				if lone >= 0 {
					heads = -1 << 30
				}
				lone = i
			case Neutral:
			default:
				heads = -1 << 30
			}
		}
		if lone >= 0 && heads >= 2 {
			c.roles[lone] = Header
		}
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) || len(a) == 0 {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
