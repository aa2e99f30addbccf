package segment

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/page"
)

// grid returns the cells of t as "row,col,rowspan,colspan:text" strings.
func grid(p *page.Page, t *page.Table) []string {
	var out []string
	for _, c := range t.Cells {
		var txt []string
		for i := c.First; i < c.End; i++ {
			txt = append(txt, p.Blocks[i].Text)
		}
		out = append(out, fmt.Sprintf("%d,%d,%d,%d:%s", c.Row, c.Col, c.RowSpan, c.ColSpan, strings.Join(txt, " ")))
	}
	return out
}

func TestTableGridResolvesSpans(t *testing.T) {
	p := segmentString(t, `<body><table summary="s"><caption>Cap <b>tion</b></caption>
<thead><tr><th scope=col>A</th><th colspan=2>B</th></tr></thead>
<tr><td rowspan=2>x</td><td>y</td><td>z</td></tr>
<tr><td>u</td><td rowspan=9>v</td></tr></table></body>`)
	if len(p.Tables) != 1 {
		t.Fatalf("tables = %d, want 1", len(p.Tables))
	}
	tb := &p.Tables[0]
	if tb.Rows != 3 || tb.Cols != 3 || tb.Caption != "Cap tion" || tb.Summary != "s" || !tb.THead {
		t.Errorf("table = %+v", tb)
	}
	want := []string{"0,0,1,1:A", "0,1,1,2:B", "1,0,2,1:x", "1,1,1,1:y", "1,2,1,1:z", "2,1,1,1:u", "2,2,1,1:v"}
	if got := grid(p, tb); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("grid = %q,\nwant %q", got, want)
	}
	if c := tb.Cells[0]; !c.TH || !c.Head || !c.Scope || c.Chars != 1 {
		t.Errorf("header cell = %+v", c)
	}
	if c := tb.Cells[2]; c.TH || c.Head || c.Scope {
		t.Errorf("data cell = %+v", c)
	}
}

func TestTableOnlyLeaves(t *testing.T) {
	p := segmentString(t, `<body><table><tr><td><table id=in><tr><td>a</td><td><form><input></form></td></tr></table></td><td>b</td></tr></table>
<table><tr><td>c</td></tr></table></body>`)
	if len(p.Tables) != 2 {
		t.Fatalf("tables = %d, want 2 leaves", len(p.Tables))
	}
	if in := p.Tables[0]; p.Nodes[in.Node].ID != "in" || in.Nested != 1 || in.Forms < 1 || len(in.Cells) != 2 {
		t.Errorf("inner table = %+v", in)
	}
	if p.Tables[1].Nested != 0 || p.Tables[1].Rows != 1 {
		t.Errorf("second table = %+v", p.Tables[1])
	}
}

func TestSpanValues(t *testing.T) {
	for in, want := range map[string]int32{"": 1, "2": 2, " 3 ": 3, "0": 1, "-4": 1, "x": 1, "2x": 2,
		"100000": 1000, "99999999999999999999": 1000} {
		if got := span(in, 1000); got != want {
			t.Errorf("span(%q) = %d, want %d", in, got, want)
		}
	}
}

// TestTableBadInput: huge and garbage spans, many rows, deep nesting and
// empty tables give bounded grids and no panic.
func TestTableBadInput(t *testing.T) {
	p := segmentString(t, `<body><table><tr><td colspan="100000">a</td><td colspan=-3>b</td><td rowspan="1e9" colspan="x">c</td></tr></table></body>`)
	tb := p.Tables[0]
	if tb.Cols != page.MaxTableCols || !tb.Truncated || len(tb.Cells) != 1 || tb.Cells[0].ColSpan != page.MaxTableCols {
		t.Errorf("wide table: cols %d truncated %v cells %d", tb.Cols, tb.Truncated, len(tb.Cells))
	}

	var sb strings.Builder
	sb.WriteString("<body><table>")
	for i := range 10_000 {
		fmt.Fprintf(&sb, "<tr><td rowspan=65534>%d</td><td>x</td></tr>", i)
	}
	sb.WriteString("</table></body>")
	p = segmentString(t, sb.String())
	if tb := p.Tables[0]; tb.Rows != 10_000 || tb.Cols > 10_001 || tb.Cells[0].RowSpan != 10_000 {
		t.Errorf("long table: rows %d cols %d", tb.Rows, tb.Cols)
	}

	nested := strings.Repeat("<table><tr><td>", 500) + "deep" + strings.Repeat("</td></tr></table>", 500)
	p = segmentString(t, "<body>"+nested+"</body>")
	if len(p.Tables) > 1 {
		t.Errorf("nested tables: %d leaves", len(p.Tables))
	}

	p = segmentString(t, `<body><table></table><table><tr></tr></table><table><caption>c</caption></table></body>`)
	for _, tb := range p.Tables {
		if tb.Rows != 0 || tb.Cols != 0 || len(tb.Cells) != 0 {
			t.Errorf("empty table = %+v", tb)
		}
	}
}

// TestTableCellCap: a table of more than MaxTableCells cells keeps the
// first ones and says it was truncated.
func TestTableCellCap(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 600 kB table")
	}
	row := "<tr>" + strings.Repeat("<td>x", 1000)
	src := "<body><table>" + strings.Repeat(row, page.MaxTableCells/1000+1) + "</table></body>"
	tb := segmentString(t, src).Tables[0]
	if len(tb.Cells) != page.MaxTableCells || !tb.Truncated || tb.Cols != 1000 {
		t.Errorf("cells %d truncated %v cols %d", len(tb.Cells), tb.Truncated, tb.Cols)
	}
}
