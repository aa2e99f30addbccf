package features

import (
	"maps"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/crf"
	"github.com/sluice-project/sluice/internal/pagetest"
)

// withPrefix returns the names in list that start with prefix, joined
// with spaces.
func withPrefix(list []crf.Attr, prefix string) string {
	var out []string
	for _, a := range list {
		if strings.HasPrefix(a.Name, prefix) {
			out = append(out, a.Name)
		}
	}
	return strings.Join(out, " ")
}

const headlinePageHTML = `<html><head><title>Walnut desk | Oak Shop</title></head><body>
<nav><ul><li><a href="/">Home</a></li><li><a href="/desks">Desks</a></li></ul></nav>
<main><div class="buy"><h1>Walnut desk</h1><div class="price"><span>Price</span> <b>120 euros</b></div></div>
<section><p>Our workshop has made furniture by hand since 1952, in the same valley, from local wood.</p></section></main>
<footer><p>Oak Shop, 3 Mill Road</p></footer>
</body></html>`

// TestHeadlineAttrs: the levels up to the ancestor a block shares with
// the headline, from either side, the ancestor's share of the words and
// the words from the headline.
func TestHeadlineAttrs(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Off = maps.Clone(cfg.Off)
	delete(cfg.Off, Headline)
	p := pagetest.Parse(t, headlinePageHTML)
	attrs := extractor(t, cfg).Attrs(p)
	hl := func(block string) string {
		t.Helper()
		return prefixed(t, p, attrs, block, "hl.")
	}
	// 28 words: the menu's 2, the h1's 2, the price line's 3 (one block:
	// span and b are inline), the workshop's 16 and the footer's 5.
	for _, c := range []struct{ block, want string }{
		{"Home", "hl.up=4 hl.down=3 hl.lca=1 hl.gap=-3"},          // a, li, ul, nav up to body; h1, div, main; 2 words before
		{"Walnut desk", "hl.up=0 hl.down=0 hl.lca=0 hl.gap=0"},    // the h1 holds 2 of 28 words
		{"Price", "hl.up=1 hl.down=1 hl.lca=0.1 hl.gap=1"},        // div.price and the h1 in div.buy, 5 of 28 words; 2 after
		{"Our workshop", "hl.up=2 hl.down=2 hl.lca=0.7 hl.gap=3"}, // p, section up to main (21 of 28); 5 after
		{"Oak Shop", "hl.up=2 hl.down=3 hl.lca=1 hl.gap=10"},      // p, footer up to body; 21 after
	} {
		if got := hl(c.block); got != c.want {
			t.Errorf("%s: %q, want %q", c.block, got, c.want)
		}
	}
	// The title group off, the headline is found all the same.
	cfg.Off[Title] = true
	off := extractor(t, cfg).Attrs(p)
	for i := range attrs {
		if got, want := withPrefix(off[i], "hl."), withPrefix(attrs[i], "hl."); got != want {
			t.Errorf("title group off, block %d: %q, want %q", i, got, want)
		}
	}
	// No title and no h1: no headline, no attribute.
	bare := strings.NewReplacer("<title>Walnut desk | Oak Shop</title>", "", "<h1>", "<h2>", "</h1>", "</h2>").Replace(headlinePageHTML)
	for i, list := range extractor(t, cfg).Attrs(pagetest.Parse(t, bare)) {
		if got := withPrefix(list, "hl."); got != "" {
			t.Errorf("no headline, block %d: %s", i, got)
		}
	}
}
