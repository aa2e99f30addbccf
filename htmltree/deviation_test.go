package htmltree_test

import (
	"testing"

	"golang.org/x/net/html"

	"github.com/sluice-project/sluice/htmltree"
)

// firstElement returns the first element named name in document order.
func firstElement(t *htmltree.Tree, name string) htmltree.NodeID {
	for n := range t.All(t.Root()) {
		if t.Name(n) == name {
			return n
		}
	}
	return htmltree.Nil
}

func refFirst(n *html.Node, name string) *html.Node {
	for d := range n.Descendants() {
		if d.Type == html.ElementNode && d.Data == name {
			return d
		}
	}
	return nil
}

// TestKnownDeviations pins the differences from html.Parse that
// docs/htmltree.md lists, so that a change to them is seen.
func TestKnownDeviations(t *testing.T) {
	// 1. Foreign content keeps lower-case names and attribute keys.
	src := []byte(`<svg viewBox="0 0 1 1"><foreignObject><p>x</p></foreignObject></svg>`)
	tr := htmltree.Build(src)
	doc, _ := refParse(src)
	if refFirst(doc, "foreignObject") == nil || firstElement(tr, "foreignobject") == htmltree.Nil {
		t.Errorf("foreignObject: html.Parse's name is camel case, htmltree's lower case")
	}
	if _, ok := tr.Attr(firstElement(tr, "svg"), "viewbox"); !ok || refFirst(doc, "svg").Attr[0].Key != "viewBox" {
		t.Errorf("viewBox: html.Parse adjusts the key, htmltree keeps it lower case")
	}

	// 2. A doctype's text is the tokenizer's.
	src = []byte(`<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN" "http://www.w3.org/TR/html4/strict.dtd"><p>x`)
	tr = htmltree.Build(src)
	doc, _ = refParse(src)
	if d := tr.Node(tr.Root()).FirstChild; tr.Text(d) != `html PUBLIC "-//W3C//DTD HTML 4.01//EN" "http://www.w3.org/TR/html4/strict.dtd"` || doc.FirstChild.Data != "html" {
		t.Errorf("doctype: htmltree %q, html.Parse %q", tr.Text(d), doc.FirstChild.Data)
	}

	// 3. Formatting elements keep their attributes in source order
	// (html.Parse sorts them).
	src = []byte(`<b title=t class=c>x</b>`)
	tr = htmltree.Build(src)
	doc, _ = refParse(src)
	if b := firstElement(tr, "b"); tr.AttrAt(b, 0).Key != "title" || refFirst(doc, "b").Attr[0].Key != "class" {
		t.Errorf("attribute order: htmltree keeps the source's, html.Parse sorts")
	}

	// 4. Nesting past MaxDepth: html.Parse refuses, htmltree flattens.
	src = []byte(rep("<div>", 600) + "x")
	if _, err := refParse(src); err == nil {
		t.Errorf("html.Parse accepted 600 nested divs")
	}
	if tr = htmltree.Build(src); textOf(tr) != "x" || len(tr.Warnings) == 0 {
		t.Errorf("htmltree: text %q, warnings %q", textOf(tr), tr.Warnings)
	}
}
