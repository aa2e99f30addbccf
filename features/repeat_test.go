package features

import (
	"testing"

	"github.com/sluice-project/sluice/internal/pagetest"
)

// TestRepeatedItems: the blocks of a product grid sit in an item of four
// siblings with three blocks each (classes differing only in digits count
// as one template); navigation links in items of one block; a lone
// paragraph in none.
func TestRepeatedItems(t *testing.T) {
	p := pagetest.Parse(t, `<html><body>
<ul class="nav"><li><a href="/">Home</a></li><li><a href="/shop">Shop</a></li><li><a href="/help">Help</a></li></ul>
<h1>Kettles</h1>
<div class="grid">
<div class="tile tile-1"><h3>Copper kettle</h3><p>Hand beaten, two litres</p><span>£40</span></div>
<div class="tile tile-2"><h3>Steel kettle</h3><p>Brushed steel, one litre</p><span>£25</span></div>
<div class="tile tile-3"><h3>Glass kettle</h3><p>Shows the water boil</p><span>£30</span></div>
<div class="tile tile-4"><h3>Travel kettle</h3><p>Folds flat for the road</p><span>£15</span></div>
</div>
</body></html>`)
	attrs := extractor(t, DefaultConfig()).Attrs(p)
	for _, c := range []struct {
		block, n, up, blocks, words string
	}{
		{"Steel kettle", "4", "1", "3", "5"}, // 7 words: bucket 5,
		{"£25", "4", "1", "3", "5"},
		{"Shop", "3", "1", "1", "1"}, // the a, then its li
	} {
		a := attrs[blockOf(t, p, c.block)]
		got := [...]string{value(a, "rep.n"), value(a, "rep.up"), value(a, "rep.blocks"), value(a, "rep.words")}
		if want := [...]string{c.n, c.up, c.blocks, c.words}; got != want {
			t.Errorf("%s: rep.n, up, blocks, words = %v, want %v (attrs %v)", c.block, got, want, names(a))
		}
	}
	if a := attrs[blockOf(t, p, "Kettles")]; !has(a, "rep.none") {
		t.Errorf("heading: want rep.none, got %v", names(a))
	}
	if got := value(attrs[blockOf(t, p, "Copper")], "rep.share"); got != "0.8" {
		t.Errorf("rep.share of the grid = %s, want 0.8 (29 of 33 words)", got)
	}
}
