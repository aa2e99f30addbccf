package features

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/crf"
	"github.com/sluice-project/sluice/internal/pagetest"
	"github.com/sluice-project/sluice/page"
)

func TestTextTokens(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"Add to CART", "add to cart"},
		{"12 Reviews", "reviews"},               // a number is no token
		{"À la Une: Élysée", "la une élysée"},   // one letter is none; lower-cased in any script
		{"Новости дня", "новости дня"},          // Cyrillic words
		{"相关阅读 more", "相关 关阅 阅读 more"},          // pairs of neighbouring characters
		{"中 x", "中"},                            // a lone character alone
		{"a b c d e f g h i j k l m n o p", ""}, // twelve units read, none of two letters
		{"one two three four five six seven eight nine ten eleven twelve thirteen", "one two three four five six seven eight nine ten eleven twelve"},
	} {
		var got []string
		textTokens(c.text, nil, func(tok []byte, _ int) { got = append(got, string(tok)) })
		if s := strings.Join(got, " "); s != c.want {
			t.Errorf("textTokens(%q) = %q, want %q", c.text, s, c.want)
		}
	}
}

func TestTextCuesAttrs(t *testing.T) {
	p := pagetest.Parse(t, navPage)
	lt := func(attrs [][]crf.Attr, block string) string {
		t.Helper()
		return prefixed(t, p, attrs, block, "lt.")
	}
	attrs := extractor(t, withCues(DefaultConfig())).Attrs(p)
	// "Share this": share −2.2 alone.
	if got, want := lt(attrs, "Share this"), "lt.max=-3 lt.min=-3 lt.mean=-3"; got != want {
		t.Errorf("Share this: %s, want %s", got, want)
	}
	// "The river rose ... Residents": river 0.7, residents 1.1 (the
	// eighth word), their mean 0.9.
	if got, want := lt(attrs, "The river rose"), "lt.max=1 lt.min=0.6 lt.mean=0.6"; got != want {
		t.Errorf("paragraph: %s, want %s", got, want)
	}
	if got := lt(attrs, "Great article"); got != "" {
		t.Errorf("no known token: %s", got)
	}
	if got := lt(extractor(t, DefaultConfig()).Attrs(p), "Share this"); got != "" {
		t.Errorf("no table: %s", got)
	}
}

func TestLearnTextCues(t *testing.T) {
	var samples []CueSample
	for n := range 4 {
		p := pagetest.Parse(t, fmt.Sprintf(`<html><body>
<p>Add to cart</p><p>Story %d: the river rose by two metres overnight, and the town closed the bridge.</p>
<p>Only site %d says this.</p></body></html>`, n, n))
		content := make([]bool, len(p.Blocks))
		for i, b := range p.Blocks {
			content[i] = strings.HasPrefix(b.Text, "Story")
		}
		samples = append(samples, CueSample{Page: p, Content: content, Group: fmt.Sprintf("site%d.example", n)})
	}
	table := LearnTextCues(samples, CueOptions{})
	if !(table["cart"] < 0 && table["river"] > 0) {
		t.Errorf("cart %v, river %v: want below and above 0", table["cart"], table["river"])
	}
	if table["only"] >= 0 {
		t.Errorf("only (boilerplate on every site) = %v, want below 0", table["only"])
	}
	if _, ok := table["story"]; !ok {
		t.Errorf("story: not in the table %v", table)
	}
}

// prefixed returns the names of the attributes of the block of p starting
// with text block whose names start with prefix, joined by spaces.
func prefixed(t *testing.T, p *page.Page, attrs [][]crf.Attr, block, prefix string) string {
	t.Helper()
	var out []string
	for _, a := range attrs[blockOf(t, p, block)] {
		if strings.HasPrefix(a.Name, prefix) {
			out = append(out, a.Name)
		}
	}
	return strings.Join(out, " ")
}
