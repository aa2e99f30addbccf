package tables

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/textunit"
)

// Linearize returns the clauses of table t of page p, one per row holding
// data, in Kitten's pattern
//
//	thema ;; finalImportant ;; colHeader ; rowHeader: data / colHeader ; rowHeader: data .
//
// (with "colHeader ; data" and "rowHeader: data" when the cell has only one
// kind of header)
//
// where the thema is the caption and the thema cells, and each data cell
// comes with the headers above it in its column and before it in its row
// (either may be missing); a cell of a bullet or a dash alone
// (textunit.HasWord) is neither. A row none of whose data cells has a
// header, which Kitten's pattern (a header before each data cell) does not
// cover, has no header-data pair to write: it is read as a list of its
// cells, as Kitten reads a list (3.2.3), an enumeration "data, data,
// data." when its median cell is shorter than EnumerateMedian characters
// and its cells come to at most EnumerateWords words, else one sentence a
// cell. It returns nil for a layout table (Classify), which is read as
// ordinary blocks.
func Linearize(p *page.Page, t *page.Table) []string {
	if Classify(p, t) != Data {
		return nil
	}
	return LinearizeRoles(p, t, TypeCells(p, t))
}

// LinearizeRoles is Linearize with the cells' roles given (by TypeCells or
// a trained classifier), for a table already known to hold data.
func LinearizeRoles(p *page.Page, t *page.Table, roles []Role) []string {
	texts := make([]string, len(t.Cells))
	for i := range t.Cells {
		texts[i] = cellText(p, &t.Cells[i])
	}
	out, _ := LinearizeTexts(t, roles, texts)
	return out
}

// LinearizeTexts is LinearizeRoles with the text of each cell given (for
// instance only the text of its blocks a cleaner kept): texts[i] is the
// text of t.Cells[i], and a cell with empty text adds nothing. It also
// returns the grid row of each clause.
func LinearizeTexts(t *page.Table, roles []Role, texts []string) (clauses []string, rows []int) {
	g, ok := newGrid(t)
	if !ok || len(roles) != len(t.Cells) || len(texts) != len(t.Cells) {
		return nil, nil
	}
	var prefix strings.Builder
	for _, r := range [...]Role{Thema, FinalImportant} {
		var parts []string
		if r == Thema && t.Caption != "" {
			parts = append(parts, label(t.Caption))
		}
		for i := range t.Cells {
			if roles[i] == r && textunit.HasWord(texts[i]) {
				parts = append(parts, label(texts[i]))
			}
		}
		if len(parts) > 0 {
			prefix.WriteString(strings.Join(parts, " "))
			prefix.WriteString(" ;; ")
		}
	}
	colHeads := make([][]int32, g.cols)
	for y := 0; y < g.rows; y++ {
		var items []string
		var rowHeads []int32
		headed := false // a data cell of the row has a header
		for x := 0; x < g.cols; x++ {
			i := g.cell(y, x)
			if i < 0 {
				continue
			}
			switch {
			case roles[i] == DataCell && int(t.Cells[i].Row) == y && int(t.Cells[i].Col) == x && textunit.HasWord(texts[i]):
				items = append(items, item(texts, colHeads[x], rowHeads, i))
				headed = headed || len(colHeads[x]) > 0 || len(rowHeads) > 0
			case roles[i] == Header && textunit.HasWord(texts[i]):
				rowHeads = push(rowHeads, i)
				if int(t.Cells[i].Row)+int(t.Cells[i].RowSpan)-1 == y {
					colHeads[x] = push(colHeads[x], i) // heads the rows below
				}
			}
		}
		if len(items) == 0 {
			continue
		}
		clauses = append(clauses, stop(prefix.String()+joinItems(items, headed)))
		rows = append(rows, y)
	}
	return clauses, rows
}

// joinItems joins the items of a row: Kitten's " / " when a data cell has
// a header, else as a list (Enumerate), or one sentence a cell when they
// are too long for one.
func joinItems(items []string, headed bool) string {
	switch {
	case headed || len(items) == 1:
		return strings.Join(items, " / ")
	case Enumerable(items):
		return Enumerate(items)
	}
	for j := range items {
		items[j] = stop(strings.TrimRight(items[j], ",;: "))
	}
	return strings.Join(items, " ")
}

// stop returns s ending in terminal punctuation, a full stop added when it
// has none.
func stop(s string) string {
	if r, _ := utf8.DecodeLastRuneInString(s); r != '.' && r != '?' && r != '!' && r != '…' {
		s += "."
	}
	return s
}

// maxHeads is the most headers a data cell is read with in each direction:
// the nearest ones.
const maxHeads = 4

// push appends header cell i to the list of headers hs, unless it ends it
// already (a cell spanning several slots), keeping the last maxHeads.
func push(hs []int32, i int32) []int32 {
	if len(hs) > 0 && hs[len(hs)-1] == i {
		return hs
	}
	if len(hs) == maxHeads {
		copy(hs, hs[1:])
		hs = hs[:maxHeads-1]
	}
	return append(hs, i)
}

// item writes data cell i with its column and row headers, as Kitten's
// pattern (header ; data) and his Figure 6 (DS Lite ; Length: 133.0mm)
// write them: a column header is followed by " ; ", a row header by ": ":
// "col ; row: data", "col ; data", "row: data" or "data".
func item(texts []string, colHeads, rowHeads []int32, i int32) string {
	join := func(hs []int32) string {
		var parts []string
		for _, j := range hs {
			parts = append(parts, label(texts[j]))
		}
		return strings.Join(parts, " ")
	}
	col, row, data := join(colHeads), join(rowHeads), texts[i]
	switch {
	case col != "" && row != "":
		return col + " ; " + row + ": " + data
	case col != "":
		return col + " ; " + data
	case row != "":
		return row + ": " + data
	}
	return data
}

// label returns the text of a header or thema as the clause writes it,
// before its own mark (" ;; ", " ; ", ": "): without the colon, semicolon
// or comma that ended it on the page ("Votes among independents:" ;;), and
// without a final full stop after a word of two letters or more, which
// would end the clause in its middle ("Develop literacy skills." ; ...);
// an abbreviation's stop ("Pop.", "No.") and "?", "!", "…" stay.
func label(s string) string {
	s = strings.TrimRight(s, " :;,")
	if strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "..") {
		w := s[strings.LastIndexAny(s, " \t")+1 : len(s)-1]
		if utf8.RuneCountInString(w) > 1 && !abbreviated(w) {
			s = s[:len(s)-1]
		}
	}
	return s
}

// abbreviated reports whether word w (without its full stop) reads as an
// abbreviation: one with a stop inside ("e.g") or short and capitalised
// ("Pop", "Inc", "No").
func abbreviated(w string) bool {
	if strings.Contains(w, ".") {
		return true
	}
	r, _ := utf8.DecodeRuneInString(w)
	return utf8.RuneCountInString(w) <= 3 && unicode.IsUpper(r)
}

// cellText returns the text of cell c: its blocks joined by spaces.
func cellText(p *page.Page, c *page.Cell) string {
	var sb strings.Builder
	for b := c.First; b < c.End && int(b) < len(p.Blocks); b++ {
		if sb.Len() > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(p.Blocks[b].Text)
	}
	return sb.String()
}
