package sluice_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/render"
)

func ExampleExtract() {
	page := `<html><head><title>The mill wheel turns again | Valley News</title>
<meta name="author" content="Ann Miller">
<meta property="article:published_time" content="2024-05-06T08:00:00Z"></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a> <a href="/about">About</a></nav>
<article><h1>The mill wheel turns again</h1>
<p>After sixty years of silence the wheel of the old corn mill turned again
this spring, thanks to four summers of work by local volunteers who rebuilt
the launder, recast the broken cogs and re-dressed the stones by hand.</p>
<p>Visitors can watch it grind flour on the second Sunday of every month.</p></article>
</body></html>`
	doc, err := sluice.Extract(strings.NewReader(page), sluice.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s, by %s, %s, in %s\n\n%s\n", doc.Title, doc.Author, doc.Published, doc.Language, doc.Text)
	// Output:
	// The mill wheel turns again, by Ann Miller, 2024-05-06, in en
	//
	// The mill wheel turns again
	//
	// After sixty years of silence the wheel of the old corn mill turned again this spring, thanks to four summers of work by local volunteers who rebuilt the launder, recast the broken cogs and re-dressed the stones by hand.
	//
	// Visitors can watch it grind flour on the second Sunday of every month.
}

// TestExtractText: Extract's text is the text format's, byte for byte
// but the last newline, with the default options and others.
func TestExtractText(t *testing.T) {
	page := []byte(`<html><body><h1>Heading</h1><p>One paragraph of text that is long enough to be kept by the cleaner, with words.</p>
<ul><li>first item of the list</li><li>second item of the list</li></ul></body></html>`)
	for _, opts := range []sluice.Options{{}, {Filter: "lqf"}} {
		doc, err := sluice.Extract(bytes.NewReader(page), opts)
		if err != nil {
			t.Fatal(err)
		}
		c, err := sluice.New(opts)
		if err != nil {
			t.Fatal(err)
		}
		res, err := c.Clean(context.Background(), sluice.Input{Data: page})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := (render.Text{}).Render(&buf, res.Page); err != nil {
			t.Fatal(err)
		}
		if doc.Text+"\n" != buf.String() || doc.Text == "" {
			t.Errorf("%+v: Extract text %q, text format %q", opts, doc.Text, buf.String())
		}
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

// endless is a page that never ends.
type endless struct{ n int }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = "<p>more words </p>"[e.n%18]
		e.n++
	}
	return len(p), nil
}

// TestExtractBadInput: a failing reader, an empty page, bad options and a
// page that never ends each give an error or a bounded result.
func TestExtractBadInput(t *testing.T) {
	if _, err := sluice.Extract(failingReader{}, sluice.Options{}); err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("failing reader: %v", err)
	}
	if _, err := sluice.Extract(strings.NewReader("  "), sluice.Options{}); err == nil {
		t.Error("empty page: no error")
	}
	if _, err := sluice.Extract(strings.NewReader("<p>x</p>"), sluice.Options{Filter: "nosuch"}); err == nil {
		t.Error("bad filter: no error")
	}
	e := &endless{}
	doc, err := sluice.Extract(io.Reader(e), sluice.Options{MaxBytes: 1 << 16})
	if err != nil {
		t.Fatal(err)
	}
	if e.n > 1<<17 || len(doc.Result.Warnings) == 0 {
		t.Errorf("read %d bytes of an endless page; warnings %v", e.n, doc.Result.Warnings)
	}
}

// TestLinksLeaveLabels checks that recording links and images changes no
// block, score or label, and that nothing is recorded by default.
func TestLinksLeaveLabels(t *testing.T) {
	data, err := os.ReadFile("testdata/example.html")
	if err != nil {
		t.Fatal(err)
	}
	clean := func(opts sluice.Options) *sluice.Result {
		c, err := sluice.New(opts)
		if err != nil {
			t.Fatal(err)
		}
		res, err := c.Clean(context.Background(), sluice.Input{Data: data})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	plain, refs := clean(sluice.Options{}), clean(sluice.Options{Links: true, Images: true})
	if plain.Page.Links != nil || plain.Page.Images != nil {
		t.Errorf("links or images recorded by default")
	}
	if len(refs.Page.Links) == 0 {
		t.Errorf("no link recorded with Options.Links")
	}
	if !reflect.DeepEqual(plain.Page.Blocks, refs.Page.Blocks) {
		t.Errorf("recording links changes the blocks, their scores or labels")
	}
}
