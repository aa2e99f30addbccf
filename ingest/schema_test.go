package ingest

import (
	"bytes"
	"strings"
	"testing"
)

// TestDeclaredTypes: JSON-LD strings and arrays, full type URLs,
// microdata, Open Graph; duplicates once; junk bounded.
func TestDeclaredTypes(t *testing.T) {
	page := `<html><head><meta property="og:type" content="product.item">
<script type="application/ld+json">{"@context":"https://schema.org","@type" : "Product","offers":{"@type":["Offer", "http://schema.org/AggregateOffer"]}}</script>
<script type="application/ld+json">{"@type":"BreadcrumbList","itemListElement":[{"@type":"ListItem"}]}</script>
</head><body><div itemscope itemtype="https://schema.org/Product"><span itemprop="name">Kettle</span></div>
<p>"@type": 12 and "@type" without a colon</p></body></html>`
	d, err := Parse([]byte(page), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := "product offer aggregateoffer breadcrumblist listitem og:product"
	if got := strings.Join(d.Meta.Types, " "); got != want {
		t.Errorf("types %q, want %q", got, want)
	}
	many := strings.Repeat(`{"@type":"T`, 1) + strings.Repeat("x", 100) + `"}`
	for i := range 40 {
		many += `{"@type":"Type` + string(rune('a'+i%26)) + string(rune('a'+i/26)) + `"}`
	}
	if got := declaredTypes([]byte(many)); len(got) != maxTypes || got[0] != "typeaa" {
		t.Errorf("%d types from 41 declared (the first too long): %v", len(got), got)
	}
}

func TestIndexAnchored(t *testing.T) {
	for _, s := range []string{
		``, `"@type"`, `x"@type"`, `"@typ`, `@type" "@type"`, `a@b "@type": "X"`, `"@"@type"`,
		`schema.org/Thing`, `schema.or schema.org/`, `.schema.org/`, `schema.org`, `https://schema.org/Product`,
	} {
		for _, k := range typeKeys {
			if got, want := indexAnchored([]byte(s), []byte(k.key), k.anchor), bytes.Index([]byte(s), []byte(k.key)); got != want {
				t.Errorf("indexAnchored(%q, %q) = %d, want %d", s, k.key, got, want)
			}
		}
	}
}
