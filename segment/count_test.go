package segment

import (
	"strings"
	"testing"

	"github.com/sluice-project/sluice/dom"
	"github.com/sluice-project/sluice/ingest"
)

// TestSizesBoundThePage checks that the counts sizes makes before a page
// is built are its number of nodes exactly and at least its number of
// blocks, and not far above it, on pages of many shapes.
func TestSizesBoundThePage(t *testing.T) {
	pages := []string{
		`<p>one</p><p>two</p>` + strings.Repeat("<p>word</p>\n", 50),
		strings.Repeat("<b>x</b> ", 100),
		`<ul><li><a href="/">Home</a></li><li>About <i>us</i></li></ul><div>a<br>b<br><br>c</div>`,
		"<pre>line one\nline two\n\nline four</pre><p>after</p>",
		`<table><tr><td>1</td><td>2</td></tr></table><img alt="a picture"><p>x <img alt="inline"> y</p>`,
		`<div><div><div>deep</div></div></div>text after`,
		`<p></p>`,
	}
	for _, src := range pages {
		doc, err := ingest.Parse([]byte(src), ingest.DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		nodes, blocks := sizes(dom.ContentRoot(doc.Node()), DefaultOptions())
		p := Segment(doc, DefaultOptions())
		if nodes != len(p.Nodes) {
			t.Errorf("%.40q: %d nodes counted, the page has %d", src, nodes, len(p.Nodes))
		}
		if blocks < len(p.Blocks) || blocks > 2*len(p.Blocks)+2 {
			t.Errorf("%.40q: %d blocks counted, the page has %d", src, blocks, len(p.Blocks))
		}
	}
}
