package sluice

import (
	"bytes"
	"context"
	"slices"
	"testing"

	"github.com/sluice-project/sluice/render"
)

// TestResultOwnsItsMemory checks what sluice clean's reuse of its input
// buffers rests on: a Result keeps nothing of Input.Data. Pages of several
// sets and charsets are cleaned with both parsers, their input overwritten,
// and the Result rendered again in every format (the dropped blocks too)
// must be what it was, warnings included.
func TestResultOwnsItsMemory(t *testing.T) {
	var rs []render.Renderer
	for _, f := range []string{"json", "text", "html", "xml", "markdown"} {
		r, err := render.Lookup(f, render.Options{IncludeDropped: true})
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	renders := func(res *Result) [][]byte {
		var out [][]byte
		for _, r := range rs {
			var b bytes.Buffer
			if err := r.Render(&b, res.Page); err != nil {
				t.Fatal(err)
			}
			out = append(out, b.Bytes())
		}
		return out
	}
	var pages []testPage
	for _, set := range []string{"cleaneval-dev", "wcxb-dev", "cwce-zh", "xmu-news-zh"} {
		ps := loadSet(t, set)
		pages = append(pages, ps[:min(len(ps), 12)]...)
	}
	cleaned := 0
	for _, parser := range []string{"html", "arena"} {
		c, err := New(Options{Parser: parser})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range pages {
			data := bytes.Clone(p.html)
			res, err := c.Clean(context.Background(), Input{Data: data})
			if err != nil {
				continue
			}
			cleaned++
			before, warn := renders(res), slices.Clone(res.Warnings)
			for i := range data {
				data[i] = 'X'
			}
			after := renders(res)
			for i := range before {
				if !bytes.Equal(before[i], after[i]) {
					t.Errorf("%s parser, %s: its %T render changed when the input was overwritten", parser, p.name, rs[i])
				}
			}
			if !slices.Equal(warn, res.Warnings) {
				t.Errorf("%s parser, %s: warnings changed when the input was overwritten", parser, p.name)
			}
		}
	}
	if cleaned < len(pages) {
		t.Fatalf("cleaned %d of the %d pages and both parsers", cleaned, 2*len(pages))
	}
}
