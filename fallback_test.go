package sluice

import (
	"context"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/page"
)

// TestNoMainContent cleans the shell of a page that a script fills in
// (testdata/shell.html: a noscript notice, an empty root element and a
// footer of links). The model keeps nothing of it and judges the text the
// fallback pipeline chooses boilerplate too, so the page comes out empty,
// with a warning that says why; with KeepFallback the pipeline's text is
// kept, as before FallbackFloor.
func TestNoMainContent(t *testing.T) {
	data := readTestdata(t, "shell.html")
	for _, keep := range []bool{false, true} {
		res := cleanWith(t, Options{KeepFallback: keep}, data)
		text := res.Text()
		warned := strings.Contains(strings.Join(res.Warnings, "\n"), "no main content")
		switch {
		case !keep && text != "":
			t.Errorf("the shell kept %q, want nothing", text)
		case !keep && !warned:
			t.Errorf("no warning says the page has no main content: %q", res.Warnings)
		case keep && !strings.Contains(text, "All rights reserved"):
			t.Errorf("KeepFallback: %q, want the footer the pipeline chooses", text)
		case keep && warned:
			t.Errorf("KeepFallback kept text but warned %q", res.Warnings)
		}
	}
}

// TestNoBodyText cleans a page whose body has no text, only scripts: it
// comes out empty, with a warning that names its description; with
// KeepFallback the description is its text (segment.Options.Description).
func TestNoBodyText(t *testing.T) {
	const desc = "Washable rugs, made to order and shipped free."
	data := []byte(`<html><head><title>Rug</title><meta name="description" content="` + desc + `"></head>
<body><div id="__next"></div><script>window.__DATA__={"rug":"tan"}</script></body></html>`)
	for _, keep := range []bool{false, true} {
		res := cleanWith(t, Options{KeepFallback: keep}, data)
		warned := strings.Contains(strings.Join(res.Warnings, "\n"), "body has no text")
		switch text := res.Text(); {
		case !keep && (text != "" || !res.Empty()):
			t.Errorf("kept %q, want nothing", text)
		case !keep && !warned:
			t.Errorf("no warning says the body has no text: %q", res.Warnings)
		case !keep && res.Page.Meta.Description != desc:
			t.Errorf("description %q, want it in the metadata", res.Page.Meta.Description)
		case keep && text != desc:
			t.Errorf("KeepFallback: %q, want the description", text)
		}
	}
}

// TestFallbackFloor gives Fallback a page whose blocks carry the content
// probabilities a model might have left: the heuristic pipeline's choice
// stands when the model's mean over its words reaches FallbackFloor, and
// otherwise every block is left Other with the model's probability.
func TestFallbackFloor(t *testing.T) {
	const html = `<html><body><div><h1>Field notes</h1>
<p>The river rose two metres overnight and the lower meadow is under water again this morning.</p>
<p>We moved the hives to the ridge before noon and counted every frame; none was lost.</p></div>
<ul><li><a href="/">Home</a></li><li><a href="/about">About</a></li></ul></body></html>`
	seg, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	keepAll, err := New(Options{KeepFallback: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name  string
		c     *Cleaner
		prob  float64
		wantK bool
	}{
		{"under the floor", seg, FallbackFloor / 2, false},
		{"at the floor", seg, FallbackFloor, true},
		{"above it", seg, 0.45, true},
		{"under the floor, KeepFallback", keepAll, 0.01, true},
	} {
		res, err := tt.c.Segment(context.Background(), Input{Data: []byte(html)})
		if err != nil {
			t.Fatal(err)
		}
		p := res.Page
		if len(p.Blocks) < 3 {
			t.Fatalf("%d blocks, want the heading, two paragraphs and the links", len(p.Blocks))
		}
		for i := range p.Blocks {
			p.Blocks[i].Score, p.Blocks[i].Label = tt.prob, page.Other
		}
		kept := tt.c.Fallback(p)
		if kept != tt.wantK {
			t.Errorf("%s: Fallback reports %v, want %v", tt.name, kept, tt.wantK)
		}
		var words int
		for _, b := range p.Blocks {
			if b.Label != page.Other {
				words += int(b.Words)
			}
			if !kept && b.Score != tt.prob {
				t.Errorf("%s: block %q scores %g, want the model's %g", tt.name, b.Text, b.Score, tt.prob)
			}
		}
		switch {
		case kept && !strings.Contains(res.Text(), "hives to the ridge"):
			t.Errorf("%s: kept %q, want the paragraphs the pipeline chooses", tt.name, res.Text())
		case !kept && words > 0:
			t.Errorf("%s: %d words kept, want none", tt.name, words)
		}
	}
}
