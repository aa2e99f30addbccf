package segment

import (
	"strconv"
	"strings"

	"golang.org/x/net/html/atom"

	"github.com/sluice-project/sluice/dom"
	"github.com/sluice-project/sluice/page"
)

// tableState is a table being recorded: its grid so far and the cursor of
// the HTML table model (rows in order, each cell in the first column not
// covered by a rowspan from above).
type tableState struct {
	t       page.Table
	leaf    bool    // no table inside so far
	row     int32   // current row, -1 before the first <tr>
	col     int32   // next column to try in the current row
	until   []int32 // per column, the last row a placed cell covers
	open    int     // index in t.Cells of the open cell, -1 when none
	head    int     // open <thead> elements
	caption int32   // the page node of the open <caption>, -1 when none
}

// tableStart records element n, page node idx, in the grid of the innermost
// open table: a new table, row or cell, or evidence (thead, form controls).
func (b *builder) tableStart(n dom.Node, idx int32) {
	a := n.Atom()
	if a == atom.Table {
		if k := len(b.tables); k > 0 {
			b.tables[k-1].leaf = false
		}
		ts := &tableState{leaf: true, row: -1, open: -1, caption: -1}
		ts.t = page.Table{Node: idx, Summary: b.keep.keep(strings.TrimSpace(attr(n, "summary"))), Nested: int32(len(b.tables))}
		b.tables = append(b.tables, ts)
		return
	}
	if len(b.tables) == 0 {
		return
	}
	ts := b.tables[len(b.tables)-1]
	switch a {
	case atom.Tr:
		ts.row++
		ts.col = 0
	case atom.Td, atom.Th:
		ts.cell(n, idx, b.blocks.len())
	case atom.Thead:
		ts.t.THead = true
		ts.head++
	case atom.Caption:
		if ts.caption < 0 {
			ts.caption = idx
		}
	case atom.Form, atom.Input, atom.Select, atom.Textarea, atom.Button:
		ts.t.Forms++
	}
}

// cell places a td or th element in the grid, with its spans bounded.
func (ts *tableState) cell(n dom.Node, idx, first int32) {
	if ts.row < 0 {
		ts.row = 0 // a cell outside any row: the parser makes rows, but be safe
	}
	for ts.col < int32(len(ts.until)) && ts.until[ts.col] >= ts.row {
		ts.col++
	}
	if ts.col >= page.MaxTableCols || len(ts.t.Cells) >= page.MaxTableCells {
		ts.t.Truncated = true
		return
	}
	cs := span(attr(n, "colspan"), page.MaxColSpan)
	if cs > page.MaxTableCols-ts.col {
		cs = page.MaxTableCols - ts.col
		ts.t.Truncated = true
	}
	rs := span(attr(n, "rowspan"), page.MaxRowSpan)
	for int32(len(ts.until)) < ts.col+cs {
		ts.until = append(ts.until, -1)
	}
	for c := ts.col; c < ts.col+cs; c++ {
		ts.until[c] = ts.row + rs - 1
	}
	ts.open = len(ts.t.Cells)
	ts.t.Cells = append(ts.t.Cells, page.Cell{
		Node: idx, Row: ts.row, Col: ts.col, RowSpan: rs, ColSpan: cs,
		TH: n.Atom() == atom.Th, Head: ts.head > 0, Scope: attr(n, "scope") != "",
		First: first,
	})
	ts.col += cs
}

// span parses a rowspan or colspan value: a positive integer up to max
// (larger ones clipped to max); anything else, 0 (which HTML gives to a
// rowspan reaching the end of its row group) included, counts as 1.
func span(s string, limit int32) int32 {
	s = strings.TrimSpace(s)
	end := 0
	for end < len(s) && end < 12 && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	if end == 0 {
		return 1
	}
	v, err := strconv.ParseInt(s[:end], 10, 64)
	switch {
	case err != nil || v > int64(limit):
		return limit
	case v < 1:
		return 1
	}
	return int32(v)
}

// tableEnd completes the table, cell or caption that element a, page node
// idx, closes; a finished leaf table goes to the page.
func (b *builder) tableEnd(a atom.Atom, idx int32) {
	k := len(b.tables)
	if k == 0 {
		return
	}
	ts := b.tables[k-1]
	nd := b.nodes.at(idx)
	switch a {
	case atom.Td, atom.Th:
		if ts.open >= 0 && ts.t.Cells[ts.open].Node == idx {
			c := &ts.t.Cells[ts.open]
			c.End = max(nd.End, c.First)
			for i := c.First; i < c.End; i++ {
				c.Chars += b.blocks.at(i).Chars
			}
			ts.open = -1
		}
	case atom.Thead:
		ts.head--
	case atom.Caption:
		if ts.caption == idx {
			ts.t.Caption = b.blockText(nd.First, nd.End)
		}
	case atom.Table:
		b.tables[k-1] = nil
		b.tables = b.tables[:k-1]
		if ts.leaf {
			b.p.Tables = append(b.p.Tables, ts.finish())
		}
	}
}

// finish sets the grid's size and clips rowspans to the rows there are.
func (ts *tableState) finish() page.Table {
	t := ts.t
	t.Rows = ts.row + 1
	for i := range t.Cells {
		c := &t.Cells[i]
		c.RowSpan = min(c.RowSpan, t.Rows-c.Row)
		t.Cols = max(t.Cols, c.Col+c.ColSpan)
	}
	if len(t.Cells) == 0 {
		t.Rows = 0
	}
	return t
}

// blockText returns the text of blocks [first, end), joined by spaces.
func (b *builder) blockText(first, end int32) string {
	var sb strings.Builder
	for i := first; i < end && i < b.blocks.len(); i++ {
		if sb.Len() > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(b.blocks.at(i).Text)
	}
	return sb.String()
}
