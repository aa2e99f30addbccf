package dataset

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/page"
)

// The tests in this file run on the tiny fake data sets in testdata/, one
// folder per layout, written for these tests.

// readAll opens dir and returns its pages by id and its errors.
func readAll(t *testing.T, dir string) (*Set, map[string]*Page, []error) {
	t.Helper()
	s, err := Open(dir)
	if err != nil {
		t.Fatalf("Open(%q): %v", dir, err)
	}
	pages := map[string]*Page{}
	var errs []error
	var order []string
	for p, err := range s.Pages() {
		if err != nil {
			errs = append(errs, err)
			var pe *PageError
			if !errors.As(err, &pe) {
				t.Errorf("error %v is not a *PageError", err)
			} else {
				order = append(order, pe.ID)
			}
			continue
		}
		if p.Set != s.Name {
			t.Errorf("page %s: Set = %q, want %q", p.ID, p.Set, s.Name)
		}
		if len(p.HTML) == 0 {
			t.Errorf("page %s: no HTML", p.ID)
		}
		pages[p.ID] = p
		order = append(order, p.ID)
	}
	if !slices.Equal(order, s.IDs()) {
		t.Errorf("Pages order %q, IDs %q", order, s.IDs())
	}
	if s.Len() != len(order) {
		t.Errorf("Len = %d, pages+errors = %d", s.Len(), len(order))
	}
	return s, pages, errs
}

func segs(pairs ...any) []Segment {
	var out []Segment
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, Segment{Label: pairs[i].(page.Label), Text: pairs[i+1].(string)})
	}
	return out
}

func TestCleanEval(t *testing.T) {
	s, pages, errs := readAll(t, filepath.Join("testdata", "cleaneval"))
	if s.Kind != CleanEval || s.Name != "cleaneval" {
		t.Errorf("Kind, Name = %q, %q", s.Kind, s.Name)
	}
	if want := []string{"1", "2", "3", "10", "news.example.com_1"}; !slices.Equal(s.IDs(), want) {
		t.Errorf("IDs = %q, want %q", s.IDs(), want)
	}
	// 3.html has no gold file: one error naming it, the others still read.
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), filepath.Join("gold", "3.txt")) || !errors.Is(errs[0], fs.ErrNotExist) {
		t.Errorf("errors = %v, want one for the missing gold/3.txt", errs)
	}

	p := pages["1"]
	if p.URL != "http://example.org/a/page-one.html" || p.Site != "example.org" {
		t.Errorf("1: URL, Site = %q, %q", p.URL, p.Site)
	}
	want := segs(page.Heading, "Garden notes",
		page.Paragraph, "Plant tomatoes in May.",
		page.ListItem, "* seeds",
		page.ListItem, "* water every day",
		page.Paragraph, "AT&T & R&D say café ’s A done")
	if !reflect.DeepEqual(p.Gold.Segments, want) {
		t.Errorf("1: Segments = %q, want %q", p.Gold.Segments, want)
	}
	if p.Gold.Text != segmentsText(want) {
		t.Errorf("1: Text = %q", p.Gold.Text)
	}
	if !strings.HasPrefix(p.Gold.Raw, "URL: ") || !strings.Contains(p.Gold.Raw, "&#8217;") {
		t.Errorf("1: Raw is not the file as it is: %q", p.Gold.Raw)
	}

	// BOM, CRLF, the URL on the next line, windows-1252 bytes mixed with
	// UTF-8; no wrapper in the HTML, so the URL comes from the gold.
	p = pages["2"]
	if p.URL != "http://example.org/b/2.html" {
		t.Errorf("2: URL = %q", p.URL)
	}
	want = segs(page.Paragraph, "Crème brûlée – a “classic”", page.Heading, "Peña")
	if !reflect.DeepEqual(p.Gold.Segments, want) {
		t.Errorf("2: Segments = %q, want %q", p.Gold.Segments, want)
	}
	if strings.HasPrefix(p.Gold.Raw, "\ufeff") || !strings.Contains(p.Gold.Raw, "\r\n") {
		t.Errorf("2: Raw should drop the BOM and keep CRLF: %q", p.Gold.Raw)
	}

	// A gold holding only a comment is an empty gold, not an error; the
	// wrapper's id wins over the gold's URL line.
	p = pages["10"]
	if p.Gold.Text != "" || p.Gold.Segments != nil {
		t.Errorf("10: Text, Segments = %q, %q; want empty", p.Gold.Text, p.Gold.Segments)
	}
	if p.URL != "http://example.org/c/10.html" {
		t.Errorf("10: URL = %q", p.URL)
	}

	// cleanportaleval naming: the site from the file name.
	if p := pages["news.example.com_1"]; p.Site != "news.example.com" {
		t.Errorf("news.example.com_1: Site = %q", p.Site)
	}
}

func TestDragnet(t *testing.T) {
	s, pages, errs := readAll(t, filepath.Join("testdata", "dragnet"))
	if s.Kind != Dragnet {
		t.Errorf("Kind = %q", s.Kind)
	}
	if len(errs) != 0 {
		t.Errorf("errors: %v", errs)
	}
	if want := []string{"1", "2", "5", "R10"}; !slices.Equal(s.IDs(), want) {
		t.Errorf("IDs = %q, want %q", s.IDs(), want)
	}
	p := pages["1"]
	if want := "Title one\n\nBody one.\n\nSecond line.\n\nCOMMENTS"; p.Gold.Text != want {
		t.Errorf("1: Text = %q, want %q", p.Gold.Text, want)
	}
	if want := "Nice post!\n\nThanks."; p.Gold.Comments != want {
		t.Errorf("1: Comments = %q, want %q", p.Gold.Comments, want)
	}
	if p.URL != "" || p.Site != "" || p.Gold.Segments != nil {
		t.Errorf("1: URL, Site, Segments = %q, %q, %v; want none", p.URL, p.Site, p.Gold.Segments)
	}
	if want := "It’s here – “quoted”\n\nDone."; pages["2"].Gold.Text != want {
		t.Errorf("2 (windows-1252): Text = %q, want %q", pages["2"].Gold.Text, want)
	}
	if want := "Forgiving your enemies\n\nby Paulo Coelho"; pages["R10"].Gold.Text != want {
		t.Errorf("R10 (UTF-16LE): Text = %q, want %q", pages["R10"].Gold.Text, want)
	}
	if p := pages["5"]; p.Gold.Text != "" || p.Gold.Raw != "" {
		t.Errorf("5 (empty gold): Text = %q", p.Gold.Text)
	}
	// meta.tsv gives languages and sites; a page it does not list has
	// none.
	for id, want := range map[string]string{"1": "en", "2": "de", "5": ""} {
		if got := pages[id].Lang; got != want {
			t.Errorf("%s: Lang = %q, want %q", id, got, want)
		}
	}
	if got := pages["2"].Site; got != "example.de" {
		t.Errorf("2: Site = %q, want example.de", got)
	}
}

func TestReadMeta(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "meta.tsv")
	if m, err := readMeta(path); m != nil || err != nil {
		t.Errorf("missing file: %v, %v", m, err)
	}
	os.WriteFile(path, []byte("site\tlanguage\nx\tzh\n"), 0o644)
	if m, err := readMeta(path); m != nil || err != nil {
		t.Errorf("no id column: %v, %v", m, err)
	}
	os.WriteFile(path, []byte("id\tsite\turl\n1\tx.cn\thttp://x.cn/1\n"), 0o644)
	if m, err := readMeta(path); err != nil || m["1"] != (metaRow{site: "x.cn", url: "http://x.cn/1"}) {
		t.Errorf("no language column: %v, %v", m, err)
	}
	os.WriteFile(path, []byte("id\tlanguage\r\na\tzh\r\nb\n"), 0o644)
	if _, err := readMeta(path); err == nil || !strings.Contains(err.Error(), "meta.tsv:3:") {
		t.Errorf("short row: error %v", err)
	}
}

func TestL3S(t *testing.T) {
	s, pages, errs := readAll(t, filepath.Join("testdata", "l3s"))
	if s.Kind != L3S {
		t.Errorf("Kind = %q", s.Kind)
	}
	// The second page has no annotated file.
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "annotated") {
		t.Errorf("errors = %v, want one for the missing annotated file", errs)
	}
	p := pages["0a1b2c3d-0000-4000-8000-000000000001"]
	if p == nil {
		t.Fatal("page 1 missing")
	}
	if p.URL != "http://www.News.example.com/2008/storm.html" || p.Site != "news.example.com" || p.Charset != "utf-8" {
		t.Errorf("URL, Site, Charset = %q, %q, %q", p.URL, p.Site, p.Charset)
	}
	want := []Span{
		{Class: ClassBoilerplate, Text: "Home", Block: 0},
		{Class: ClassBoilerplate, Text: "|", Block: 0},
		{Class: ClassBoilerplate, Text: "World", Block: 0},
		{Class: ClassHeadline, Text: "Storm hits the coast", Block: 1},
		{Class: ClassSupplemental, Text: "By A. Reporter", Block: 2},
		{Class: ClassFullText, Text: "Heavy rain fell on", Block: 3},
		{Class: ClassFullText, Text: "Tuesday", Block: 3},
		{Class: ClassFullText, Text: "'s market.", Block: 3, Glued: true},
		{Class: ClassFullText, Text: "Nested inner wins.", Block: 4},
		{Class: ClassFullText, Text: "After the break.", Block: 5},
		{Class: ClassFullText, Text: "Hidden text.", Block: 6, Hidden: true},
		{Class: ClassBoilerplate, Text: "Enable scripts", Block: 7, Hidden: true},
		{Class: ClassRelated, Text: "Related story", Block: 8},
		{Class: ClassComments, Text: "First!", Block: 9},
		{Class: ClassBoilerplate, Text: "Outside any span", Block: 10},
	}
	if !reflect.DeepEqual(p.Gold.Spans, want) {
		t.Errorf("Spans:\n got %+v\nwant %+v", p.Gold.Spans, want)
	}
	wantText := "Storm hits the coast\n\nHeavy rain fell on Tuesday's market.\n\nNested inner wins.\n\nAfter the break."
	if p.Gold.Text != wantText {
		t.Errorf("Text = %q, want %q", p.Gold.Text, wantText)
	}
	if got := p.Gold.SpanText(1, 2, 3); !strings.Contains(got, "\n\nBy A. Reporter\n\n") {
		t.Errorf("SpanText(1, 2, 3) = %q, want the supplemental block", got)
	}
	if !strings.Contains(p.Gold.Raw, "x-nc-sel1") {
		t.Errorf("Raw is not the annotated page")
	}
}

func TestWCXB(t *testing.T) {
	s, pages, errs := readAll(t, filepath.Join("testdata", "wcxb"))
	if s.Kind != WCXB {
		t.Errorf("Kind = %q", s.Kind)
	}
	// 0010 has broken JSON, 0011 a broken gzip file.
	var bad []string
	for _, err := range errs {
		var pe *PageError
		errors.As(err, &pe)
		bad = append(bad, filepath.Base(pe.Path))
	}
	if want := []string{"0010.json", "0011.html.gz"}; !slices.Equal(bad, want) {
		t.Errorf("errors %v, want for %q", errs, want)
	}
	p := pages["0001"]
	if !strings.HasPrefix(string(p.HTML), "<!DOCTYPE html>") {
		t.Errorf("0001: HTML not gunzipped: %q", p.HTML[:min(20, len(p.HTML))])
	}
	got := Gold{Text: p.Gold.Text, With: p.Gold.With, Without: p.Gold.Without, Title: p.Gold.Title,
		Author: p.Gold.Author, Date: p.Gold.Date, PageType: p.Gold.PageType}
	want := Gold{Text: "Best rugs\n\nSoft and warm.\n\nMachine washable.", With: []string{"Soft and warm."},
		Without: []string{"Home"}, Title: "Best rugs", Date: "2025-01-02", PageType: "product"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("0001: gold\n got %+v\nwant %+v", got, want)
	}
	if p.Gold.Raw != "Best rugs\nSoft and warm.\n\nMachine   washable.\r\n" || !strings.HasPrefix(p.Gold.Markdown, "# Best rugs") {
		t.Errorf("0001: Raw, Markdown = %q, %q", p.Gold.Raw, p.Gold.Markdown)
	}
	if p.URL != "https://www.shop.example/rugs/best" || p.Site != "shop.example" {
		t.Errorf("0001: URL, Site = %q, %q", p.URL, p.Site)
	}
	// No main_content, a bare string for "with", URL and page type under
	// ground_truth.
	p = pages["0002"]
	if p.Gold.Text != "" || !slices.Equal(p.Gold.With, []string{"I would check out the Zoom98."}) ||
		p.URL != "https://forum.example.org/t/42" || p.Gold.PageType != "forum" || p.Gold.Date != "" {
		t.Errorf("0002: %+v, URL %q", p.Gold, p.URL)
	}
}

func TestReadability(t *testing.T) {
	s, pages, errs := readAll(t, filepath.Join("testdata", "readability"))
	if s.Kind != Readability || len(errs) != 0 {
		t.Errorf("Kind = %q, errors %v", s.Kind, errs)
	}
	p := pages["001"]
	want := segs(page.Heading, "All about cows",
		page.Paragraph, "Cows eat grass & hay.",
		page.ListItem, "Milk",
		page.ListItem, "Cheese",
		page.Paragraph, "Moo.",
		page.Paragraph, "Said the cow",
		page.Paragraph, "Cell A",
		page.Paragraph, "Cell B",
		page.Paragraph, "line one",
		page.Paragraph, "line two")
	if !reflect.DeepEqual(p.Gold.Segments, want) {
		t.Errorf("Segments:\n got %q\nwant %q", p.Gold.Segments, want)
	}
	if p.Gold.Text != segmentsText(want) {
		t.Errorf("Text = %q", p.Gold.Text)
	}
	if p := pages["002-empty"]; p.Gold.Text != "" || p.Gold.Segments != nil {
		t.Errorf("002-empty: Text = %q", p.Gold.Text)
	}
}

func TestOpenErrors(t *testing.T) {
	_, err := Open(filepath.Join("testdata", "unknown"))
	if err == nil || !strings.Contains(err.Error(), filepath.Join("testdata", "unknown")) || !strings.Contains(err.Error(), "expected") {
		t.Errorf("Open(unknown layout) = %v, want an error naming the folder and the layouts expected", err)
	}
	if _, err := Open(filepath.Join("testdata", "nonexistent")); err == nil {
		t.Error("Open(nonexistent) succeeded")
	}
	s, err := Open(filepath.Join("testdata", "dragnet"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Page("nope"); err == nil {
		t.Error("Page(nope) succeeded")
	}
	// Stopping early stops the iteration.
	n := 0
	for range s.Pages() {
		n++
		break
	}
	if n != 1 {
		t.Errorf("break after one page: %d pages", n)
	}
}

func TestRootAndSets(t *testing.T) {
	t.Setenv(EnvData, "testdata")
	root, err := Root()
	if err != nil || root != "testdata" {
		t.Fatalf("Root() = %q, %v", root, err)
	}
	names, err := Sets()
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"annotated", "cleaneval", "dragnet", "l3s", "readability", "wcxb"}; !slices.Equal(names, want) {
		t.Errorf("Sets() = %q, want %q", names, want)
	}
	s, err := Open("wcxb") // a bare name: under the root
	if err != nil || s.Kind != WCXB {
		t.Errorf("Open(wcxb) = %v, %v", s, err)
	}
	t.Setenv(EnvData, filepath.Join("testdata", "nonexistent"))
	if _, err := Root(); err == nil {
		t.Error("Root() with a missing $SLUICE_DATA succeeded")
	}
}

func TestRootFromModule(t *testing.T) {
	t.Setenv(EnvData, "")
	root, err := Root()
	if err != nil {
		t.Skipf("no shared data: %v", err)
	}
	if filepath.Base(root) != "data" || filepath.Base(filepath.Dir(root)) != "shared" {
		t.Errorf("Root() = %q, not ../shared/data of the module", root)
	}
}

func TestDecodeText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain", "plain"},
		{"\xef\xbb\xbfbom", "bom"},
		{"caf\xe9", "café"},                      // ISO-8859-1
		{"\x93q\x94 \x85", "“q” …"},              // windows-1252
		{"Peque\xc3\xb1o \xb7 x", "Pequeño · x"}, // mixed
		{"a\x81b", "a\u0081b"},                   // undefined in windows-1252
		{"\xff\xfeh\x00i\x00", "hi"},             // UTF-16LE
		{"\xfe\xff\x00h\x00i", "hi"},             // UTF-16BE
		{"\xff\xfeh\x00i\x00!", "hi"},            // odd trailing byte
		{"", ""},
	} {
		if got := decodeText([]byte(tc.in)); got != tc.want {
			t.Errorf("decodeText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCollapse(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a b", "a b"},
		{"  a \t\n b  ", "a b"},
		{"a\u00a0\u0080b", "a b"},
		{"", ""},
		{" ", ""},
		{"a  b", "a b"},
	} {
		if got := collapse(tc.in); got != tc.want {
			t.Errorf("collapse(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestDragnetMarker(t *testing.T) {
	for line, want := range map[string]bool{
		"!@#$%^&*()  COMMENTS":    true,
		"!@#$%^&*()  COMMENTS\r":  true,
		"!!@#$%^&*()  COMMENTS":   true,
		"!@ $%^&*()  COMMENTS":    true,
		"!@#$%^&*   COMMENTS":     true,
		"!@#$%^&*()  \tCOMMENTS":  true,
		"!@#$%^&*() CORRECTED":    true,
		"!@#$%^&*()":              true,
		"   !@#$%^&*()  COMMENTS": true,
		"      COMMENTS":          false,
		"*****":                   false,
		"!!! wow !!!":             false,
		"$%^& COMMENTS":           false,
		"":                        false,
		"!@#$%^&*() two words":    false,
	} {
		if got := isDragnetMarker(line); got != want {
			t.Errorf("isDragnetMarker(%q) = %v, want %v", line, got, want)
		}
	}
}

func TestCompareIDs(t *testing.T) {
	ids := []string{"10", "R10", "2", "R9", "1", "001", "01", "a10b", "a9b", "bbc_news_10", "bbc_news_09"}
	slices.SortFunc(ids, compareIDs)
	want := []string{"001", "01", "1", "2", "10", "R9", "R10", "a9b", "a10b", "bbc_news_09", "bbc_news_10"}
	if !slices.Equal(ids, want) {
		t.Errorf("sorted %q, want %q", ids, want)
	}
}

func TestParseCleanEvalEdgeCases(t *testing.T) {
	for _, tc := range []struct {
		in, url string
		segs    []Segment
	}{
		{"", "", nil},
		{"URL: http://x/\n", "http://x/", nil},
		{"no tags at all", "", segs(page.Paragraph, "no tags at all")},
		{"URL: u\nlead <h>H<P>p<L>l", "u", segs(page.Paragraph, "lead", page.Heading, "H", page.Paragraph, "p", page.ListItem, "l")},
		{"URL: u\n<pIn the past <p>x", "u", segs(page.Paragraph, "<pIn the past", page.Paragraph, "x")},
		{"URL: \n<p>not a url line", "", segs(page.Paragraph, "not a url line")},
		// A lone "\r" ends the URL line too (the fuzz crasher "URL:0\r0").
		{"URL:0\r0", "0", segs(page.Paragraph, "0")},
		{"URL: u\r\n<p>crlf", "u", segs(page.Paragraph, "crlf")},
		{"URL: \r\rhttp://x/\r<p>mac", "http://x/", segs(page.Paragraph, "mac")},
	} {
		url, got := parseCleanEval(tc.in)
		if url != tc.url || !reflect.DeepEqual(got, tc.segs) {
			t.Errorf("parseCleanEval(%q) = %q, %q; want %q, %q", tc.in, url, got, tc.url, tc.segs)
		}
	}
}
