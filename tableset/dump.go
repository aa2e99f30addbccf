package tableset

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/tables"
)

// DumpOptions set how much of a table Dump prints. Zero fields take the
// defaults.
type DumpOptions struct {
	// Rows and Cols clip the grid (defaults 25 and 10); Chars clips each
	// cell's text (default 50) and Context each line of the text around
	// the table (default 160).
	Rows, Cols, Chars, Context int
	// Cells adds, for tables labelled data, their cells pre-labelled by
	// the heuristic, in the cells file's format.
	Cells bool
}

func (o *DumpOptions) defaults() {
	o.Rows = cmpOr(o.Rows, 25)
	o.Cols = cmpOr(o.Cols, 10)
	o.Chars = cmpOr(o.Chars, 50)
	o.Context = cmpOr(o.Context, 160)
}

func cmpOr(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}

// Dump prints table ex for a reader who labels it, without the heuristic's
// guess: a header line with the table's number k (its line among the
// table lines of the file, from 1), reference, size and markup, the text
// before it on the page, its grid row by row (each cell as [row,col], its
// markup and its text, clipped), and the text after it.
func Dump(w io.Writer, k int, ex *Example, o DumpOptions) {
	o.defaults()
	t := ex.Table
	fmt.Fprintf(w, "== #%d %s/%s table %d (%d rows × %d cols, nested %d, forms %d, thead %s, caption %q, summary %q)\n",
		k, ex.Set, ex.Ref.Page, ex.Ref.Table, t.Rows, t.Cols, t.Nested, t.Forms, yesNo(t.THead),
		clip(t.Caption, o.Chars), clip(t.Summary, o.Chars))
	if ex.Label != LabelUnknown {
		fmt.Fprintf(w, "   labelled: %s\n", ex.Label)
	}
	if m := ex.Page.Meta; m.Title != "" || m.URL != "" {
		fmt.Fprintf(w, "   page:   %s\n", strings.TrimSpace(clip(m.Title, o.Context/2)+" "+m.URL))
	}
	first, end := tableBlocks(ex.Page, t)
	fmt.Fprintf(w, "   before: %s\n", around(ex.Page, first-2, first, o.Context))
	dumpGrid(w, ex.Page, t, o)
	fmt.Fprintf(w, "   after:  %s\n", around(ex.Page, end, end+2, o.Context))
	if o.Cells && ex.Label == LabelData {
		dumpCells(w, ex)
	}
	fmt.Fprintln(w)
}

// dumpGrid prints the rows of t, clipped to o.Rows and o.Cols.
func dumpGrid(w io.Writer, p *page.Page, t *page.Table, o DumpOptions) {
	rows := make([][]*page.Cell, min(int(t.Rows), o.Rows))
	hidden := 0
	for i := range t.Cells {
		c := &t.Cells[i]
		if int(c.Row) >= len(rows) || int(c.Col) >= o.Cols {
			hidden++
			continue
		}
		rows[c.Row] = append(rows[c.Row], c)
	}
	for y, row := range rows {
		var parts []string
		for _, c := range row {
			parts = append(parts, cellString(p, c, o.Chars))
		}
		if len(parts) == 0 {
			parts = append(parts, "(no cell starts in this row)")
		}
		fmt.Fprintf(w, "   r%-3d %s\n", y, strings.Join(parts, " | "))
	}
	if hidden > 0 || t.Truncated {
		msg := fmt.Sprintf("   … clipped: %d of %d cells not shown", hidden, len(t.Cells))
		if int(t.Rows) > o.Rows {
			msg += fmt.Sprintf(", rows %d to %d", o.Rows, t.Rows-1)
		}
		if int(t.Cols) > o.Cols {
			msg += fmt.Sprintf(", cols %d to %d", o.Cols, t.Cols-1)
		}
		if t.Truncated {
			msg += " (and segmentation dropped cells beyond its bounds)"
		}
		fmt.Fprintln(w, msg)
	}
}

// cellString is one cell of the grid: "[r,c]", its markup and its text.
func cellString(p *page.Page, c *page.Cell, chars int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[%d,%d]", c.Row, c.Col)
	var marks []string
	if c.TH {
		marks = append(marks, "th")
	}
	if c.Head {
		marks = append(marks, "thead")
	}
	if c.Scope {
		marks = append(marks, "scope")
	}
	if c.ColSpan > 1 {
		marks = append(marks, fmt.Sprintf("colspan=%d", c.ColSpan))
	}
	if c.RowSpan > 1 {
		marks = append(marks, fmt.Sprintf("rowspan=%d", c.RowSpan))
	}
	if len(marks) > 0 {
		b.WriteString("{" + strings.Join(marks, " ") + "}")
	}
	text := cellText(p, c)
	if text == "" {
		b.WriteString(" ∅")
		return b.String()
	}
	fmt.Fprintf(&b, " %s", clip(text, chars))
	return b.String()
}

// dumpCells prints the cells of a data table in the cells file's format,
// with the heuristic's roles as pre-labels.
func dumpCells(w io.Writer, ex *Example) {
	roles := tables.TypeCells(ex.Page, ex.Table)
	fmt.Fprintf(w, "# PRE-LABELS from the heuristic (tables.TypeCells), NOT checked: check every role against the grid above,\n")
	fmt.Fprintf(w, "# correct it in place and copy the lines into the cells file (roles: %s)\n", roleList())
	for i, c := range ex.Table.Cells {
		role := tables.Neutral
		if i < len(roles) {
			role = roles[i]
		}
		writeCell(w, CellLabel{Ref: ex.Ref, Row: int(c.Row), Col: int(c.Col), Role: role})
	}
}

// tableBlocks returns the range of blocks of table t.
func tableBlocks(p *page.Page, t *page.Table) (first, end int) {
	if n := int(t.Node); n >= 0 && n < len(p.Nodes) {
		return int(p.Nodes[n].First), int(p.Nodes[n].End)
	}
	first, end = len(p.Blocks), 0
	for _, c := range t.Cells {
		if c.End > c.First {
			first, end = min(first, int(c.First)), max(end, int(c.End))
		}
	}
	return min(first, end), end
}

// around returns the texts of blocks [from, to) joined by " / ", each
// clipped, or "(nothing)".
func around(p *page.Page, from, to, chars int) string {
	var parts []string
	for b := max(from, 0); b < to && b < len(p.Blocks); b++ {
		parts = append(parts, clip(p.Blocks[b].Text, chars))
	}
	if len(parts) == 0 {
		return "(nothing)"
	}
	return strings.Join(parts, " / ")
}

// cellText is the text of cell c: its blocks' texts joined by " ⏎ ".
func cellText(p *page.Page, c *page.Cell) string {
	var parts []string
	for b := c.First; b < c.End && int(b) < len(p.Blocks); b++ {
		parts = append(parts, p.Blocks[b].Text)
	}
	return strings.Join(parts, " ⏎ ")
}

// clip shortens s to n runes, marking the cut with "…", tabs made spaces.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		s = string(r[:n]) + "…"
	}
	return strings.ReplaceAll(s, "\t", " ")
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// DumpFile dumps count tables (all when count ≤ 0) of the tables file,
// from the from-th table line (from 1), with the cells of cellsFile when
// given. A reference that does not resolve is reported in the dump and
// the error counts them.
func DumpFile(ctx context.Context, src *Source, w io.Writer, tablesFile, cellsFile string, from, count int, o DumpOptions) error {
	ls, err := ReadTables(tablesFile)
	if err != nil {
		return err
	}
	var cells []CellLabel
	if cellsFile != "" {
		if cells, err = ReadCells(cellsFile); err != nil {
			return err
		}
	}
	from = max(from, 1)
	if from > len(ls) {
		return fmt.Errorf("%s has %d tables, none from #%d", tablesFile, len(ls), from)
	}
	ls = ls[from-1:]
	if count > 0 && count < len(ls) {
		ls = ls[:count]
	}
	bad := 0
	err = src.Resolve(ctx, tablesFile, ls, cells, func(i int, ex *Example, err error) bool {
		if err != nil {
			fmt.Fprintf(w, "== #%d %s: %v\n\n", from+i, ls[i].Ref, err)
			bad++
			return true
		}
		Dump(w, from+i, ex, o)
		return true
	})
	if err == nil && bad > 0 {
		err = fmt.Errorf("%d references in %s do not resolve (run sluice tables check)", bad, tablesFile)
	}
	return err
}
