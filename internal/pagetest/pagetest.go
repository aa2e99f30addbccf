// Package pagetest makes the pages that tests of the stages after
// segmentation work on: HTML written for a test, parsed and segmented with
// the default options, and a family of small labelled article pages to
// train on.
package pagetest

import (
	"strings"
	"testing"

	"github.com/sluice-project/sluice/ingest"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/segment"
)

// Parse parses and segments src with the default ingest and segment
// options, failing the test on an error.
func Parse(tb testing.TB, src string) *page.Page {
	tb.Helper()
	doc, err := ingest.Parse([]byte(src), ingest.DefaultOptions())
	if err != nil {
		tb.Fatalf("pagetest: parse: %v", err)
	}
	return segment.Segment(doc, segment.DefaultOptions())
}

// Article returns page n of a family of small pages: a navigation list
// (Other), an article's heading (Heading) and three paragraphs
// (Paragraph), and a footer of links (Other), with the labels of its
// blocks. Pages differ a little in their texts with n.
func Article(tb testing.TB, n int) (*page.Page, []page.Label) {
	tb.Helper()
	var sb strings.Builder
	sb.WriteString(`<body><ul class="nav">`)
	for i := range 5 {
		sb.WriteString(`<li><a href="/x">Menu item ` + strings.Repeat("x", i+n%3) + `</a></li>`)
	}
	sb.WriteString(`</ul><div class="article"><h1>Heading number ` + strings.Repeat("y", n%4+1) + `</h1>`)
	for i := range 3 {
		sb.WriteString(`<p>This is a paragraph of the article with enough words to look like text, number ` + strings.Repeat("z", i+1) + `.</p>`)
	}
	sb.WriteString(`</div><div class="footer"><a href="/t">Terms</a> | <a href="/p">Privacy</a></div></body>`)
	p := Parse(tb, sb.String())
	labels := make([]page.Label, len(p.Blocks))
	for i, b := range p.Blocks {
		switch {
		case strings.HasPrefix(b.Text, "Heading"):
			labels[i] = page.Heading
		case strings.HasPrefix(b.Text, "This is"):
			labels[i] = page.Paragraph
		default:
			labels[i] = page.Other
		}
	}
	return p, labels
}
