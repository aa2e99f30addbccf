package xhtml

import (
	"slices"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/sluice-project/sluice/ingest"
	"github.com/sluice-project/sluice/page"
)

// keepSet is what a content-only output writes: the text nodes whose
// source span overlaps a kept block's, and the elements around them.
type keepSet map[*html.Node]bool

// keptSpans returns the Source spans of the kept blocks of p.
func keptSpans(p *page.Page) []page.Span {
	var spans []page.Span
	for _, b := range p.Blocks {
		if b.Label.Kept() && b.Source.End > b.Source.Start {
			spans = append(spans, b.Source)
		}
	}
	return spans
}

// markContent marks, in the tree of doc, the text nodes whose span in the
// original input overlaps one of spans (the Source spans of the kept
// blocks), and their ancestors.
func markContent(doc *ingest.Document, spans []page.Span) keepSet {
	slices.SortFunc(spans, func(a, b page.Span) int { return a.Start - b.Start })
	keep := keepSet{}
	i, k := 0, 0 // the next text node of doc.TextSpans; the first span that may still overlap
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch c.Type {
			case html.TextNode:
				if i < len(doc.TextSpans) && overlaps(doc, doc.TextSpans[i], spans, &k) {
					for a := c; a != nil && !keep[a]; a = a.Parent {
						keep[a] = true
					}
				}
				i++
			case html.ElementNode:
				walk(c)
			}
		}
	}
	walk(ingest.ContentRoot(doc.Root))
	return keep
}

// overlaps reports whether the text span t (in doc.Text) overlaps one of
// the sorted spans (in doc.Source), from spans[*k] on; text spans come in
// document order, so *k only moves forward.
func overlaps(doc *ingest.Document, t page.Span, spans []page.Span, k *int) bool {
	if t.End <= t.Start {
		return false
	}
	s, e := doc.Original(t.Start), doc.Original(t.End)
	for *k < len(spans) && spans[*k].End <= s {
		*k++
	}
	for j := *k; j < len(spans) && spans[j].Start < e; j++ {
		if spans[j].End > s {
			return true
		}
	}
	return false
}

// writeContent writes the page as content-only XHTML: the head's title,
// and in the body only the marked elements and text (with the <br> between
// them), their markup as it was.
func (x *writer) writeContent(doc *ingest.Document) {
	x.b.WriteString(`<html xmlns="` + nsXHTML + `"><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8" /><title>`)
	x.escape(doc.Meta.Title, false)
	x.b.WriteString("</title></head><body>")
	body := ingest.ContentRoot(doc.Root)
	if x.keep[body] {
		x.children(body, nsXHTML)
	}
	x.b.WriteString("</body></html>\n")
}

// skip reports whether a content-only output leaves c out.
func (x *writer) skip(c *html.Node) bool {
	if x.keep == nil || x.keep[c] {
		return false
	}
	return c.Type != html.ElementNode || c.DataAtom != atom.Br
}
