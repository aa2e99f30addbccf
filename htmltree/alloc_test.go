package htmltree_test

import (
	"testing"

	"golang.org/x/net/html/atom"

	"github.com/sluice-project/sluice/htmltree"
)

// TestNoAllocs: walking and reading a tree allocate nothing, and a reused
// Builder allocates only the tokenizer's few objects per page.
func TestNoAllocs(t *testing.T) {
	src := []byte(`<html><head><title>T</title></head><body><div class="c" id=main><p>One <a href="/x">two</a>` +
		`<ul><li>a<li>b</ul><table><tr><td>c</table></div></body></html>`)
	var b htmltree.Builder
	tr := b.Build(src)
	var count, chars int
	walk := testing.AllocsPerRun(100, func() {
		tr.Walk(tr.Root(), func(n htmltree.NodeID, entering bool) bool {
			count++
			chars += len(tr.Text(n)) + len(tr.Name(n)) + len(tr.AttrValue(n, "class"))
			v, _ := tr.AttrAtom(n, atom.Href)
			chars += len(v)
			return true
		})
		for n := range tr.All(tr.Root()) {
			for c := range tr.Children(n) {
				chars += int(c)
			}
		}
	})
	if walk != 0 || count == 0 || chars == 0 {
		t.Errorf("walking allocates %.0f times (%d visits, %d chars)", walk, count, chars)
	}
	build := testing.AllocsPerRun(100, func() { b.Build(src) })
	// The tokenizer's: itself, its buffer, its map of attribute names,
	// about two per attribute (3 attributes here) in its readTag, and a
	// string per raw-text tag (<title>): 13 with x/net v0.62.
	if build > 16 {
		t.Errorf("a reused Builder allocates %.0f times per build", build)
	}
	t.Logf("walk: %.0f allocations; reused build: %.0f", walk, build)
}
