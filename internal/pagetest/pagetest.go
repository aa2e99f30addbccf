// Package pagetest makes the pages that tests of the stages after
// segmentation work on: HTML written for a test, parsed and segmented with
// the default options, and a family of small labelled article pages to
// train on.
package pagetest

import (
	"fmt"
	"math/rand/v2"
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

// Synthetic writes a news-like page with about blocks text blocks:
// navigation, an article, a sidebar of related links, comments, a footer.
func Synthetic(rng *rand.Rand, blocks int) string {
	words := strings.Fields("the river report officials said water would fall again by friday residents bridge " +
		"council meeting budget school road project city museum opening week summer festival music night " +
		"market prices rose sharply after rain storm weather station report north south east west")
	sentence := func(n int) string {
		var b strings.Builder
		for i := range n {
			w := words[rng.IntN(len(words))]
			if i == 0 {
				w = strings.ToUpper(w[:1]) + w[1:]
			}
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(w)
		}
		b.WriteString(".")
		return b.String()
	}
	var b strings.Builder
	n := 0
	b.WriteString(`<!DOCTYPE html><html><head><title>Synthetic</title></head><body><div id="page">`)
	b.WriteString(`<header class="site-header"><div class="logo"><a href="/">River Times</a></div><nav class="main-nav"><ul>`)
	for i := range blocks / 10 {
		fmt.Fprintf(&b, `<li class="menu-item"><a href="/s/%d">Section %d</a></li>`, i, i)
		n++
	}
	b.WriteString(`</ul></nav></header><main><article class="post"><h1 class="entry-title">` + sentence(6) + `</h1>`)
	b.WriteString(`<div class="byline">By Jane Doe, 12 March 2024, 14:30</div><div class="entry-content">`)
	n += 2
	for n < blocks*6/10 {
		switch rng.IntN(8) {
		case 0:
			fmt.Fprintf(&b, "<h2>%s</h2>", sentence(4))
		case 1:
			b.WriteString("<ul>")
			for range 3 {
				fmt.Fprintf(&b, "<li>%s</li>", sentence(5))
				n++
			}
			b.WriteString("</ul>")
		case 2:
			fmt.Fprintf(&b, "<p>%s<br>%s</p>", sentence(8), sentence(12))
			n++
		default:
			fmt.Fprintf(&b, "<p>%s %s <a href=\"/x\">%s</a> %s</p>", sentence(15), sentence(20), sentence(3), sentence(10))
		}
		n++
	}
	b.WriteString(`</div><div class="share-buttons"><a href="#">Share</a> | <a href="#">Tweet</a></div></article>`)
	b.WriteString(`<aside class="sidebar"><div class="widget related"><h3>Related</h3><ul>`)
	for n < blocks*75/100 {
		fmt.Fprintf(&b, `<li><a href="/r/%d">%s</a> <span class="date">2024-03-%02d</span></li>`, n, sentence(6), 1+n%28)
		n += 2
	}
	b.WriteString(`</ul></div></aside><section id="comments" class="comments"><ol>`)
	for n < blocks*95/100 {
		fmt.Fprintf(&b, `<li class="comment"><div class="comment-author">user%d</div><div class="comment-meta">12.03.2024 at 10:%02d</div><p>%s</p><a href="#">Reply</a></li>`,
			n, n%60, sentence(12))
		n += 4
	}
	b.WriteString(`</ol></section></main><footer class="site-footer"><table><tr>`)
	for n < blocks {
		fmt.Fprintf(&b, `<td><a href="/f/%d">Footer link %d</a></td>`, n, n)
		n++
	}
	b.WriteString(`</tr></table><p>© 2024 River Times. All rights reserved. Call +44 20 7946 0958.</p></footer></div></body></html>`)
	return b.String()
}
