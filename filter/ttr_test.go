package filter

import (
	"math"
	"testing"
)

func TestTTRRatiosAndSmoothing(t *testing.T) {
	// Ratios 100/2 = 50, 4/4 = 1, 20/max(1,0) = 20.
	p := fxPage(
		fxBlock{text: "aaaaaaaaaa" + "aaaaaaaaaa" + "aaaaaaaaaa" + "aaaaaaaaaa" + "aaaaaaaaaa" +
			"aaaaaaaaaa" + "aaaaaaaaaa" + "aaaaaaaaaa" + "aaaaaaaaaa" + "aaaaaaaaaa", tags: 1, inner: 1},
		fxBlock{text: "Home", tags: 4},
		fxBlock{text: "bbbbbbbbbbbbbbbbbbbb"},
	)
	// Without smoothing: mean 71/3, threshold = std.
	raw := []float64{50, 1, 20}
	mean := (50 + 1 + 20) / 3.0
	var sq float64
	for _, r := range raw {
		sq += (r - mean) * (r - mean)
	}
	h := math.Sqrt(sq / 3)
	out := Run(TTR{Radius: 0, Sigma: 1, Tau: 1}, p)
	for i, r := range raw {
		if want := r / (r + h); math.Abs(out[i]-want) > 1e-12 {
			t.Errorf("block %d: score %v, want %v", i, out[i], want)
		}
	}
	if got := fxMask(out); got != "K.." {
		t.Errorf("ttr radius 0 = %s, want K..", got)
	}

	// Radius 1, sigma 1: weights e^-0.5 for neighbours, renormalised at
	// the ends.
	w := math.Exp(-0.5)
	sm := []float64{
		(50 + w*1) / (1 + w),
		(w*50 + 1 + w*20) / (1 + 2*w),
		(w*1 + 20) / (1 + w),
	}
	mean = (sm[0] + sm[1] + sm[2]) / 3
	sq = 0
	for _, s := range sm {
		sq += (s - mean) * (s - mean)
	}
	h = 0.5 * math.Sqrt(sq/3)
	out = Run(TTR{Radius: 1, Sigma: 1, Tau: 0.5}, p)
	for i, s := range sm {
		if want := s / (s + h); math.Abs(out[i]-want) > 1e-12 {
			t.Errorf("smoothed block %d: score %v, want %v", i, out[i], want)
		}
	}
}

func TestTTRUniform(t *testing.T) {
	// All ratios equal: no spread, no threshold, everything kept.
	p := fxPage(fxPara(10), fxPara(10), fxPara(10))
	for i, s := range Run(NewTTR(), p) {
		if s != 1 {
			t.Errorf("block %d: %v, want 1", i, s)
		}
	}
}
