package label

import (
	"math"
	"testing"

	"github.com/sluice-project/sluice/internal/pagetest"
)

const smoothPage = `<html><body>
<ul class="items">
<li class="item-1"><p>First product, a red kettle</p></li>
<li class="item-2"><p>Second product, a blue kettle</p></li>
<li class="item-3"><p>Third product, a kettle</p></li>
<li class="item-4"><p>Fourth product, a green kettle</p></li>
</ul>
<div class="footer"><p>About us</p><p>Contact</p></div>
</body></html>`

func TestSmoothPaths(t *testing.T) {
	p := pagetest.Parse(t, smoothPage)
	if len(p.Blocks) != 6 {
		t.Fatalf("%d blocks, want 6: %+v", len(p.Blocks), p.Blocks)
	}
	// Labels: other, heading, paragraph, list, continuation.
	content := []float64{0.9, 0.9, 0.1, 0.9, 0.2, 0.8}
	marg := make([][]float64, len(content))
	for i, c := range content {
		marg[i] = []float64{1 - c, 0, c / 4, 3 * c / 4, 0}
	}
	marg[2] = []float64{1, 0, 0, 0, 0} // no content probability at all
	smoothPaths(p, marg, 0, 2, 0.5, new(smoothScratch))

	// The four items share a path (digits in classes left out): mean
	// (0.9+0.9+0+0.9)/4.
	mean := (0.9 + 0.9 + 0 + 0.9) / 4
	for i, own := range []float64{0.9, 0.9, 0, 0.9} {
		want := 0.5*own + 0.5*mean
		if got := 1 - marg[i][0]; math.Abs(got-want) > 1e-12 {
			t.Errorf("item %d: content %.4f, want %.4f", i, got, want)
		}
		sum := 0.0
		for _, v := range marg[i] {
			sum += v
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("item %d: probabilities sum to %g", i, sum)
		}
	}
	if marg[2][2] != 0.5*mean {
		t.Errorf("item without content probability: %v, want paragraph %g", marg[2], 0.5*mean)
	}
	// The others keep their proportions: paragraph a third of list.
	if r := marg[0][3] / marg[0][2]; math.Abs(r-3) > 1e-9 {
		t.Errorf("list/paragraph ratio %g, want 3", r)
	}
	// The footer's path has two blocks, under smoothMinBlocks: untouched.
	if marg[4][0] != 1-content[4] || marg[5][0] != 1-content[5] {
		t.Errorf("footer smoothed: %v %v", marg[4], marg[5])
	}
}

func TestSmoothOff(t *testing.T) {
	p := pagetest.Parse(t, smoothPage)
	marg := make([][]float64, len(p.Blocks))
	for i := range marg {
		marg[i] = []float64{float64(i) / 10, 1 - float64(i)/10, 0, 0, 0}
	}
	smoothPaths(p, marg, 0, 2, 0, new(smoothScratch))
	for i := range marg {
		if marg[i][0] != float64(i)/10 {
			t.Fatalf("weight 0 changed block %d: %v", i, marg[i])
		}
	}
	for _, w := range []float64{-0.1, 1.5, math.NaN()} {
		if checkSmooth(w) == nil {
			t.Errorf("weight %g accepted", w)
		}
	}
}

// TestSmoothFocusReplay: a model's own smoothing and region steps give the
// same marginals as the same CRF without them followed by Smooth and
// Focus, and the weights survive saving.
func TestSmoothFocusReplay(t *testing.T) {
	var ex []example
	for n := range 8 {
		ex = append(ex, trainPage(t, n))
	}
	cfg := DefaultFeatureConfig()
	cfg.Smooth, cfg.Region = 0, 0
	raw := trainCRF(t, ex, cfg, 40)
	cfg = raw.Features()
	cfg.Smooth, cfg.Region = 0.5, 0.35
	full, err := NewLabeller(raw.CRF(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	full = saveLoad(t, full)
	if f := full.Features(); f.Smooth != 0.5 || f.Region != 0.35 {
		t.Fatalf("saved model: smooth %g region %g", f.Smooth, f.Region)
	}
	p := trainPage(t, 5).Page
	want, err := full.Marginals(p, MainStyle)
	if err != nil {
		t.Fatal(err)
	}
	got, err := raw.Marginals(p, MainStyle)
	if err != nil {
		t.Fatal(err)
	}
	if err := raw.Smooth(p, got, 0.5); err != nil {
		t.Fatal(err)
	}
	if err := raw.Focus(p, got, 0.35); err != nil {
		t.Fatal(err)
	}
	for i := range want {
		for y := range want[i] {
			if math.Abs(got[i][y]-want[i][y]) > 1e-12 {
				t.Fatalf("block %d label %d: replayed %g, model %g", i, y, got[i][y], want[i][y])
			}
		}
	}
	if raw.Smooth(p, got, 2) == nil || raw.Focus(p, got, -1) == nil {
		t.Errorf("out-of-range weights accepted")
	}
	if raw.Smooth(p, got[1:], 0.5) == nil || raw.Focus(p, got[1:], 0.5) == nil {
		t.Errorf("marginals of the wrong length accepted")
	}
	cfg.Smooth = 1.5
	if _, err := NewLabeller(raw.CRF(), cfg); err == nil {
		t.Errorf("model with smoothing weight 1.5 accepted")
	}
}
