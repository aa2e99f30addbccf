//go:build amd64 && !purego

package gbdt

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestWideEqualsWalk checks Margins' wide walk against its walk (haveWide
// off), to the bit, on models of every depth the wide walk takes and one
// it does not, over rows of NaN, ±Inf, MaxFloat32 and numbers, for every
// row count up to 2 chunks and a half, so that every way a chunk can end
// is met.
func TestWideEqualsWalk(t *testing.T) {
	if !haveWide {
		t.Skip("no AVX-512 on this machine: Margins walks")
	}
	defer func(h bool) { haveWide = h }(haveWide)
	rng := rand.New(rand.NewPCG(5, 6))
	nan := float32(math.NaN())
	picks := []float32{nan, float32(math.Inf(1)), float32(math.Inf(-1)), math.MaxFloat32, -2, 0, 0.25, 1.5, 3}
	const width = 7
	for _, depth := range []int{1, 2, 3, 5, 6, 7} {
		d := noisyData(2000, width, uint64(depth))
		for i := range d.x {
			if rng.IntN(9) == 0 {
				d.x[i] = picks[rng.IntN(len(picks))]
			}
		}
		m := mustTrain(t, d, nil, Options{Trees: 12, Depth: depth, MinLeaf: 3})
		haveWide = true
		if wide := m.walksWide(width); wide != (depth <= wideDepth) {
			t.Fatalf("depth %d: walksWide %v", depth, wide)
		}
		m.addTree([]node{{feature: -1, value: 0.125}}, 0) // a tree of one leaf
		rows := 2*wideRows + wideRows/2
		x := make([]float32, rows*width)
		for i := range x {
			x[i] = picks[rng.IntN(len(picks))]
			if rng.IntN(3) == 0 {
				x[i] = d.x[rng.IntN(len(d.x))]
			}
		}
		for n := 0; n <= rows; n++ {
			got, want := make([]float64, n), make([]float64, n)
			haveWide = true
			m.Margins(x[:n*width], width, got)
			haveWide = false
			m.Margins(x[:n*width], width, want)
			for r := range n {
				if math.Float64bits(got[r]) != math.Float64bits(want[r]) {
					t.Fatalf("depth %d, %d rows: row %d wide %v, walked %v", depth, n, r, got[r], want[r])
				}
			}
		}
	}
}
