package render

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/tables"
)

// Tables says how a renderer writes the data tables of a page: the leaf
// tables that tables.Classify says hold data and whose non-empty cells the
// cleaner mostly kept (the rule is tables.Views'). Layout tables, and data
// tables whose cells were mostly dropped, are always written as ordinary
// blocks. Only kept blocks are written: a dropped cell of a data table
// written as a table is an empty cell.
type Tables uint8

const (
	// TablesDefault is each format's own default: blocks for cleaneval and
	// text (the output the benchmarks score), a grid for markdown, html
	// and json, clauses for parser.
	TablesDefault Tables = iota
	// TablesBlocks writes each kept cell as an ordinary segment, as if the
	// table were not there.
	TablesBlocks
	// TablesLinear writes one clause per data row, with its headers
	// (tables.LinearizeTexts, Kitten's "thema ;; header ; data / ..."),
	// each clause a paragraph (a line in the parser format).
	TablesLinear
	// TablesGrid writes the table as the format's table: a GFM pipe table
	// in markdown, a <table> in html, a "tables" entry with the cells and
	// their roles in json. Formats without tables (cleaneval, text,
	// parser) write clauses as TablesLinear does.
	TablesGrid
)

var tablesNames = [...]string{"default", "blocks", "linear", "grid"}

// String returns the mode's name, as ParseTables reads it.
func (t Tables) String() string {
	if int(t) < len(tablesNames) {
		return tablesNames[t]
	}
	return fmt.Sprintf("Tables(%d)", t)
}

// ParseTables reads a table mode by name: "default" (or ""), "blocks",
// "linear" or "grid".
func ParseTables(s string) (Tables, error) {
	n := strings.ToLower(strings.TrimSpace(s))
	if n == "" {
		return TablesDefault, nil
	}
	for i, name := range tablesNames {
		if n == name {
			return Tables(i), nil
		}
	}
	return 0, fmt.Errorf("render: unknown table mode %q: want default, blocks, linear or grid", s)
}

// MarshalText returns the mode's name.
func (t Tables) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText reads a mode's name, as ParseTables does.
func (t *Tables) UnmarshalText(b []byte) error {
	v, err := ParseTables(string(b))
	if err == nil {
		*t = v
	}
	return err
}

// Set reads a mode's name, as ParseTables does: *Tables is a flag.Value.
func (t *Tables) Set(s string) error { return t.UnmarshalText([]byte(s)) }

// or returns t, or def for TablesDefault.
func (t Tables) or(def Tables) Tables {
	if t == TablesDefault {
		return def
	}
	return t
}

// flow is a page's segments with its data tables placed among them.
type flow struct {
	segs  []Segment
	marks []tableAt // in order of at
	views []tables.View
}

// pageFlow returns the flow of p for table mode m (TablesDefault is
// TablesBlocks). In linear mode the tables' clauses are segments and
// there are no marks.
func pageFlow(p *page.Page, m Tables) flow {
	if m <= TablesBlocks || len(p.Tables) == 0 {
		return flow{segs: Segments(p)}
	}
	views, owner := tables.Views(p)
	if len(views) == 0 {
		return flow{segs: Segments(p)}
	}
	segs, marks := segmentsAround(p, owner, len(views))
	f := flow{segs: segs, marks: marks, views: views}
	if m == TablesLinear {
		f.segs, f.marks = f.linear(p), nil
	}
	return f
}

// textSegments returns the segments of p for a format with no table
// construct: in TablesGrid mode, as in TablesLinear.
func textSegments(p *page.Page, m Tables) []Segment {
	if m == TablesGrid {
		m = TablesLinear
	}
	return pageFlow(p, m).segs
}

// linear returns the segments with the clauses of each table in its
// place.
func (f *flow) linear(p *page.Page) []Segment {
	if len(f.marks) == 0 {
		return f.segs
	}
	out := make([]Segment, 0, len(f.segs)+len(f.marks))
	k := 0
	for _, m := range f.marks {
		out = append(out, f.segs[k:m.at]...)
		k = m.at
		out = appendClauses(out, p, &f.views[m.tab])
	}
	return append(out, f.segs[k:]...)
}

// appendClauses appends the clauses of table v as paragraph segments,
// each with the kept blocks of the cells starting in its row.
func appendClauses(out []Segment, p *page.Page, v *tables.View) []Segment {
	clauses, rows := v.Clauses()
	if len(clauses) == 0 {
		return out
	}
	// The cells by top-left row: byRow[start[y]:start[y+1]].
	t := v.Table
	start := make([]int32, t.Rows+2)
	for ci := range t.Cells {
		if r := t.Cells[ci].Row; r >= 0 && r < t.Rows {
			start[r+1]++
		}
	}
	for y := 1; y < len(start); y++ {
		start[y] += start[y-1]
	}
	byRow := make([]int32, len(t.Cells))
	next := slices.Clone(start)
	for ci := range t.Cells {
		if r := t.Cells[ci].Row; r >= 0 && r < t.Rows {
			byRow[next[r]] = int32(ci)
			next[r]++
		}
	}
	for k, c := range clauses {
		var blocks []int
		for _, ci := range byRow[start[rows[k]]:start[rows[k]+1]] {
			cl := &t.Cells[ci]
			for b := max(cl.First, 0); b < cl.End && int(b) < len(p.Blocks); b++ {
				if p.Blocks[b].Label.Kept() {
					blocks = append(blocks, int(b))
				}
			}
		}
		out = append(out, Segment{Label: page.Paragraph, Text: c, Blocks: blocks})
	}
	return out
}

// tablesAt calls tab for each data table placed before segment k, from
// mark *m on, and advances *m past them. It reports whether it called tab.
func (f *flow) tablesAt(k int, m *int, tab func(v *tables.View)) bool {
	called := false
	for ; *m < len(f.marks) && f.marks[*m].at <= k; *m++ {
		tab(&f.views[f.marks[*m].tab])
		called = true
	}
	return called
}

// runEnd returns the end of the run of segments from k for which same
// holds, stopping at the place of the next table (mark m on).
func (f *flow) runEnd(k, m int, same func(s *Segment) bool) int {
	stop := len(f.segs)
	if m < len(f.marks) {
		stop = f.marks[m].at
	}
	end := k + 1
	for end < stop && same(&f.segs[end]) {
		end++
	}
	return end
}

// headerRow returns the first row of v below its thema rows whose cells
// are all headers (or empty), or -1 when there is none: the row a grid
// format writes as its header.
func headerRow(v *tables.View) int {
	t := v.Table
	for y := 0; y < int(t.Rows); y++ {
		heads, other := 0, 0
		for x := 0; x < int(t.Cols); x++ {
			i := v.At(y, x)
			if i < 0 {
				continue
			}
			switch v.Roles[i] {
			case tables.Header:
				heads++
			case tables.Neutral:
			default:
				other++
			}
		}
		switch {
		case other == 0 && heads > 0:
			return y
		case other > 0 && !themaRow(v, y):
			return -1
		}
	}
	return -1
}

// themaRow reports whether every cell covering row y of v is a thema, a
// finalImportant cell or empty: a row the grid formats write as a
// paragraph outside the table (markdown) or leave out of the header
// search.
func themaRow(v *tables.View, y int) bool {
	for x := 0; x < int(v.Table.Cols); x++ {
		if i := v.At(y, x); i >= 0 {
			switch v.Roles[i] {
			case tables.Thema, tables.FinalImportant, tables.Neutral:
			default:
				return false
			}
		}
	}
	return true
}

// themaText returns the caption and the texts of the cells of role r of
// v (the caption only for Thema), joined by spaces.
func themaText(v *tables.View, r tables.Role) string {
	var parts []string
	if r == tables.Thema && v.Caption != "" {
		parts = append(parts, v.Caption)
	}
	for i, ro := range v.Roles {
		if ro == r && v.Texts[i] != "" {
			parts = append(parts, v.Texts[i])
		}
	}
	return strings.Join(parts, " ")
}
