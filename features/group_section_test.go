package features

import (
	"strings"
	"testing"

	"github.com/sluice-project/sluice/internal/pagetest"
)

func TestSectionCuesAttrs(t *testing.T) {
	p := pagetest.Parse(t, `<html><body>
<p>Before any heading.</p>
<h2>The river report</h2><p>The water rose overnight.</p><p>Officials spoke.</p>
<h2>Share and reply</h2><p>Alice: great piece.</p>
<h3>Elsewhere</h3><p>An unknown section.</p>
</body></html>`)
	attrs := extractor(t, withCues(DefaultConfig())).Attrs(p) // every group on
	ls := func(block string) string {
		t.Helper()
		return prefixed(t, p, attrs, block, "ls.")
	}
	for _, c := range []struct{ block, want string }{
		{"Before any", ""},
		{"The river report", ""}, // a heading has none of its own
		{"The water rose", "ls.mean=0.6"},
		{"Officials spoke", "ls.mean=0.6"},
		{"Alice", "ls.mean=-3"}, // share −2.2, reply −1.9
		{"An unknown", ""},
	} {
		if got := ls(c.block); got != c.want {
			t.Errorf("%s: %q, want %q", c.block, got, c.want)
		}
	}
	def := DefaultConfig()
	def.TextCues = withCues(Config{}).TextCues
	if got := extractor(t, def).Attrs(p)[blockOf(t, p, "The water")]; strings.Contains(strings.Join(names(got), " "), "ls.") {
		t.Errorf("off by default, yet: %v", names(got))
	}
}
