package sluice

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sluice-project/sluice/parsertext"
	"github.com/sluice-project/sluice/render"
)

// badLists are the lists of the bad-input issue: nested 1,000 deep, with
// and without text at each level, and 100,000 items, plain and links.
func badLists() map[string]string {
	items := func(format string) string {
		var sb strings.Builder
		sb.WriteString("<html><body><p>The items of a very long list follow:</p><ul>")
		for i := range 100_000 {
			fmt.Fprintf(&sb, format, i)
		}
		sb.WriteString("</ul></body></html>")
		return sb.String()
	}
	return map[string]string{
		"nested 1000":      "<body>" + strings.Repeat("<ul><li>level text ", 1000) + strings.Repeat("</li></ul>", 1000),
		"nested unclosed":  "<body><p>Start:</p>" + strings.Repeat("<ol><li>", 1000) + "the only text in it",
		"nested dl":        "<body>" + strings.Repeat("<dl><dt>term<dd>", 1000) + "definition",
		"100000 items":     items("<li>item number %d of the list</li>"),
		"100000 links":     items(`<li><a href="/%d">link</a></li>`),
		"100000 empty":     "<body><ul>" + strings.Repeat("<li></li>", 100_000) + "</ul><p>After the list.</p>",
		"deep and long":    "<body>" + strings.Repeat("<ul><li>", 200) + strings.Replace(items("<li>item %d, deep down</li>"), "<html><body>", "", 1),
		"100000 dd":        strings.Replace(items("<dt>term %d<dd>its definition"), "<ul>", "<dl>", 1),
		"items then lists": "<body>" + strings.Repeat("<ul><li>a</li></ul><p>Next:</p>", 20_000),
	}
}

// TestBadLists cleans the bad lists with the model and the heuristic
// pipeline and writes them as text, Markdown and parser text: no panic,
// text out, and the peak heap within the bound of the pathological pages.
func TestBadLists(t *testing.T) {
	if testing.Short() {
		t.Skip("cleans pages of 100,000 list items")
	}
	formats := []string{"text", "markdown", "parser"}
	for _, opts := range []Options{{}, {Filter: DefaultFilter}} {
		c, err := New(opts)
		if err != nil {
			t.Fatal(err)
		}
		for name, src := range badLists() {
			start := time.Now()
			peak, _, res := cleanPeak(t, c, []byte(src), 0)
			if bound := peakHeapBound(len(src)); peak > bound {
				t.Errorf("%s, %q: peak heap %d MB, more than the bound %d MB", name, opts.Filter, peak>>20, bound>>20)
			}
			for _, f := range formats {
				removed := 0
				r, err := render.Lookup(f, render.Options{Parser: parsertext.Options{Removed: func(string, string) { removed++ }}})
				if err != nil {
					t.Fatal(err)
				}
				var sb strings.Builder
				if err := r.Render(&sb, res.Page); err != nil {
					t.Fatal(err)
				}
				if sb.Len() == 0 && removed == 0 && keptBlocks(res.Page) > 0 {
					t.Errorf("%s, %q, %s: no text", name, opts.Filter, f)
				}
			}
			t.Logf("%s, %q: %d bytes, %d blocks, peak %d MB, %v", name, opts.Filter, len(src), len(res.Page.Blocks), peak>>20, time.Since(start))
		}
	}
}
