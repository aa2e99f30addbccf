package evaluate

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/dataset"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/score"
)

func TestFromFile(t *testing.T) {
	o := FromFile("URL: http://x\n\n<h>Title\n<p> First line\ncontinued\n<l>item\n")
	if o.Text != "Title\n\nFirst line continued\n\nitem" {
		t.Errorf("text = %q", o.Text)
	}
	o = FromFile("Plain one.\n\nPlain two.\n")
	if o.CleanEval != "<p> Plain one.\n<p> Plain two.\n" {
		t.Errorf("cleaneval = %q", o.CleanEval)
	}
}

func TestGoldCleanEval(t *testing.T) {
	g := &dataset.Gold{Segments: []dataset.Segment{{Label: page.Heading, Text: "T"}, {Label: page.ListItem, Text: "i"}}}
	if got := GoldCleanEval(g); got != "<h> T\n<l> i\n" {
		t.Errorf("from segments: %q", got)
	}
	g = &dataset.Gold{Raw: "URL: u\n<p>x", Text: "x"}
	if got := GoldCleanEval(g); got != g.Raw {
		t.Errorf("cleaneval gold not kept as is: %q", got)
	}
	g = &dataset.Gold{Raw: "a\n\nb", Text: "a\n\nb"}
	if got := GoldCleanEval(g); got != "<p> a\n<p> b\n" {
		t.Errorf("from text: %q", got)
	}
}

func TestMetricsPerfectAndEmpty(t *testing.T) {
	g := &dataset.Gold{Raw: "<h>The title\n<p>Some words of text here.", Text: "The title\n\nSome words of text here.",
		With: []string{"words of text"}, Without: []string{"cookie"}}
	perfect := FromFile(g.Raw)
	for _, name := range Names() {
		m, _ := Lookup(name)
		if f := m.Score(perfect, g).F1(); f != 1 {
			t.Errorf("%s: F1 of the gold itself = %v", name, f)
		}
		if f := m.Score(&Output{}, g).F1(); f != 0 {
			t.Errorf("%s: F1 of an empty output = %v", name, f)
		}
	}
	if _, err := Lookup("nope"); err == nil || !strings.Contains(err.Error(), "bow") {
		t.Errorf("unknown metric error = %v", err)
	}
}

// TestMainOfKinds checks that every registered data set kind's main
// metric is one of the metrics here, and that Main gives it.
func TestMainOfKinds(t *testing.T) {
	for _, k := range dataset.Kinds() {
		if _, err := Lookup(k.MainMetric()); err != nil {
			t.Errorf("kind %q: %v", k.Kind(), err)
		}
		if Main(k.Kind()) != k.MainMetric() {
			t.Errorf("Main(%q) = %q, want %q", k.Kind(), Main(k.Kind()), k.MainMetric())
		}
	}
	if Main(dataset.CleanEval) != "cleaneval" || Main(dataset.Annotated) != "cleaneval" ||
		Main(dataset.WCXB) != "bow" || Main(dataset.L3S) != "bow" || Main("") != "bow" {
		t.Error("Main: the CleanEval and annotated sets are measured with cleaneval, the others with bow")
	}
}

func TestBenchOnFixtureSet(t *testing.T) {
	res, err := Bench(context.Background(), BenchConfig{
		Pipelines: []string{"lqf>targetnode", "bte", "union(dsc,bte)"},
		Sets:      []string{"../dataset/testdata/cleaneval"},
		Jobs:      2,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Sets) != 1 || len(res.Sets[0].Pipelines) != 3 {
		t.Fatalf("result shape: %+v", res)
	}
	s := res.Sets[0]
	if s.Metric != "cleaneval" || s.Pages == 0 {
		t.Errorf("set %s: metric %s, %d pages", s.Set, s.Metric, s.Pages)
	}
	for _, p := range s.Pipelines {
		if f := p.Score.Macro.F1; !(f > 0 && f <= 1) || p.PagesPerSec <= 0 || p.Score.Pages != s.Pages {
			t.Errorf("%s: F1 %v, %v pages/s, %d pages", p.Pipeline, f, p.PagesPerSec, p.Score.Pages)
		}
	}
	var table, md bytes.Buffer
	WriteTable(&table, res, res)
	WriteMarkdown(&md, res, nil)
	if !strings.Contains(table.String(), "union(dsc,bte)") || !strings.Contains(table.String(), "+0.00") {
		t.Errorf("table:\n%s", table.String())
	}
	if !strings.Contains(md.String(), "| `bte` |") {
		t.Errorf("markdown:\n%s", md.String())
	}
	if _, err := Bench(context.Background(), BenchConfig{Pipelines: []string{"nope"}, Sets: []string{"x"}}); err == nil {
		t.Errorf("an unknown pipeline was accepted")
	}
}

// TestCleanEvalAsScript: plain text outputs keep a no-break space inside
// its word, as cleaneval.py's byte-level split does, and a gold of only a
// URL line is scored as the file it is.
func TestCleanEvalAsScript(t *testing.T) {
	if got := FromText("one two\u00a0\n\nthree").CleanEval; got != "<p> one two\u00a0\n<p> three\n" {
		t.Errorf("FromText kept %q", got)
	}
	g := &dataset.Gold{Raw: "URL: http://example.com/\n"}
	if got := GoldCleanEval(g); got != g.Raw {
		t.Errorf("GoldCleanEval of a URL-only gold = %q, want the file", got)
	}
}

// TestBenchLanguages: a set whose pages record languages gets a row per
// language; the metric's label says when CJK runs are kept whole.
func TestBenchLanguages(t *testing.T) {
	res, err := Bench(context.Background(), BenchConfig{
		Pipelines: []string{"lqf>targetnode"},
		Sets:      []string{"../dataset/testdata/dragnet"},
		Jobs:      1,
		CJK:       score.CJKRuns,
	})
	if err != nil {
		t.Fatal(err)
	}
	s := res.Sets[0]
	if want := []string{"", "de", "en"}; !slices.Equal(s.Languages, want) || s.Metric != "bow, cjk-words" {
		t.Fatalf("languages %q, metric %q", s.Languages, s.Metric)
	}
	p := s.Pipelines[0]
	n := 0
	for _, r := range p.ByLanguage {
		n += r.Pages
	}
	if len(p.ByLanguage) != 3 || n != p.Score.Pages || p.ByLanguage["de"].Pages != 1 {
		t.Errorf("by language: %+v", p.ByLanguage)
	}
	var table, md bytes.Buffer
	WriteTable(&table, res, nil)
	WriteMarkdown(&md, res, nil)
	for _, want := range []string{"languages unknown de en", "  de (1)", "  unknown (2)"} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, table.String())
		}
	}
	if !strings.Contains(md.String(), "| en (1 pages) |") {
		t.Errorf("markdown:\n%s", md.String())
	}
	if got := languages([]*dataset.Page{{}, {}}); got != nil {
		t.Errorf("languages of pages without one = %q", got)
	}
}
