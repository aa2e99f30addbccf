package htmltree_test

import (
	"fmt"
	"strings"

	"golang.org/x/net/html/atom"

	"github.com/sluice-project/sluice/htmltree"
)

// Build a tree, then walk it: the paragraphs' text, and the links. The
// <a> left open is reopened in the second paragraph, as browsers do.
func Example() {
	src := []byte(`<p>One <a href="/two">two<p>Three &amp; four</p>`)
	t := htmltree.Build(src)
	t.Walk(t.Root(), func(n htmltree.NodeID, entering bool) bool {
		nd := t.Node(n)
		switch {
		case nd.Type == htmltree.TextNode:
			fmt.Printf("text %q at %d-%d\n", t.Text(n), nd.Raw.Start, nd.Raw.End)
		case entering && t.Is(n, atom.A):
			href, _ := t.AttrAtom(n, atom.Href)
			fmt.Println("link", href)
		case entering && t.Is(n, atom.P):
			fmt.Println("paragraph")
		}
		return true
	})
	// Output:
	// paragraph
	// text "One " at 3-7
	// link /two
	// text "two" at 22-25
	// paragraph
	// link /two
	// text "Three & four" at 28-44
}

// A Builder reused from page to page allocates its arenas once.
func ExampleBuilder() {
	var b htmltree.Builder
	for _, page := range []string{"<title>A</title><p>a", "<ul><li>b<li>c</ul>"} {
		t := b.Build([]byte(page))
		var words []string
		for n := range t.All(t.Root()) {
			if t.Node(n).Type == htmltree.TextNode {
				words = append(words, t.Text(n))
			}
		}
		fmt.Println(strings.Join(words, " "), t.Len(), "nodes")
	}
	// Output:
	// A a 8 nodes
	// b c 9 nodes
}
