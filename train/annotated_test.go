package train

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/dataset"
	"github.com/sluice-project/sluice/evaluate"
	"github.com/sluice-project/sluice/page"
)

// annotatedPages are the pages of the annotated set of
// TestLoadTrainingAnnotated, with the labels a person gave their blocks.
var annotatedPages = []struct {
	name, html string
	labels     []page.Label
}{
	{"river.example_1", `<ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li></ul>
<h1>Rivers of the north</h1><p>The rivers of the north <a href="/cold">run cold</a><br>and fast in spring.</p>
<ul><li>Salmon</li><li>Trout</li></ul><p>&copy; 2026 River News</p>`,
		[]page.Label{page.Other, page.Other, page.Heading, page.Paragraph, page.Continuation, page.ListItem, page.ListItem, page.Other}},
	{"river.example_2", `<div>Menu</div><h2>Lakes</h2><p>The lakes are deep and still.</p><p>Share this</p>`,
		[]page.Label{page.Other, page.Heading, page.Paragraph, page.Other}},
	{"mill.example_1", `<h1>Mills</h1><p>The mill wheel turns again after sixty years.</p><div>Advertisement</div>`,
		[]page.Label{page.Heading, page.Paragraph, page.Other}},
	{"mill.example_2", `<p>Only boilerplate here.</p>`, []page.Label{page.Other}},
}

// writeAnnotatedSet writes the pages and their annotations as an annotated
// data set in a new folder.
func writeAnnotatedSet(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "hand")
	c, err := sluice.New(sluice.Options{Filter: sluice.DefaultFilter})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"html", "ann"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range annotatedPages {
		res, err := c.Segment(context.Background(), sluice.Input{Data: []byte(p.html)})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Page.Blocks) != len(p.labels) {
			var texts []string
			for _, b := range res.Page.Blocks {
				texts = append(texts, b.Text)
			}
			t.Fatalf("%s: %d blocks %q, the test has %d labels", p.name, len(texts), texts, len(p.labels))
		}
		var ann bytes.Buffer
		if err := WriteAnnotation(&ann, res.Page, p.labels); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "html", p.name+".html"), []byte(p.html), 0o644)
		os.WriteFile(filepath.Join(dir, "ann", p.name+".ann"), ann.Bytes(), 0o644)
	}
	return dir
}

// TestLoadTrainingAnnotated checks that the labels of an annotated set are
// the annotation's, continuation and all-[o] pages included, that a page
// whose annotation does not match is left out with its file and line, and
// that cross-validation scores the set with CleanEval F1 against the
// annotated content.
func TestLoadTrainingAnnotated(t *testing.T) {
	dir := writeAnnotatedSet(t)
	// A page whose annotation was edited beyond its labels.
	os.WriteFile(filepath.Join(dir, "html", "bad.html"), []byte(`<h1>Title</h1><p>Body text.</p>`), 0o644)
	os.WriteFile(filepath.Join(dir, "ann", "bad.ann"), []byte("[h] Title\n[p] Body txet.\n"), 0o644)

	var reasons []string
	pages, skipped, err := LoadTraining(context.Background(), []string{dir}, LoadOptions{
		Skip: func(set *dataset.Set, id string, reason error) {
			if set.Kind != dataset.Annotated {
				t.Errorf("set kind %q", set.Kind)
			}
			var se *SkipError
			if !errors.As(reason, &se) {
				t.Errorf("%s: reason %v is not a *SkipError", id, reason)
			}
			reasons = append(reasons, id+": "+reason.Error())
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if skipped["hand"] != 1 || len(reasons) != 1 {
		t.Fatalf("skipped %v, reasons %q; want bad alone", skipped, reasons)
	}
	wantReason := "bad: " + filepath.Join(dir, "ann", "bad.ann") + ":2: this line does not match block 2"
	if !strings.HasPrefix(reasons[0], wantReason) {
		t.Errorf("reason %q, want it to start with %q", reasons[0], wantReason)
	}
	if len(pages) != len(annotatedPages) {
		t.Fatalf("%d pages, want %d", len(pages), len(annotatedPages))
	}
	byID := map[string]*TrainPage{}
	for _, p := range pages {
		byID[p.Data.ID] = p
		if p.Kind != dataset.Annotated || p.Quality != 1 {
			t.Errorf("%s: Kind, Quality = %q, %v", p.Data.ID, p.Kind, p.Quality)
		}
	}
	for _, want := range annotatedPages {
		p := byID[want.name]
		if p == nil {
			t.Errorf("%s: missing", want.name)
			continue
		}
		if !slices.Equal(p.Example.Labels, want.labels) {
			t.Errorf("%s: labels %v, want the annotation's %v", want.name, p.Example.Labels, want.labels)
		}
	}
	if g := byID["river.example_1"].Data.Gold.Text; g != "Rivers of the north\n\nThe rivers of the north run cold and fast in spring.\n\nSalmon\n\nTrout" {
		t.Errorf("gold text %q", g)
	}

	// Two sites, two folds; scored with CleanEval text-only F1.
	res, err := CrossValidate(context.Background(), pages, 2, Config{MaxIterations: 5, MinCount: 1, Workers: 1}, 0.5, nil)
	if err != nil {
		t.Fatal(err)
	}
	ss := res.Overall.Sets["hand"]
	if ss == nil || ss.Metric != "cleaneval" || ss.main.Pages() != len(pages) || ss.labelled.Pages() != len(pages) {
		t.Fatalf("set scores %+v, want CleanEval text-only and labelled over %d pages", ss, len(pages))
	}
	if evaluate.Main(dataset.Annotated) != "cleaneval" {
		t.Errorf("evaluate.Main(annotated) = %q", evaluate.Main(dataset.Annotated))
	}
}
