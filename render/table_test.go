package render

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/ingest"
	"github.com/sluice-project/sluice/internal/pagetest"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/segment"
	"github.com/sluice-project/sluice/structure"
)

// dsLite is the table of Kitten's Figures 4 and 6 (the fixture of package
// tables' tests), with a paragraph before and after it.
const dsLite = `<html><body><p>Nintendo handhelds.</p><table border=1>
<tr><td colspan=4>Dimensions Comparison</td></tr>
<tr><td></td><td><u>DS Lite</u></td><td>Original DS</td><td>PSP</td></tr>
<tr><td>Length</td><td>133.0mm</td><td>148.7mm</td><td>170.0mm</td></tr>
<tr><td>Width</td><td>73.9mm</td><td>84.7mm</td><td>74.0mm</td></tr>
<tr><td>Depth</td><td>21.5mm</td><td>28.8mm</td><td>23.0mm</td></tr>
<tr><td>Weight</td><td>218g</td><td>275g</td><td>260g</td></tr>
</table><p>The DS Lite is the smallest.</p></body></html>`

// keepAll parses src and keeps every block, labelled by structure, so
// that the tests do not depend on a model's choices.
func keepAll(tb testing.TB, src string) *page.Page {
	tb.Helper()
	p := pagetest.Parse(tb, src)
	for i := range p.Blocks {
		p.Blocks[i].Score = 1
	}
	structure.Label(p, structure.Threshold)
	return p
}

// renderString renders p in format f with table mode m.
func renderString(tb testing.TB, f string, m Tables, p *page.Page) string {
	tb.Helper()
	r, err := Lookup(f, Options{Tables: m})
	if err != nil {
		tb.Fatal(err)
	}
	var sb strings.Builder
	if err := r.Render(&sb, p); err != nil {
		tb.Fatal(err)
	}
	return sb.String()
}

// spansPage has a caption, th headers, a rowspan, a colspan and a "|" in
// a cell.
const spansPage = `<html><body><table><caption>Tea prices</caption>
<tr><th>Tea</th><th>Size</th><th>Price</th></tr>
<tr><th rowspan=2>Green</th><td>small</td><td>2.00</td></tr>
<tr><td>large</td><td>3.50</td></tr>
<tr><td>Black</td><td colspan=2>sold out | back soon</td></tr>
</table></body></html>`

// dsLiteClauses are the clauses of the DS Lite table (Kitten's Figure 6).
var dsLiteClauses = []string{
	"Dimensions Comparison ;; DS Lite ; Length: 133.0mm / Original DS ; Length: 148.7mm / PSP ; Length: 170.0mm.",
	"Dimensions Comparison ;; DS Lite ; Width: 73.9mm / Original DS ; Width: 84.7mm / PSP ; Width: 74.0mm.",
	"Dimensions Comparison ;; DS Lite ; Depth: 21.5mm / Original DS ; Depth: 28.8mm / PSP ; Depth: 23.0mm.",
	"Dimensions Comparison ;; DS Lite ; Weight: 218g / Original DS ; Weight: 275g / PSP ; Weight: 260g.",
}

func TestTablesDSLite(t *testing.T) {
	p := keepAll(t, dsLite)
	before, after := "Nintendo handhelds.", "The DS Lite is the smallest."
	cases := []struct {
		format string
		mode   Tables
		want   string
	}{
		{"parser", TablesDefault, before + "\n" + strings.Join(dsLiteClauses, "\n") + "\n" + after + "\n"},
		{"text", TablesLinear, before + "\n\n" + strings.Join(dsLiteClauses, "\n\n") + "\n\n" + after + "\n"},
		{"text", TablesGrid, before + "\n\n" + strings.Join(dsLiteClauses, "\n\n") + "\n\n" + after + "\n"},
		{"cleaneval", TablesLinear, "<p> " + before + "\n\n<p> " + strings.Join(dsLiteClauses, "\n\n<p> ") + "\n\n<p> " + after + "\n"},
		{"markdown", TablesDefault, before + `

Dimensions Comparison

|  | DS Lite | Original DS | PSP |
| --- | --- | --- | --- |
| Length | 133.0mm | 148.7mm | 170.0mm |
| Width | 73.9mm | 84.7mm | 74.0mm |
| Depth | 21.5mm | 28.8mm | 23.0mm |
| Weight | 218g | 275g | 260g |

` + after + "\n"},
		{"markdown", TablesLinear, before + "\n\n" + strings.Join(dsLiteClauses, "\n\n") + "\n\n" + after + "\n"},
	}
	for _, c := range cases {
		if got := renderString(t, c.format, c.mode, p); got != c.want {
			t.Errorf("%s %s:\n%s\nwant\n%s", c.format, c.mode, got, c.want)
		}
	}
	html := renderString(t, "html", TablesDefault, p)
	wantHTML := `<p>Nintendo handhelds.</p>
<table>
<tr><td class="thema" colspan="4">Dimensions Comparison</td></tr>
<tr><td></td><th scope="col">DS Lite</th><th scope="col">Original DS</th><th scope="col">PSP</th></tr>
<tr><th scope="row">Length</th><td class="data">133.0mm</td><td class="data">148.7mm</td><td class="data">170.0mm</td></tr>
<tr><th scope="row">Width</th><td class="data">73.9mm</td><td class="data">84.7mm</td><td class="data">74.0mm</td></tr>
<tr><th scope="row">Depth</th><td class="data">21.5mm</td><td class="data">28.8mm</td><td class="data">23.0mm</td></tr>
<tr><th scope="row">Weight</th><td class="data">218g</td><td class="data">275g</td><td class="data">260g</td></tr>
</table>
<p>The DS Lite is the smallest.</p>
`
	if !strings.Contains(html, wantHTML) {
		t.Errorf("html:\n%s\nwant it to hold\n%s", html, wantHTML)
	}
}

// TestTablesBlocksUnchanged: the default of cleaneval and text, and
// TablesBlocks in every format, write a data table's cells as blocks,
// exactly as before tables were rendered.
func TestTablesBlocksUnchanged(t *testing.T) {
	p := keepAll(t, dsLite)
	segs := Segments(p)
	var want strings.Builder
	for k, s := range segs {
		if k > 0 {
			want.WriteString("\n")
		}
		want.WriteString(s.Text + "\n")
	}
	if got := renderString(t, "text", TablesDefault, p); got != want.String() {
		t.Errorf("text:\n%s\nwant\n%s", got, want.String())
	}
	if got := renderString(t, "cleaneval", TablesDefault, p); !strings.Contains(got, "<p> DS Lite\n\n<p> Original DS\n") {
		t.Errorf("cleaneval:\n%s", got)
	}
	for _, f := range []string{"markdown", "html", "parser"} {
		got := renderString(t, f, TablesBlocks, p)
		if strings.Contains(got, "|") || strings.Contains(got, "<table") || strings.Contains(got, ";;") || !strings.Contains(got, "Original DS") {
			t.Errorf("%s blocks:\n%s", f, got)
		}
	}
	var d JSONDocument
	if err := json.Unmarshal([]byte(renderString(t, "json", TablesBlocks, p)), &d); err != nil || d.Tables != nil {
		t.Errorf("json blocks: tables %v, err %v", d.Tables, err)
	}
}

func TestTablesJSON(t *testing.T) {
	p := keepAll(t, dsLite)
	for _, m := range []Tables{TablesDefault, TablesLinear} {
		var d JSONDocument
		if err := json.Unmarshal([]byte(renderString(t, "json", m, p)), &d); err != nil {
			t.Fatal(err)
		}
		if len(d.Tables) != 1 {
			t.Fatalf("%s: %d tables", m, len(d.Tables))
		}
		tb := d.Tables[0]
		if tb.Index != 0 || tb.Kind != "data" || tb.Rows != 6 || tb.Cols != 4 || len(tb.Cells) != 21 {
			t.Errorf("%s: table %+v", m, tb)
		}
		var got []string
		for _, c := range tb.Cells {
			got = append(got, fmt.Sprintf("%d,%d+%dx%d %s %q %v", c.Row, c.Col, c.RowSpan, c.ColSpan, c.Role, c.Text, c.Blocks))
		}
		want := []string{`0,0+1x4 thema "Dimensions Comparison" [1]`, `1,0+1x1 neutral "" []`, `1,1+1x1 header "DS Lite" [2]`}
		if strings.Join(got[:3], "|") != strings.Join(want, "|") || got[20] != `5,3+1x1 data "260g" [20]` {
			t.Errorf("%s: cells\n%s", m, strings.Join(got, "\n"))
		}
		wantText := "Nintendo handhelds.\n\nDimensions Comparison\n\nDS Lite"
		if m == TablesLinear {
			wantText = "Nintendo handhelds.\n\n" + dsLiteClauses[0]
			if s := d.Segments[1]; s.Text != dsLiteClauses[0] || fmt.Sprint(s.Blocks) != "[5 6 7 8]" {
				t.Errorf("linear segment: %+v", s)
			}
		}
		if !strings.HasPrefix(d.Text, wantText) {
			t.Errorf("%s: text %q", m, d.Text)
		}
	}
}

func TestTablesSpans(t *testing.T) {
	p := keepAll(t, spansPage)
	md := renderString(t, "markdown", TablesDefault, p)
	wantMD := `Tea prices

| Tea | Size | Price |
| --- | --- | --- |
| Green | small | 2.00 |
| | large | 3.50 |
| Black | sold out \| back soon | |
`
	if md != wantMD {
		t.Errorf("markdown:\n%s\nwant\n%s", md, wantMD)
	}
	html := renderString(t, "html", TablesDefault, p)
	wantHTML := `<body>
<table>
<caption>Tea prices</caption>
<tr><th scope="col">Tea</th><th scope="col">Size</th><th scope="col">Price</th></tr>
<tr><th scope="row" rowspan="2">Green</th><td class="data">small</td><td class="data">2.00</td></tr>
<tr><td class="data">large</td><td class="data">3.50</td></tr>
<tr><td class="data">Black</td><td class="data" colspan="2">sold out | back soon</td></tr>
</table>
</body>`
	if !strings.Contains(html, wantHTML) {
		t.Errorf("html:\n%s\nwant it to hold\n%s", html, wantHTML)
	}
	// The caption is written once: as the thema of every clause.
	parser := renderString(t, "parser", TablesDefault, p)
	if strings.Count(parser, "Tea prices") != 3 || !strings.HasPrefix(parser, "Tea prices ;; Size ; Green: small / Price ; Green: 2.00.\n") {
		t.Errorf("parser:\n%s", parser)
	}
}

// TestLayoutTableStaysBlocks: a layout table is written as its blocks in
// every mode.
func TestLayoutTableStaysBlocks(t *testing.T) {
	p := keepAll(t, `<html><body><table><tr><td><a href=/>Home</a></td><td>
<p>A long article paragraph that goes on and on about many things, as the main text of a page does.</p>
<p>Another paragraph of the article, long enough to be read as prose and not as a value.</p></td></tr>
<tr><td></td><td>Copyright 2010</td></tr></table></body></html>`)
	for _, f := range Formats() {
		if got, want := renderString(t, f, TablesGrid, p), renderString(t, f, TablesBlocks, p); got != want {
			t.Errorf("%s: grid\n%s\nblocks\n%s", f, got, want)
		}
	}
	if md := renderString(t, "markdown", TablesDefault, p); strings.Contains(md, "|") || !strings.Contains(md, "Another paragraph") {
		t.Errorf("markdown:\n%s", md)
	}
}

// dropBlocks labels the blocks holding any of texts Other.
func dropBlocks(p *page.Page, texts ...string) {
	for i := range p.Blocks {
		for _, s := range texts {
			if p.Blocks[i].Text == s {
				p.Blocks[i].Label = page.Other
			}
		}
	}
}

// TestTableDroppedCells: a table whose cells the cleaner mostly kept is
// written with the dropped cells empty; one it mostly dropped is written
// as its kept blocks.
func TestTableDroppedCells(t *testing.T) {
	p := keepAll(t, dsLite)
	dropBlocks(p, "Weight", "218g", "275g", "260g", "PSP")
	md := renderString(t, "markdown", TablesDefault, p)
	if !strings.Contains(md, "|  | DS Lite | Original DS |  |\n") || !strings.Contains(md, "| Depth | 21.5mm | 28.8mm | 23.0mm |\n|  |  |  |  |\n") {
		t.Errorf("markdown, some cells dropped:\n%s", md)
	}
	parser := renderString(t, "parser", TablesDefault, p)
	if strings.Contains(parser, "218g") || strings.Contains(parser, "PSP") || !strings.Contains(parser, "Dimensions Comparison ;; DS Lite ; Depth: 21.5mm / Original DS ; Depth: 28.8mm / Depth: 23.0mm.\n") {
		t.Errorf("parser, some cells dropped:\n%s", parser)
	}

	p = keepAll(t, dsLite)
	dropBlocks(p, "Dimensions Comparison", "DS Lite", "Original DS", "PSP", "Length", "133.0mm", "148.7mm", "170.0mm",
		"Width", "73.9mm", "84.7mm", "74.0mm", "Depth", "21.5mm")
	for _, f := range Formats() {
		got, want := renderString(t, f, TablesDefault, p), renderString(t, f, TablesBlocks, p)
		if got != want || strings.Contains(got, "133.0mm") || !strings.Contains(got, "260g") {
			t.Errorf("%s, most cells dropped:\n%s\nwant\n%s", f, got, want)
		}
	}
}

// TestTableBetweenContinuations: a table ends the open segment; a
// continuation after it opens a paragraph of its own.
func TestTableBetweenContinuations(t *testing.T) {
	p := keepAll(t, dsLite)
	for i := range p.Blocks {
		if p.Blocks[i].Text == "The DS Lite is the smallest." {
			p.Blocks[i].Label = page.Continuation
		}
	}
	md := renderString(t, "markdown", TablesDefault, p)
	if !strings.HasPrefix(md, "Nintendo handhelds.\n\nDimensions") || !strings.HasSuffix(md, "| 260g |\n\nThe DS Lite is the smallest.\n") {
		t.Errorf("markdown:\n%s", md)
	}
}

func TestTablesMarkdownEscapes(t *testing.T) {
	p := keepAll(t, `<html><body><table><tr><th>Key</th><th>Value</th></tr>
<tr><td>a|b</td><td>*x* <br>- y</td></tr><tr><td>c</td><td># 1</td></tr></table></body></html>`)
	md := renderString(t, "markdown", TablesGrid, p)
	if !strings.Contains(md, "| Key | Value |\n| --- | --- |\n| a\\|b | \\*x\\* - y |\n| c | \\# 1 |\n") {
		t.Errorf("markdown:\n%s", md)
	}
}

func TestParseTables(t *testing.T) {
	for _, m := range []Tables{TablesDefault, TablesBlocks, TablesLinear, TablesGrid} {
		if got, err := ParseTables(" " + strings.ToUpper(m.String())); got != m || err != nil {
			t.Errorf("ParseTables(%s) = %v, %v", m, got, err)
		}
	}
	if got, err := ParseTables(""); got != TablesDefault || err != nil {
		t.Errorf(`ParseTables("") = %v, %v`, got, err)
	}
	var m Tables
	if err := m.Set("markdown"); err == nil || !strings.Contains(err.Error(), "blocks, linear or grid") {
		t.Errorf("Set(markdown) = %v", err)
	}
}

// badTables is every kind of bad table at once: 10,000 rows, a colspan of
// 100,000, negative and garbage spans, tables nested 500 deep, empty
// tables.
func badTables() string {
	var sb strings.Builder
	sb.WriteString("<html><body><p>Before the tables.</p><table><tr><th>n</th><th>v</th></tr>")
	for i := range 10_000 {
		fmt.Fprintf(&sb, "<tr><td>r%d</td><td>%d</td></tr>", i, i)
	}
	sb.WriteString("</table>")
	sb.WriteString(`<table><tr><th colspan="100000">wide</th><th>w</th></tr><tr><td rowspan=-1>1</td><td colspan=garbage>2</td><td rowspan="1e9" colspan="-7">3</td></tr>`)
	sb.WriteString(`<tr><td>4</td><td>5</td><td>6</td></tr></table>`)
	sb.WriteString(strings.Repeat("<table><tr><td>", 500) + "deep" + strings.Repeat("</td></tr></table>", 500))
	sb.WriteString("<table></table><table><tr></tr></table><table><caption>c</caption></table><p>After the tables.</p></body></html>")
	return sb.String()
}

// TestTablesBadInput: bad tables render in every format and mode without
// panic, in memory bounded by the page, with their text.
func TestTablesBadInput(t *testing.T) {
	src := badTables()
	p := keepAll(t, src)
	for _, f := range Formats() {
		for _, m := range []Tables{TablesDefault, TablesBlocks, TablesLinear, TablesGrid} {
			r, _ := Lookup(f, Options{Tables: m})
			var sb strings.Builder
			var ms0, ms1 runtime.MemStats
			runtime.ReadMemStats(&ms0)
			if err := r.Render(&sb, p); err != nil {
				t.Fatal(err)
			}
			runtime.ReadMemStats(&ms1)
			out := sb.String()
			// Allocation: linear in the page. The json format's document
			// and its encoding take about 8 times the output, tables or
			// not; the tables' grids, roles and texts a few times the
			// input.
			if alloc := ms1.TotalAlloc - ms0.TotalAlloc; alloc > uint64(10*sb.Len()+40*len(src)) {
				t.Errorf("%s %s: %d bytes allocated for %d of input and %d of output", f, m, alloc, len(src), sb.Len())
			}
			for _, want := range []string{"Before the tables", "r9999", "deep", "After the tables"} {
				if !strings.Contains(out, want) {
					t.Errorf("%s %s: output lacks %q", f, m, want)
				}
			}
		}
	}
	// The last row's clause names its value with its header; whether the
	// first column is read as data ("n: r9999 / v: 9999.") or as row
	// headers ("v ; r9999: 9999.") is the table model's call.
	got := renderString(t, "parser", TablesDefault, p)
	if !strings.Contains(got, "\nn: r9999 / v: 9999.\n") && !strings.Contains(got, "\nv ; r9999: 9999.\n") {
		t.Errorf("parser: no clause for the last row of the long table")
	}
}

// FuzzRenderTables renders arbitrary HTML, with some blocks dropped, in
// every format and table mode: no panic, valid JSON, well-formed XML.
func FuzzRenderTables(f *testing.F) {
	f.Add([]byte(dsLite), uint8(0))
	f.Add([]byte(spansPage), uint8(3))
	f.Add([]byte(`<table><caption>c</caption><tr><th colspan=0>a<th rowspan=-2>b<tr><td colspan=99999>1<td>2<tr><th>a<th>b</table>`), uint8(5))
	f.Fuzz(func(t *testing.T, data []byte, drop uint8) {
		doc, err := ingest.Parse(data, ingest.DefaultOptions())
		if err != nil {
			return
		}
		p := segment.Segment(doc, segment.DefaultOptions())
		for i := range p.Blocks {
			p.Blocks[i].Score = 1
		}
		structure.Label(p, structure.Threshold)
		for i := range p.Blocks {
			if drop > 0 && i%int(drop%7+1) == 0 {
				p.Blocks[i].Label = page.Other
			}
		}
		for _, f := range Formats() {
			for _, m := range []Tables{TablesDefault, TablesBlocks, TablesLinear, TablesGrid} {
				out := renderString(t, f, m, p)
				if f == "json" && !json.Valid([]byte(out)) {
					t.Fatalf("json %s: invalid: %s", m, out)
				}
				if f == "xml" || f == "tei" {
					checkXML(t, f, []byte(out))
				}
			}
		}
	})
}
