package train

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/label"
	"github.com/sluice-project/sluice/page"
)

func TestMarginCosts(t *testing.T) {
	p := &page.Page{Blocks: []page.Block{{Words: 0}, {Words: 1}, {Words: 99}}}
	other, para, head := slices.Index(label.Labels, "other"), slices.Index(label.Labels, "paragraph"), slices.Index(label.Labels, "heading")
	ls := []int{other, para, head}
	if c := marginCosts(p, ls, 0); c != nil {
		t.Fatalf("margin 0 gives costs %v", c)
	}
	c := marginCosts(p, ls, 2)
	L := len(label.Labels)
	if len(c) != len(ls)*L {
		t.Fatalf("%d costs, want %d", len(c), len(ls)*L)
	}
	for pos, y := range ls {
		want := 2 * math.Log1p(float64(p.Blocks[pos].Words))
		for z := range L {
			got := c[pos*L+z]
			switch {
			case (z == other) == (y == other): // the same side: no cost
				if got != 0 {
					t.Errorf("block %d (label %s) as %s costs %v, want 0", pos, label.Labels[y], label.Labels[z], got)
				}
			case math.Abs(got-want) > 1e-12:
				t.Errorf("block %d (label %s) as %s costs %v, want %v", pos, label.Labels[y], label.Labels[z], got, want)
			}
		}
	}
	// The 99-word block's content-vs-other mistake costs 2 ln 100.
	if got := c[2*L+other]; math.Abs(got-2*math.Log(100)) > 1e-12 {
		t.Errorf("99 words: cost %v, want %v", got, 2*math.Log(100))
	}
}

func TestTrainRefusesBadMargin(t *testing.T) {
	ex := Example{Page: &page.Page{Blocks: []page.Block{{Text: "a", Words: 1}}}, Labels: []page.Label{page.Other}}
	for _, m := range []float64{-1, math.NaN(), math.Inf(1)} {
		_, err := Train(context.Background(), []Example{ex}, Config{Margin: m, MaxIterations: 1})
		if err == nil || !strings.Contains(err.Error(), "Margin") {
			t.Errorf("Margin %v: error %v", m, err)
		}
	}
}
