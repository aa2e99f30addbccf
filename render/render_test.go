package render

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/page"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// node and block build the hand-made test pages.
func node(tag string, parent int32) page.Node { return page.Node{Tag: tag, Parent: parent} }

func block(text string, n int32, l page.Label) page.Block {
	return page.Block{Text: text, Node: n, Label: l}
}

func preBlock(text string, n int32, l page.Label) page.Block {
	b := block(text, n, l)
	b.Pre = true
	return b
}

// fishPage has every construct the renderers handle: an h1 heading, a
// paragraph continued after a dropped block, list items, dropped
// navigation, preformatted lines (two segments in a row), an h3 heading
// with a continuation, and text needing escapes in every format.
func fishPage() *page.Page {
	p := &page.Page{
		Nodes: []page.Node{
			node("html", -1), // 0
			node("body", 0),  // 1
			node("h1", 1),    // 2
			node("p", 1),     // 3
			node("ul", 1),    // 4
			node("li", 4),    // 5
			node("li", 4),    // 6
			node("div", 1),   // 7 nav
			node("a", 7),     // 8
			node("pre", 1),   // 9
			node("h3", 1),    // 10
			node("span", 10), // 11
			node("p", 1),     // 12
			node("li", 4),    // 13
		},
		Body: 1,
		Meta: page.Meta{
			URL:      `http://example.com/fish?a=1&b="2"`,
			Title:    `Fish & "Chips" <3`,
			Encoding: "windows-1252",
			Lang:     "en",
		},
		Blocks: []page.Block{
			block("Fish & Chips <3", 2, page.Heading),                         // 0
			block("Fried *fish* & chips are the #1 dish,", 3, page.Paragraph), // 1
			block("Advertisement", 8, page.Other),                             // 2
			block("served with [mushy] peas_ & <b>salt</b>.", 3, page.Continuation),
			block("Batter: flour, water & beer", 5, page.ListItem), // 4
			block("# of servings: 4", 6, page.ListItem),            // 5
			block("1. Heat the oil to 180 °C.", 12, page.Paragraph),
			block("Home | About | Contact", 8, page.Other), // 7
			preBlock("if a < b && c > d {", 9, page.Paragraph),
			preBlock("    return `x`", 9, page.Continuation),
			preBlock("}", 9, page.Paragraph), // 10
			block("Notes on snake_case #", 11, page.Heading),
			block("& _emphasis_", 11, page.Continuation),
			block("- not a list, + not either; see ~/x and `code`", 12, page.Paragraph),
			block("", 12, page.Continuation), // 14: empty, adds nothing
			block("+ last item \\ backslash", 13, page.ListItem),
		},
	}
	for i := range p.Blocks {
		b := &p.Blocks[i]
		b.Source = page.Span{Start: 100 * i, End: 100*i + len(b.Text)}
		if b.Label.Kept() {
			b.Score = 0.75
		} else {
			b.Score = 0.125
		}
	}
	return p
}

// shortPage is a second, small document for the stream tests.
func shortPage() *page.Page {
	return &page.Page{
		Nodes: []page.Node{node("html", -1), node("body", 0), node("p", 1)},
		Meta:  page.Meta{URL: "http://example.org/", Title: "Short", Encoding: "utf-8"},
		Blocks: []page.Block{
			block("Menu", 2, page.Other),
			block("Orphan continuation opens a paragraph.", 2, page.Continuation),
			block("Second line.", 2, page.Continuation),
		},
	}
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it)\n--- got:\n%s\n--- want:\n%s", name, got, want)
	}
}

var goldenCases = []struct {
	file, format string
	opts         Options
}{
	{"fish.cleaneval", "cleaneval", Options{}},
	{"fish-header.cleaneval", "cleaneval", Options{CleanEvalHeader: true}},
	{"fish-wrapper.cleaneval", "cleaneval", Options{CleanEvalHeader: true, CleanEvalWrapper: true}},
	{"fish.txt", "text", Options{}},
	{"fish.md", "markdown", Options{}},
	{"fish.json", "json", Options{}},
	{"fish-all.json", "json", Options{IncludeDropped: true}},
	{"fish.parser", "parser", Options{}},
	{"fish.html", "html", Options{}},
	{"fish.xml", "xml", Options{}},
	{"fish.tei", "tei", Options{}},
}

func TestGolden(t *testing.T) {
	for _, c := range goldenCases {
		t.Run(c.file, func(t *testing.T) {
			r, err := Lookup(c.format, c.opts)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := r.Render(&buf, fishPage()); err != nil {
				t.Fatal(err)
			}
			golden(t, c.file, buf.Bytes())
		})
	}
}

func TestStreamGolden(t *testing.T) {
	for _, f := range Formats() {
		t.Run(f, func(t *testing.T) {
			r, err := Lookup(f, Options{CleanEvalHeader: true})
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			s := NewStream(&buf, r)
			for _, p := range []*page.Page{fishPage(), shortPage()} {
				if err := s.WritePage(p); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if s.Count() != 2 {
				t.Errorf("Count = %d, want 2", s.Count())
			}
			if err := s.WritePage(shortPage()); err == nil {
				t.Error("WritePage after Close: no error")
			}
			golden(t, "stream."+f, buf.Bytes())
		})
	}
}

// streamBytes writes pages as one stream of r and returns the output.
func streamBytes(t *testing.T, r Renderer, pages []*page.Page) []byte {
	t.Helper()
	var buf bytes.Buffer
	s := NewStream(&buf, r)
	for _, p := range pages {
		if err := s.WritePage(p); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestStreamCleanEval checks that a cleaneval stream splits back into the
// standalone documents at its <doc> lines.
func TestStreamCleanEval(t *testing.T) {
	pages := []*page.Page{fishPage(), shortPage(), {}, fishPage()}
	r, _ := Lookup("cleaneval", Options{CleanEvalHeader: true})
	buf := bytes.NewBuffer(streamBytes(t, r, pages))
	out := buf.String()
	if !strings.HasPrefix(out, "<doc>\n") {
		t.Fatalf("stream does not start with <doc>: %q", out[:min(len(out), 20)])
	}
	docs := strings.Split(out, "<doc>\n")[1:]
	if len(docs) != len(pages) {
		t.Fatalf("%d documents in the stream, want %d", len(docs), len(pages))
	}
	for i, p := range pages {
		var one bytes.Buffer
		if err := r.Render(&one, p); err != nil {
			t.Fatal(err)
		}
		if docs[i] != one.String() {
			t.Errorf("document %d:\n%q\nwant\n%q", i, docs[i], one.String())
		}
	}
}

func TestEmptyStreams(t *testing.T) {
	for _, f := range Formats() {
		r, _ := Lookup(f, Options{})
		var buf bytes.Buffer
		if err := NewStream(&buf, r).Close(); err != nil {
			t.Fatal(err)
		}
		switch f {
		case "html":
			if !strings.HasSuffix(buf.String(), "</html>\n") {
				t.Errorf("html: empty stream is not a document: %q", buf.String())
			}
		case "xml", "tei":
			if _, err := readXML(buf.Bytes()); err != nil {
				t.Errorf("%s: empty stream is not a document: %v: %q", f, err, buf.String())
			}
		default:
			if buf.Len() != 0 {
				t.Errorf("%s: empty stream wrote %q", f, buf.String())
			}
		}
	}
}

func TestJSONParsesBack(t *testing.T) {
	p := fishPage()
	for _, all := range []bool{false, true} {
		r, _ := Lookup("json", Options{IncludeDropped: all})
		var buf bytes.Buffer
		if err := r.Render(&buf, p); err != nil {
			t.Fatal(err)
		}
		if bytes.Count(buf.Bytes(), []byte{'\n'}) != 1 {
			t.Errorf("json output is not one line: %q", buf.String())
		}
		var d JSONDocument
		dec := json.NewDecoder(&buf)
		dec.DisallowUnknownFields()
		if err := dec.Decode(&d); err != nil {
			t.Fatal(err)
		}
		if d.URL != p.Meta.URL || d.Host != p.Meta.Host() || d.Title != p.Meta.Title || d.Encoding != p.Meta.Encoding {
			t.Errorf("meta = %q %q %q %q", d.URL, d.Host, d.Title, d.Encoding)
		}
		var text strings.Builder
		Text{}.Render(&text, p)
		if want := strings.TrimSuffix(text.String(), "\n"); d.Text != want {
			t.Errorf("text = %q, want the text format's %q", d.Text, want)
		}
		want := 0
		for _, b := range p.Blocks {
			if all || b.Label.Kept() {
				want++
			}
		}
		if len(d.Blocks) != want {
			t.Errorf("IncludeDropped=%v: %d blocks, want %d", all, len(d.Blocks), want)
		}
		for _, b := range d.Blocks {
			src := p.Blocks[b.Index]
			if b.Text != src.Text || b.Label != src.Label.String() || b.Score != math.Round(src.Score*1000)/1000 ||
				b.Start != src.Source.Start || b.End != src.Source.End {
				t.Errorf("block %d = %+v, source %+v", b.Index, b, src)
			}
		}
		segs := Segments(p)
		if len(d.Segments) != len(segs) {
			t.Fatalf("%d segments, want %d", len(d.Segments), len(segs))
		}
		for k, s := range d.Segments {
			if s.Label != segs[k].Label.String() || s.Text != segs[k].Text || !reflect.DeepEqual(s.Blocks, segs[k].Blocks) {
				t.Errorf("segment %d = %+v, want %+v", k, s, segs[k])
			}
		}
	}
	// An empty page has [] not null.
	var buf bytes.Buffer
	(&JSON{}).Render(&buf, &page.Page{})
	if want := `{"url":"","host":"","title":"","encoding":"","text":"","blocks":[],"segments":[]}` + "\n"; buf.String() != want {
		t.Errorf("empty page: %s", buf.String())
	}
}

func TestSegments(t *testing.T) {
	b := func(text string, l page.Label) page.Block { return block(text, 0, l) }
	pre := func(text string, l page.Label) page.Block { return preBlock(text, 0, l) }
	type seg struct {
		l    page.Label
		text string
		blks []int
	}
	cases := []struct {
		name   string
		blocks []page.Block
		want   []seg
	}{
		{"empty", nil, nil},
		{"all dropped", []page.Block{b("x", page.Other)}, nil},
		{"orphan continuation", []page.Block{b("a", page.Continuation), b("b", page.Continuation)},
			[]seg{{page.Paragraph, "a b", []int{0, 1}}}},
		{"dropped does not break", []page.Block{b("h", page.Heading), b("x", page.Other), b("c", page.Continuation)},
			[]seg{{page.Heading, "h c", []int{0, 2}}}},
		{"each opener", []page.Block{b("h", page.Heading), b("p", page.Paragraph), b("l", page.ListItem), b("m", page.ListItem)},
			[]seg{{page.Heading, "h", []int{0}}, {page.Paragraph, "p", []int{1}}, {page.ListItem, "l", []int{2}}, {page.ListItem, "m", []int{3}}}},
		{"pre lines", []page.Block{pre("a", page.Paragraph), pre("", page.Continuation), pre(" b", page.Continuation), b("c", page.Continuation)},
			[]seg{{page.Paragraph, "a\n\n b c", []int{0, 1, 2, 3}}}},
		{"empty texts", []page.Block{b("", page.Paragraph), b("a", page.Continuation), b("", page.Continuation), b("", page.ListItem), b("z", page.Paragraph)},
			[]seg{{page.Paragraph, "a", []int{0, 1, 2}}, {page.Paragraph, "z", []int{4}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := &page.Page{Nodes: []page.Node{node("p", -1)}, Blocks: c.blocks}
			var got []seg
			for _, s := range Segments(p) {
				got = append(got, seg{s.Label, s.Text, s.Blocks})
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got  %+v\nwant %+v", got, c.want)
			}
		})
	}
	// Appending to one segment's Blocks must not clobber the next one's.
	segs := Segments(fishPage())
	_ = append(segs[0].Blocks, -1)
	if segs[1].Blocks[0] != 1 {
		t.Errorf("segments share spare capacity: %v", segs[1].Blocks)
	}
}

func TestLookup(t *testing.T) {
	for _, name := range []string{"cleaneval", "CE", "text", "txt", "plain", "markdown", "md", "json", "HTML", " htm ", "xml", "TEI", "xmltei"} {
		if _, err := Lookup(name, Options{}); err != nil {
			t.Errorf("Lookup(%q): %v", name, err)
		}
	}
	_, err := Lookup("docx", Options{})
	if err == nil {
		t.Fatal("Lookup(docx): no error")
	}
	for _, f := range append(Formats(), `"docx"`) {
		if !strings.Contains(err.Error(), f) {
			t.Errorf("error does not mention %s: %v", f, err)
		}
	}
	if got, want := Formats(), []string{"cleaneval", "text", "markdown", "json", "html", "parser", "xml", "tei"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Formats() = %v, want %v", got, want)
	}
	for name, want := range map[string]string{"ce": ".txt", "text": ".txt", " Markdown": ".md", "json": ".json", "htm": ".html", "parser": ".txt", "xml": ".xml", "xmltei": ".xml", "docx": ".txt"} {
		if got := Ext(name); got != want {
			t.Errorf("Ext(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestMarkdownEscapes checks single lines, and that removing the escapes
// gives back the text.
func TestMarkdownEscapes(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain text", "plain text"},
		{"# not a heading", `\# not a heading`},
		{"#hashtag and C#", "#hashtag and C#"},
		{"###### six", `\###### six`},
		{"####### seven", "####### seven"},
		{"#", `\#`},
		{"1.", `1\.`},
		{"- dash", `\- dash`},
		{"+ plus", `\+ plus`},
		{"* star *x*", `\* star \*x\*`},
		{"> quote", `\> quote`},
		{"=====", `\=====`},
		{"1. one", `1\. one`},
		{"2024) year", `2024\) year`},
		{"1234567890. long", "1234567890. long"},
		{"3.14 is pi", "3.14 is pi"},
		{"snake_case _em_ x_", `snake_case \_em\_ x\_`},
		{"a < b, <b>bold</b> <!-- c --> <?x", `a < b, \<b>bold\</b> \<!-- c --> \<?x`},
		{"R&D &amp; &#32; & x", `R&D \&amp; \&#32; & x`},
		{"[link](x) ![img](y) `code` ~~del~~ back\\slash", "\\[link](x) !\\[img](y) \\`code\\` \\~\\~del\\~\\~ back\\\\slash"},
		{"  indented  ", "indented"},
		{"é_é _é", `é_é \_é`},
	}
	for _, c := range cases {
		var buf bytes.Buffer
		w := newTestWriter(&buf)
		mdLine(w, c.in, false)
		w.Flush()
		if buf.String() != c.want {
			t.Errorf("mdLine(%q) = %q, want %q", c.in, buf.String(), c.want)
		}
		if un := unescapeMD(buf.String()); un != strings.TrimSpace(c.in) {
			t.Errorf("unescape(mdLine(%q)) = %q", c.in, un)
		}
	}
	var buf bytes.Buffer
	w := newTestWriter(&buf)
	mdLine(w, "Notes on C # and F## ##", true)
	w.Flush()
	if want := `Notes on C \# and F## \##`; buf.String() != want {
		t.Errorf("heading: %q, want %q", buf.String(), want)
	}
}

// unescapeMD removes CommonMark backslash escapes.
func unescapeMD(s string) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", s[i+1]) >= 0 {
			i++
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}

func TestMarkdownFence(t *testing.T) {
	p := &page.Page{
		Nodes:  []page.Node{node("pre", -1)},
		Blocks: []page.Block{preBlock("a ```` b", 0, page.Paragraph), preBlock("```", 0, page.Continuation)},
	}
	var buf bytes.Buffer
	Markdown{}.Render(&buf, p)
	if want := "`````\na ```` b\n```\n`````\n"; buf.String() != want {
		t.Errorf("got %q, want %q", buf.String(), want)
	}
}

// TestWriteError checks that a failing writer's error comes back.
func TestWriteError(t *testing.T) {
	for _, f := range Formats() {
		r, _ := Lookup(f, Options{})
		if err := r.Render(failWriter{}, fishPage()); err != errFail {
			t.Errorf("%s: Render error = %v, want %v", f, err, errFail)
		}
		s := NewStream(failWriter{}, r)
		s.WritePage(fishPage())
		if err := s.Close(); err != errFail {
			t.Errorf("%s: Close error = %v, want %v", f, err, errFail)
		}
	}
}

// TestConcurrentRender renders one page with shared renderers from several
// goroutines (run with -race).
func TestConcurrentRender(t *testing.T) {
	p := fishPage()
	var rs []Renderer
	for _, f := range Formats() {
		r, _ := Lookup(f, Options{})
		rs = append(rs, r)
	}
	want := make([]string, len(rs))
	for i, r := range rs {
		var buf bytes.Buffer
		r.Render(&buf, p)
		want[i] = buf.String()
	}
	done := make(chan error)
	for range 8 {
		go func() {
			for i, r := range rs {
				var buf bytes.Buffer
				if err := r.Render(&buf, p); err != nil || buf.String() != want[i] {
					done <- fmt.Errorf("%s: concurrent output differs (err %v)", Formats()[i], err)
					return
				}
			}
			done <- nil
		}()
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
