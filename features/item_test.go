package features

import (
	"strings"
	"testing"

	"github.com/sluice-project/sluice/internal/pagetest"
)

// TestItemParts: on a product grid, each card's title is its own text
// (it.same low), "Add to cart" and the review count, the same but for
// their digits, come back in every card (it.same at the top); the grid is
// the page's main run (rank 0), the navigation a lesser one; the
// page-level attributes count the prices and the grid's items.
func TestItemParts(t *testing.T) {
	p := pagetest.Parse(t, `<html><body>
<ul class="nav"><li><a href="/">Home</a></li><li><a href="/shop">Shop</a></li><li><a href="/help">Help</a></li></ul>
<h1>Kettles</h1>
<div class="grid">
<div class="card"><h3>Copper kettle, hand beaten</h3><div>£40</div><div>12 reviews</div><div><a class="btn" href="/cart">Add to cart</a></div></div>
<div class="card"><h3>Steel kettle, brushed finish</h3><div>£25</div><div>3 reviews</div><div><a class="btn" href="/cart">Add to cart</a></div></div>
<div class="card"><h3>Glass kettle that shows the boil</h3><div>£30</div><div>40 reviews</div><div><a class="btn" href="/cart">Add to cart</a></div></div>
<div class="card"><h3>Travel kettle folding flat</h3><div>£15</div><div>7 reviews</div><div><a class="btn" href="/cart">Add to cart</a></div></div>
</div>
<p>Our kettles are made in small batches and shipped within two days of your order.</p>
</body></html>`)
	attrs := extractor(t, everyGroup()).Attrs(p)
	for _, c := range []struct {
		block, idx, ridx, same, rank, ord string
	}{
		{"Copper kettle", "0", "3", "0.2", "0", "0"}, // 1/4
		{"Glass kettle", "0", "3", "0.2", "0", "2"},
		{"40 reviews", "2", "1", "0.9", "0", "2"}, // 4/4
		{"Add to cart", "3", "0", "0.9", "0", "0"},
		{"Shop", "0", "0", "0.2", "1", "1"}, // 1/3
	} {
		a := attrs[blockOf(t, p, c.block)]
		got := [...]string{value(a, "it.idx"), value(a, "it.ridx"), value(a, "it.same"), value(a, "it.rank"), value(a, "it.ord")}
		if want := [...]string{c.idx, c.ridx, c.same, c.rank, c.ord}; got != want {
			t.Errorf("%s: it.idx, ridx, same, rank, ord = %v, want %v (attrs %v)", c.block, got, want, names(a))
		}
	}
	para := attrs[blockOf(t, p, "Our kettles")]
	if has(para, "it.idx=0") || value(para, "it.same") != "" {
		t.Errorf("a paragraph in no item has item attributes: %v", names(para))
	}
	// Every block carries the page's: the grid holds most of the words,
	// four items, four prices.
	for _, b := range []string{"Kettles", "Our kettles", "Add to cart"} {
		a := attrs[blockOf(t, p, b)]
		got := [...]string{value(a, "pg.rep"), value(a, "pg.items"), value(a, "pg.price")}
		if want := [...]string{"0.6", "3", "3"}; got != want {
			t.Errorf("%s: pg.rep, items, price = %v, want %v", b, got, want)
		}
	}
}

// TestPriceLike: a currency sign and a digit, in any script's currency.
func TestPriceLike(t *testing.T) {
	for s, want := range map[string]bool{
		"£40": true, "$ 5": true, "12,50 €": true, "¥1200": true, "₹ 999": true,
		"40": false, "£": false, "Price on request": false, "5 % off": false,
	} {
		if got := priceLike(s); got != want {
			t.Errorf("priceLike(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestTextKey: digits, case and punctuation aside, texts are one; other
// letters are not.
func TestTextKey(t *testing.T) {
	if textKey("12 reviews") != textKey("3 Reviews.") {
		t.Error(`"12 reviews" and "3 Reviews." differ`)
	}
	if textKey("Add to cart") == textKey("Add to card") {
		t.Error(`"Add to cart" and "Add to card" are one`)
	}
	if textKey("加入购物车") == textKey("加入收藏") {
		t.Error("two Chinese texts are one")
	}
}

// TestSchemaAttrs: declared types map to kinds; types that say nothing of
// the page give kind=other only alone; og:type is read apart.
func TestSchemaAttrs(t *testing.T) {
	for _, c := range []struct {
		types []string
		want  string
	}{
		{nil, "kind.none"},
		{[]string{"product", "breadcrumblist", "og:product"}, "kind=product og=product"},
		{[]string{"newsarticle", "organization", "og:article"}, "kind=article og=article"},
		{[]string{"discussionforumposting", "itemlist"}, "kind=forum kind=list"},
		{[]string{"organization", "website"}, "kind=other"},
		{[]string{"og:video"}, "kind.none og=other"},
	} {
		if got := strings.Join(schemaAttrs(c.types, nil), " "); got != c.want {
			t.Errorf("%v: %q, want %q", c.types, got, c.want)
		}
	}
}
