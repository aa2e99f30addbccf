package tables

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/ingest"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/segment"
)

func parse(t testing.TB, src string) *page.Page {
	t.Helper()
	doc, err := ingest.Parse([]byte(src), ingest.DefaultOptions())
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return segment.Segment(doc, segment.DefaultOptions())
}

// dsLite is the table of Kitten's Figures 4 and 6, with the thema as a cell
// spanning the top row, as HTML pages write it (no th, no caption).
const dsLite = `<body><p>Nintendo handhelds.</p><table border=1>
<tr><td colspan=4>Dimensions Comparison</td></tr>
<tr><td></td><td><u>DS Lite</u></td><td>Original DS</td><td>PSP</td></tr>
<tr><td>Length</td><td>133.0mm</td><td>148.7mm</td><td>170.0mm</td></tr>
<tr><td>Width</td><td>73.9mm</td><td>84.7mm</td><td>74.0mm</td></tr>
<tr><td>Depth</td><td>21.5mm</td><td>28.8mm</td><td>23.0mm</td></tr>
<tr><td>Weight</td><td>218g</td><td>275g</td><td>260g</td></tr>
</table></body>`

func TestLinearizeDSLite(t *testing.T) {
	p := parse(t, dsLite)
	if len(p.Tables) != 1 {
		t.Fatalf("tables = %d", len(p.Tables))
	}
	tb := &p.Tables[0]
	if k := Classify(p, tb); k != Data {
		t.Fatalf("Classify = %v (features %+v)", k, Measure(p, tb))
	}
	roles := TypeCells(p, tb)
	var got []string
	for i, r := range roles {
		got = append(got, fmt.Sprintf("%s=%s", cellText(p, &tb.Cells[i]), r))
	}
	want := "Dimensions Comparison=thema |=neutral DS Lite=header Original DS=header PSP=header " +
		"|Length=header 133.0mm=data 148.7mm=data 170.0mm=data |Width=header 73.9mm=data 84.7mm=data 74.0mm=data " +
		"|Depth=header 21.5mm=data 28.8mm=data 23.0mm=data |Weight=header 218g=data 275g=data 260g=data"
	if s := strings.Join(got, " "); s != strings.ReplaceAll(want, "|", "") {
		t.Errorf("roles:\n%s\nwant\n%s", s, strings.ReplaceAll(want, "|", ""))
	}
	wantLines := []string{
		"Dimensions Comparison ;; DS Lite ; Length: 133.0mm / Original DS ; Length: 148.7mm / PSP ; Length: 170.0mm.",
		"Dimensions Comparison ;; DS Lite ; Width: 73.9mm / Original DS ; Width: 84.7mm / PSP ; Width: 74.0mm.",
		"Dimensions Comparison ;; DS Lite ; Depth: 21.5mm / Original DS ; Depth: 28.8mm / PSP ; Depth: 23.0mm.",
		"Dimensions Comparison ;; DS Lite ; Weight: 218g / Original DS ; Weight: 275g / PSP ; Weight: 260g.",
	}
	if lines := Linearize(p, tb); strings.Join(lines, "\n") != strings.Join(wantLines, "\n") {
		t.Errorf("Linearize:\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(wantLines, "\n"))
	}
}

func TestLayoutTablesLeftAlone(t *testing.T) {
	for name, src := range map[string]string{
		"page layout": `<body><table><tr><td><a href=/>Home</a> <a href=/a>About</a></td><td>
<p>A long article paragraph that goes on and on about many things, as the main text of a page does.</p>
<p>Another paragraph of the article, long enough to be read as prose and not as a value.</p></td></tr>
<tr><td></td><td>Copyright 2010</td></tr></table></body>`,
		"form":       `<body><table><tr><td>Name</td><td><input name=n></td></tr><tr><td>Mail</td><td><input name=m></td></tr></table></body>`,
		"one row":    `<body><table><tr><td>a</td><td>b</td><td>c</td></tr></table></body>`,
		"one column": `<body><table><tr><td>a</td></tr><tr><td>b</td></tr></table></body>`,
		"empty":      `<body><table></table></body>`,
	} {
		p := parse(t, src)
		for i := range p.Tables {
			if k := Classify(p, &p.Tables[i]); k != Layout {
				t.Errorf("%s: Classify = %v, want layout (%+v)", name, k, Measure(p, &p.Tables[i]))
			}
			if l := Linearize(p, &p.Tables[i]); l != nil {
				t.Errorf("%s: Linearize = %q, want nil", name, l)
			}
		}
	}
}

func TestHeaderMarkupAndRepeats(t *testing.T) {
	p := parse(t, `<body><table><caption>Prices</caption>
<tr><th>Item</th><th>Price</th><th>Stock</th></tr>
<tr><td>Tea</td><td>3</td><td>10</td></tr>
<tr><th>Item</th><th>Price</th><th>Stock</th></tr>
<tr><td>Jam</td><td>4</td><td>2</td></tr>
<tr><td colspan=3>* prices in euros</td></tr></table></body>`)
	tb := &p.Tables[0]
	roles := TypeCells(p, tb)
	if roles[6] != FinalNonImportant || roles[12] != FinalImportant || roles[0] != Header || roles[3] != DataCell {
		t.Errorf("roles = %v", roles)
	}
	want := "Prices ;; * prices in euros ;; Item ; Tea / Price ; 3 / Stock ; 10."
	if l := Linearize(p, tb); len(l) != 2 || l[0] != want {
		t.Errorf("Linearize = %q, want first %q", l, want)
	}
}

func TestFixUpLoneDataInHeaderRow(t *testing.T) {
	p := parse(t, `<body><table><tr><th>Name</th><td>Age</td><th>Town</th></tr>
<tr><td>Ann</td><td>31</td><td>Oslo</td></tr><tr><td>Bob</td><td>42</td><td>Rome</td></tr></table></body>`)
	roles := TypeCells(p, &p.Tables[0])
	if roles[1] != Header {
		t.Errorf("lone data cell in a header row = %v, want header", roles[1])
	}
	if l := Linearize(p, &p.Tables[0]); len(l) != 2 || l[1] != "Name ; Bob / Age ; 42 / Town ; Rome." {
		t.Errorf("Linearize = %q", l)
	}
}

// TestBadTables: huge, long, deep and empty tables take bounded time and
// give no panic.
func TestBadTables(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("<body><table><tr><th>n</th><th>v</th></tr>")
	for i := range 10_000 {
		fmt.Fprintf(&sb, "<tr><td>r%d</td><td>%d</td></tr>", i, i)
	}
	sb.WriteString("</table>")
	sb.WriteString(`<table><tr><td colspan="100000">a</td></tr><tr><td rowspan=-1>b</td><td colspan=garbage>c</td></tr></table>`)
	sb.WriteString(strings.Repeat("<table><tr><td>", 500) + "deep" + strings.Repeat("</td></tr></table>", 500))
	sb.WriteString("<table></table><table><tr></tr></table></body>")
	p := parse(t, sb.String())
	for i := range p.Tables {
		tb := &p.Tables[i]
		Measure(p, tb)
		TypeCells(p, tb)
		l := Linearize(p, tb)
		if i == 0 && len(l) != 10_000 {
			t.Errorf("long table: %d clauses, want 10000", len(l))
		}
	}
}

// TestLoneNumberNotThema: a calendar's first week holding one day is data,
// not a title of the table.
func TestLoneNumberNotThema(t *testing.T) {
	p := parse(t, `<body><table><tr><th>Mo</th><th>Tu</th><th>We</th></tr>
<tr><td></td><td></td><td>1</td></tr><tr><td>2</td><td>3</td><td>4</td></tr></table></body>`)
	want := []string{"We ; 1.", "Mo ; 2 / Tu ; 3 / We ; 4."}
	if l := Linearize(p, &p.Tables[0]); strings.Join(l, "|") != strings.Join(want, "|") {
		t.Errorf("Linearize = %q, want %q", l, want)
	}
}

func TestMeasureCells(t *testing.T) {
	p := parse(t, dsLite)
	fs := MeasureCells(p, &p.Tables[0])
	if len(fs) != len(p.Tables[0].Cells) {
		t.Fatalf("%d features for %d cells", len(fs), len(p.Tables[0].Cells))
	}
	if f := fs[0]; f.ColSpan != 4 || f.RowMerged != 1 || f.Row != 0 || f.Chars != 20 {
		t.Errorf("thema cell: %+v", f)
	}
	if f := fs[1]; f.Chars != 0 || f.ColEmpty != 1.0/6 || f.RowEmpty != 0.25 {
		t.Errorf("corner cell: %+v", f)
	}
	if f := fs[len(fs)-1]; !f.Numeric || f.Row != 1 || f.Col != 1 || f.Blocks != 1 {
		t.Errorf("last cell: %+v", f)
	}
}

// TestViews: a data table is written as a table while the cleaner kept
// at least half of its non-empty cells (two at least); the views carry
// the kept text only, and the blocks of the table and its caption have
// it as owner.
func TestViews(t *testing.T) {
	src := strings.Replace(dsLite, "<table border=1>", "<table border=1><caption>Sizes</caption>", 1)
	p := parse(t, src)
	for i := range p.Blocks {
		p.Blocks[i].Label = page.Paragraph
	}
	views, owner := Views(p)
	if len(views) != 1 || views[0].Caption != "Sizes" || views[0].Texts[2] != "DS Lite" {
		t.Fatalf("views = %+v", views)
	}
	for i, b := range p.Blocks {
		want := int32(0)
		if i == 0 || b.Text == "Nintendo handhelds." {
			want = -1
		}
		if owner[i] != want {
			t.Errorf("block %d %q: owner %d, want %d", i, b.Text, owner[i], want)
		}
	}
	if v := &views[0]; v.At(1, 1) != 2 || v.At(0, 3) != 0 || v.At(6, 0) != -1 || v.At(-1, 0) != -1 {
		t.Errorf("At: %d %d %d", v.At(1, 1), v.At(0, 3), v.At(6, 0))
	}
	kept := 0
	for i := range p.Blocks {
		if p.Blocks[i].Text == "Sizes" || (i > 1 && kept > 9) {
			p.Blocks[i].Label = page.Other
		} else if i > 1 {
			kept++
		}
	}
	views, _ = Views(p)
	if len(views) != 1 || views[0].Caption != "" || views[0].Texts[20] != "" || views[0].Texts[10] == "" {
		t.Errorf("half kept: views = %+v", views)
	}
	clauses, rows := views[0].Clauses()
	if len(clauses) != 2 || rows[0] != 2 || strings.Contains(clauses[0], "Sizes") {
		t.Errorf("half kept: clauses %q rows %v", clauses, rows)
	}
	for i := range p.Blocks {
		if i > 5 {
			p.Blocks[i].Label = page.Other
		}
	}
	if views, owner := Views(p); views != nil || owner != nil {
		t.Errorf("mostly dropped: views = %+v", views)
	}
}

// TestDropData: the blocks of a data table written as a table are
// dropped, the text around it kept; a page with no such table is left
// alone.
func TestDropData(t *testing.T) {
	p := parse(t, dsLite)
	for i := range p.Blocks {
		p.Blocks[i].Label = page.Paragraph
	}
	n := DropData(p)
	kept := 0
	for _, b := range p.Blocks {
		if b.Label.Kept() {
			kept++
			if b.Text != "Nintendo handhelds." && b.Text != p.Blocks[0].Text {
				t.Errorf("block %q of the table kept", b.Text)
			}
		}
	}
	if n == 0 || n+kept != len(p.Blocks) {
		t.Errorf("dropped %d, kept %d of %d blocks", n, kept, len(p.Blocks))
	}
	if again := DropData(p); again != 0 {
		t.Errorf("a second pass dropped %d", again)
	}
}

// A heading row that no markup marks, repeated before each group of a
// long table: the first is header, the repeats finalNonImportant; a row
// of numbers or of one repeated text is never taken for one.
func TestRepeatedHeadingRows(t *testing.T) {
	p := parse(t, `<body><table><tr><th colspan=3>Tour 2013</th></tr>
<tr><td>Date</td><td>Stop</td><td>Venue</td></tr><tr><td>13 July</td><td>Hong Kong</td><td>Expo hall</td></tr>
<tr><th colspan=3>Tour 2014</th></tr>
<tr><td>Date</td><td>Stop</td><td>Venue</td></tr><tr><td>4 October</td><td>Bangkok</td><td>Queen Sirikit centre</td></tr>
<tr><td>Yes</td><td>Yes</td><td>Yes</td></tr><tr><td>Yes</td><td>Yes</td><td>Yes</td></tr>
<tr><td>1</td><td>2</td><td>3</td></tr><tr><td>1</td><td>2</td><td>3</td></tr></table></body>`)
	tb := &p.Tables[0]
	roles := HeuristicCells(p, tb)
	at := func(row, col int32) Role {
		for i, c := range tb.Cells {
			if c.Row == row && c.Col == col {
				return roles[i]
			}
		}
		t.Fatalf("no cell at %d,%d", row, col)
		return 0
	}
	for col := int32(0); col < 3; col++ {
		if r := at(1, col); r != Header {
			t.Errorf("first heading row, col %d: %v", col, r)
		}
		if r := at(4, col); r != FinalNonImportant {
			t.Errorf("repeated heading row, col %d: %v", col, r)
		}
		for _, row := range []int32{6, 7, 8, 9} {
			if r := at(row, col); r != DataCell {
				t.Errorf("row %d col %d: %v, want data", row, col, r)
			}
		}
	}
}

// A table of ticks drawn as images: every row under the heading row has
// text in its first cell only. Those rows are the table's, not a legend
// (finalImportant) under it.
func TestTickTableNoLegend(t *testing.T) {
	tick := `<td><img src=tick.png width=20></td>`
	var sb strings.Builder
	sb.WriteString(`<body><table><tr><td></td><td>UX draft</td><td>UX review</td><td>Final review</td></tr>`)
	for _, row := range []string{"Load map", "Save map", "Graphics settings", "Sound settings"} {
		sb.WriteString("<tr><td>" + row + "</td>" + tick + tick + tick + "</tr>")
	}
	sb.WriteString(`</table></body>`)
	p := parse(t, sb.String())
	roles := HeuristicCells(p, &p.Tables[0])
	for i, r := range roles {
		if r == FinalImportant {
			t.Errorf("cell %d (%q) typed finalImportant: %v", i, cellText(p, &p.Tables[0].Cells[i]), roles)
		}
	}
}

// A cell of a bullet alone says nothing: it is neither a row's header nor
// an item. A row ending in a question mark takes no full stop after it.
func TestBulletCellsAndQuestions(t *testing.T) {
	p := parse(t, `<body><table><tr><th>Step</th><th></th><th>Question</th></tr>
<tr><td>One</td><td>•</td><td>Is the door open?</td></tr>
<tr><td>Two</td><td>•</td><td>Is the light on?</td></tr></table></body>`)
	tb := &p.Tables[0]
	roles := TypeCells(p, tb)
	texts := make([]string, len(tb.Cells))
	for i := range tb.Cells {
		texts[i] = cellText(p, &tb.Cells[i])
	}
	got, _ := LinearizeTexts(tb, roles, texts)
	for _, c := range got {
		if strings.Contains(c, "•") || strings.HasSuffix(c, "?.") {
			t.Errorf("clause %q (roles %v)", c, roles)
		}
	}
	if len(got) != 2 || !strings.HasSuffix(got[1], "Is the light on?") {
		t.Errorf("clauses %q", got)
	}
}

// TestLabelPunctuation: a header or thema keeps no colon, semicolon or
// sentence full stop before its clause mark; an abbreviation keeps its
// stop.
func TestLabelPunctuation(t *testing.T) {
	p := parse(t, `<body><table><caption>Vote among independents:</caption>
<tr><th>Develop literacy skills.</th><th>Pop.</th><th>Town;</th></tr>
<tr><td>Read aloud</td><td>59,500</td><td>Oslo</td></tr>
<tr><td>Write letters</td><td>4,200</td><td>Rome</td></tr></table></body>`)
	want := "Vote among independents ;; Develop literacy skills ; Read aloud / Pop. ; 59,500 / Town ; Oslo."
	if l := Linearize(p, &p.Tables[0]); len(l) != 2 || l[0] != want {
		t.Errorf("Linearize = %q, want first %q", l, want)
	}
	for in, out := range map[string]string{"Total:": "Total", "Skills.": "Skills", "No.": "No.", "Soft skills.": "Soft skills",
		"Inc.": "Inc.", "Acme Inc.": "Acme Inc.", "See e.g.": "See e.g.", "Wait...": "Wait...", "Why?": "Why?"} {
		if got := label(in); got != out {
			t.Errorf("label(%q) = %q, want %q", in, got, out)
		}
	}
}

// TestRowsWithoutHeaders: a row whose data cells have no header is read as
// a list of its cells: an enumeration when they are short, one sentence a
// cell when they are long; a row with a header keeps Kitten's pattern.
func TestRowsWithoutHeaders(t *testing.T) {
	long1 := "Serving members of the community with care plans since the year 1990, "
	long2 := "We are respected worldwide as experts in understanding risks with an eye"
	p := parse(t, `<body><table>
<tr><td>The ideal candidate...</td><td>OfficeTeam</td><td>PA - Reading</td><td>5 Days Ago</td></tr>
<tr><td>`+long1+`</td><td>`+long2+`</td></tr>
<tr><td>Contact</td><td>Ann</td></tr>
<tr><td>Alone</td></tr></table></body>`)
	tb := &p.Tables[0]
	roles := make([]Role, len(tb.Cells))
	for i := range roles {
		roles[i] = DataCell
	}
	roles[6] = Header // "Contact" heads its row
	want := []string{
		"The ideal candidate... OfficeTeam, PA - Reading, 5 Days Ago.",
		strings.TrimRight(long1, ", ") + ". " + long2 + ".",
		"Contact: Ann.",
		"Contact ; Alone.", // under "Contact", which heads its column too
	}
	if got := LinearizeRoles(p, tb, roles); !slices.Equal(got, want) {
		t.Errorf("LinearizeRoles =\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

func TestEnumerate(t *testing.T) {
	for _, c := range []struct {
		items []string
		want  string
		ok    bool
	}{
		{[]string{"Home", "News", "Sport"}, "Home, News, Sport", true},
		{[]string{"Wait...", "Done;", "So,", "end"}, "Wait... Done; So, end", true},
		{[]string{strings.Repeat("x", 60), strings.Repeat("y", 60), "z"}, "", false},
		{[]string{strings.Repeat("w ", 61)}, "", false},
		{nil, "", false},
	} {
		if ok := Enumerable(c.items); ok != c.ok {
			t.Errorf("Enumerable(%q) = %v, want %v", c.items, ok, c.ok)
		}
		if c.ok && Enumerate(c.items) != c.want {
			t.Errorf("Enumerate(%q) = %q, want %q", c.items, Enumerate(c.items), c.want)
		}
	}
	if Enumerable([]string{"a b"}, strings.Repeat("w ", 59)) {
		t.Error("Enumerable counts no words of its extra text")
	}
}
