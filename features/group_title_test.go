package features

import (
	"strings"
	"testing"

	"github.com/sluice-project/sluice/internal/pagetest"
)

const titlePageHTML = `<html><head><title>Flood closes the old bridge | River Times</title></head><body>
<ul><li><a href="/">Home</a></li><li><a href="/floods">Floods</a></li><li><a href="/times">River Times</a></li></ul>
<h1>Flood closes the old bridge</h1>
<p>The river rose by two metres overnight, and the town closed the old bridge before noon.</p>
<p>More stories from the river.</p>
</body></html>`

func TestTitleAttrs(t *testing.T) {
	p := pagetest.Parse(t, titlePageHTML)
	attrs := extractor(t, DefaultConfig()).Attrs(p)
	ttl := func(block string) string {
		t.Helper()
		return prefixed(t, p, attrs, block, "ttl.")
	}
	for _, c := range []struct{ block, want string }{
		{"Home", "ttl.pos=before"},
		{"River Times", "ttl.p=1 ttl.r=0.2 ttl.pos=before"}, // 2 of the title's 7 tokens
		{"Flood closes", "ttl.p=1 ttl.r=0.7 ttl.pos=at"},    // 5 of 7
		{"The river rose", "ttl.p=0.2 ttl.r=0.5 ttl.pos=after"},
		{"More stories", "ttl.p=0.4 ttl.r=0.2 ttl.pos=after"}, // the, river of more, stories, from, the, river
	} {
		if got := ttl(c.block); got != c.want {
			t.Errorf("%s: %q, want %q", c.block, got, c.want)
		}
	}
	// Without a title the first h1 is the headline; without either, no
	// attribute.
	noTitle := strings.Replace(titlePageHTML, "<title>Flood closes the old bridge | River Times</title>", "", 1)
	p = pagetest.Parse(t, noTitle)
	attrs = extractor(t, DefaultConfig()).Attrs(p)
	if got := ttl("Flood closes"); got != "ttl.pos=at" {
		t.Errorf("no title, the h1: %q, want ttl.pos=at", got)
	}
	if got := ttl("Home"); got != "ttl.pos=before" {
		t.Errorf("no title, before the h1: %q", got)
	}
	p = pagetest.Parse(t, strings.NewReplacer("<h1>", "<h2>", "</h1>", "</h2>").Replace(noTitle))
	for i, list := range extractor(t, DefaultConfig()).Attrs(p) {
		for _, a := range list {
			if strings.HasPrefix(a.Name, "ttl.") {
				t.Errorf("no title and no h1, block %d: %s", i, a.Name)
			}
		}
	}
}
