package train

import (
	"slices"
	"testing"

	"github.com/sluice-project/sluice/crf"
)

// TestDropSiteAttrs: an attribute is kept when the pages of MinSites
// groups have it, however often one group's pages repeat it, and the
// sequences' own lists are not changed in place.
func TestDropSiteAttrs(t *testing.T) {
	a := func(names ...string) []crf.Attr {
		var out []crf.Attr
		for _, n := range names {
			out = append(out, crf.Attr{Name: n})
		}
		return out
	}
	shared := a("words=3", "cls=only-a", "cls=ab")
	seqs := []crf.Sequence{
		{Attrs: [][]crf.Attr{shared, a("cls=only-a", "cls=abc")}},
		{Attrs: [][]crf.Attr{a("cls=ab", "words=3", "cls=abc")}},
		{Attrs: [][]crf.Attr{a("words=3", "cls=abc", "cls=only-c")}},
		{Attrs: [][]crf.Attr{a("cls=only-a")}},
	}
	groups := []string{"a", "b", "c", "a"}
	if n := dropSiteAttrs(seqs, groups, 3); n != 3 {
		t.Errorf("dropSiteAttrs removed %d attributes, want 3 (only-a, ab, only-c)", n)
	}
	names := func(as []crf.Attr) (out []string) {
		for _, x := range as {
			out = append(out, x.Name)
		}
		return out
	}
	want := [][][]string{
		{{"words=3"}, {"cls=abc"}},
		{{"words=3", "cls=abc"}},
		{{"words=3", "cls=abc"}},
		{{}},
	}
	for i, s := range seqs {
		for k, as := range s.Attrs {
			if got := names(as); !slices.Equal(got, want[i][k]) {
				t.Errorf("sequence %d block %d: %v, want %v", i, k, got, want[i][k])
			}
		}
	}
	if got := names(shared); !slices.Equal(got, []string{"words=3", "cls=only-a", "cls=ab"}) {
		t.Errorf("the caller's attribute list changed: %v", got)
	}
	if n := dropSiteAttrs(seqs, groups, 2); n != 0 {
		t.Errorf("a second pass removed %d attributes, want 0", n)
	}
}
