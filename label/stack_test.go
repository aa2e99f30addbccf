package label

import (
	"slices"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/crf"
	"github.com/sluice-project/sluice/features"
	"github.com/sluice-project/sluice/internal/pagetest"
)

func attrValue(list []crf.Attr, key string) (string, float64, bool) {
	for _, a := range list {
		if attrKey(a.Name) == key {
			v, _ := strings.CutPrefix(a.Name, key+"=")
			return v, a.Value, true
		}
	}
	return "", 0, false
}

func attrKey(name string) string {
	k, _, _ := strings.Cut(name, "=")
	return k
}

// TestStackAttrs checks the second stage's attributes against sums worked
// out by hand on a page of three div groups.
func TestStackAttrs(t *testing.T) {
	src := `<body><div id="a"><p>one two</p><p>three four five six</p></div>` +
		`<div id="b"><p>seven</p><p>eight nine</p><p>ten</p></div><div id="c"><p>eleven twelve</p></div></body>`
	p := pagetest.Parse(t, src)
	if len(p.Blocks) != 6 {
		t.Fatalf("%d blocks, want 6", len(p.Blocks))
	}
	e := extractor(t, DefaultFeatureConfig())
	attrs := e.Attrs(p)
	probs := []float64{0.875, 0.75, 0.125, 0.25, 0.125, 0.625} // exact in binary
	marg := make([][]float64, len(probs))
	for i, v := range probs {
		marg[i] = []float64{1 - v, 0, v, 0, 0} // other, heading, paragraph...
	}
	var ss stackScratch
	got := stackAttrs(e, p, attrs, marg, 0, &ss)
	keys := e.Keys(features.Stack)
	for i, list := range got {
		if !slices.Equal(list[:len(attrs[i])], attrs[i]) {
			t.Errorf("block %d: the first-stage attributes are not kept in front", i)
		}
		for _, a := range list[len(attrs[i]):] {
			if !slices.Contains(keys, attrKey(a.Name)) {
				t.Errorf("block %d: attribute %s is not among Keys(stack) %v", i, a.Name, keys)
			}
		}
	}
	want := func(i int, key, value string) {
		t.Helper()
		v, _, ok := attrValue(got[i][len(attrs[i]):], key)
		if !ok {
			t.Errorf("block %d: no %s", i, key)
		} else if v != value {
			t.Errorf("block %d: %s=%s, want %s", i, key, v, value)
		}
	}
	want(0, "s.p", "0.8")
	want(1, "s.prev", "0.8")
	want(1, "s.next", "0.1")
	// div a: (0.875·2 + 0.75·4)/6 = 0.79; div b: (0.125+0.5+0.125)/4 = 0.19.
	want(0, "s.div", "0.7")
	want(3, "s.div", "0.1")
	want(5, "s.div", "0.6")
	// Words in more probable blocks: for block 1, block 0's 2 of the
	// page's 12; for block 4, 10 of 12.
	want(1, "s.rank", "0.1")
	want(0, "s.rank", "0")
	want(4, "s.rank", "0.8")
	want(2, "s.max", "0.8")
	want(2, "s.sure", "0.6") // 2+4+2 words of 12 at 0.5 or more
	want(0, "s.pm", "0.7_0.7")
	want(3, "s.pm", "0.1_0.7")
	if _, v, ok := attrValue(got[0], "r.s.p"); !ok || v != 0.875 {
		t.Errorf("r.s.p of block 0 = %v, %v", v, ok)
	}
	// The nearest ancestor with more blocks than the p of block 2 is div b.
	want(2, "s.a1", "0.1")
	if _, _, ok := attrValue(got[0], "s.prev"); ok {
		t.Error("the first block has an s.prev")
	}
}
