package label

import (
	"math"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/internal/pagetest"
)

func TestFocusRegion(t *testing.T) {
	words := func(w string, n int) string { return strings.TrimSpace(strings.Repeat(w+" ", n)) }
	src := `<html><body><nav>`
	for range 5 {
		src += `<a href="/">` + words("menu", 10) + `</a><br>`
	}
	src += `</nav><article><p>` + words("alpha", 20) + `</p><p>` + words("beta", 20) + `</p><p>` + words("gamma", 20) + `</p></article>
<footer><p>` + words("footer", 10) + `</p></footer></body></html>`
	p := pagetest.Parse(t, src)
	if len(p.Blocks) != 9 {
		t.Fatalf("%d blocks, want 9", len(p.Blocks))
	}
	content := []float64{0.05, 0.05, 0.05, 0.05, 0.05, 0.9, 0.9, 0.9, 0.6}
	mk := func() [][]float64 {
		marg := make([][]float64, len(content))
		for i, c := range content {
			marg[i] = []float64{1 - c, 0, c, 0, 0}
		}
		return marg
	}
	marg := mk()
	focusRegion(p, marg, 0, 2, 0.35, new(smoothScratch))
	for i, c := range content {
		want := c
		if i < 5 || i == 8 { // outside the article
			want = c * 0.65
		}
		if got := 1 - marg[i][0]; math.Abs(got-want) > 1e-12 || math.Abs(marg[i][2]-want) > 1e-12 {
			t.Errorf("block %d: content %.4f (paragraph %.4f), want %.4f", i, got, marg[i][2], want)
		}
	}

	// Spread content (every block as likely): the whole body is the
	// region, nothing changes.
	for i := range content {
		content[i] = 0.5
	}
	marg = mk()
	focusRegion(p, marg, 0, 2, 0.35, new(smoothScratch))
	for i := range marg {
		if marg[i][0] != 0.5 {
			t.Errorf("spread page, block %d changed: %v", i, marg[i])
		}
	}
	for _, r := range []float64{-1, 2, math.NaN()} {
		if checkRegion(r) == nil {
			t.Errorf("region factor %g accepted", r)
		}
	}
}
