package main

import (
	"testing"

	"github.com/sluice-project/sluice/internal/expectf1"
)

// TestSharedCut: with no spread the shared cut is the expected-F1 rule's
// cut; a wide spread keeps more of a page whose tail of unlikely blocks
// is long (shifted up, the tail turns gold and keeping more pays;
// shifted down, the page scores low whatever is kept); every cut keeps
// a prefix of the blocks.
func TestSharedCut(t *testing.T) {
	p := []float64{0.95, 0.9, 0.6, 0.45, 0.3, 0.1, 0.05}
	w := []float64{40, 120, 30, 80, 60, 300, 500}
	bs := make([]expectf1.Block, len(p))
	for i := range p {
		bs[i] = expectf1.Block{P: p[i], W: w[i]}
	}
	cut := expectf1.Cut(bs, 0.5)
	want := 0
	for _, v := range p {
		if v >= cut {
			want++
		}
	}
	if got := sharedCut(p, w, 0); got != want {
		t.Fatalf("sigma 0: keeps %d blocks, the rule %d", got, want)
	}
	for _, s := range []float64{0.5, 1, 2} {
		if got := sharedCut(p, w, s); got < 1 || got > len(p) {
			t.Errorf("sigma %g: keeps %d of %d blocks", s, got, len(p))
		}
	}
	if got := sharedCut(p, w, 3); got <= want {
		t.Errorf("sigma 3: keeps %d blocks, want more than the rule's %d", got, want)
	}
	if got := sharedCut(nil, nil, 1); got != 0 {
		t.Errorf("no blocks: keeps %d", got)
	}
}
