package segment

import (
	"strings"
	"testing"

	"github.com/sluice-project/sluice/htmltree"
	"github.com/sluice-project/sluice/ingest"
)

// TestArenaPageOutlivesTree checks that a page segmented from a Builder's
// tree keeps its strings when the Builder builds another page over the
// same memory: class, id, tag names, hrefs, image sources and alt texts,
// table summaries, the title.
func TestArenaPageOutlivesTree(t *testing.T) {
	var b htmltree.Builder
	opts := ingest.DefaultOptions()
	opts.Parser, opts.Builder = ingest.ParserArena, &b
	segOpts := Options{ImageAlt: true, Links: true, Images: true}
	// Values with entities live in the tree's side buffer, which the next
	// build rewrites.
	page := func(w string) []byte {
		return []byte(strings.ReplaceAll("<title>T&amp;W</title><div class='c&amp;W' id=i&lt;W><my-&W>x</my-&W><a href=' /h&amp;W '>l</a>"+
			"<img src='s&amp;W' alt='a&amp;W'><table summary='s&amp;W'><tr><td>c</td></tr></table></div>", "W", w))
	}
	doc, err := ingest.Parse(page("orig"), opts)
	if err != nil {
		t.Fatal(err)
	}
	p := Segment(doc, segOpts)
	if _, err := ingest.Parse(page("XXXX"), opts); err != nil {
		t.Fatal(err)
	}
	ref := ingest.DefaultOptions()
	doc, err = ingest.Parse(page("orig"), ref)
	if err != nil {
		t.Fatal(err)
	}
	want := Segment(doc, segOpts)
	if p.Meta.Title != want.Meta.Title {
		t.Errorf("title %q, want %q", p.Meta.Title, want.Meta.Title)
	}
	for i := range want.Nodes {
		if p.Nodes[i] != want.Nodes[i] {
			t.Errorf("node %d: %+v, want %+v", i, p.Nodes[i], want.Nodes[i])
		}
	}
	if len(p.Links) != 1 || p.Links[0] != want.Links[0] || len(p.Images) != 1 || p.Images[0] != want.Images[0] {
		t.Errorf("links %+v, images %+v; want %+v, %+v", p.Links, p.Images, want.Links, want.Images)
	}
	if len(p.Tables) != 1 || p.Tables[0].Summary != want.Tables[0].Summary {
		t.Errorf("tables %+v, want %+v", p.Tables, want.Tables)
	}
}
