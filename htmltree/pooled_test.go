package htmltree

import (
	"bytes"
	"testing"
)

// A Builder that built an ordinary page is worth keeping; one that grew to
// hold a page of more nodes than pooledNodes is not.
func TestPooled(t *testing.T) {
	var b Builder
	b.Build([]byte("<p>one <b>page</b> of a few nodes</p>"))
	if !b.Pooled() {
		t.Error("a Builder of a small page is not Pooled")
	}
	b.Build(bytes.Repeat([]byte("<i>x</i>"), pooledNodes))
	if b.Pooled() {
		t.Errorf("a Builder of %d nodes is Pooled", len(b.tree.Nodes))
	}
}
