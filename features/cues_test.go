package features

import (
	"slices"
	"testing"
)

func TestCues(t *testing.T) {
	cue := func(v string) []string {
		var s []string
		m := cues(v, new(tokenBuf))
		for i := range cueTable {
			if m&(1<<i) != 0 {
				s = append(s, cueTable[i].cue)
			}
		}
		return s
	}
	for v, want := range map[string][]string{
		"mainContent":          {"content", "main"},
		"site-navigation nav2": {"nav"},
		"post_body entry":      {"post", "entry", "body"},
		"commentlist":          {"comment"},
		"col-md-8 row":         nil,
		"ad-slot":              {"ad"},
		"ADVERT":               {"ad"},
		"footnote":             nil,
		"breadcrumbs":          {"breadcrumb"},
		"product-card__price":  {"product", "card", "price"},
		"swiper-slide":         {"carousel"},
		"topic-post":           {"thread", "post"},
	} {
		got := cue(v)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("cues(%q) = %v, want %v", v, got, want)
		}
	}
}

// The cues of a class are a bit set of 64.
func TestCueTableFits(t *testing.T) {
	if len(cueTable) > 64 {
		t.Fatalf("%d cues do not fit a uint64", len(cueTable))
	}
}

// TestCuesDoNotAllocate: the token buffer is the caller's, so that the
// cues of a node cost no allocation (they were one a class or id value).
func TestCuesDoNotAllocate(t *testing.T) {
	var buf tokenBuf
	table := mustHashTable(t, map[string]float32{"content": 1})
	if n := testing.AllocsPerRun(100, func() {
		cues("mainContent post-body", &buf)
		nodeCues(table, "mainContent", "post-body", &buf)
	}); n != 0 {
		t.Errorf("cues and nodeCues allocate %v times a call", n)
	}
	if v := nodeCues(table, "mainContent", "post-body", &buf); v.n != 1 || v.max != 1 {
		t.Errorf("nodeCues(mainContent, post-body) = %+v, want the one cue of content", v)
	}
}
