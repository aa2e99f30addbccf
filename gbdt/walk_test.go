package gbdt

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestWalkRowsEqualsSteps checks walkRows (four rows at a time in
// assembly where there is, then two and one in Go) against one walk a row
// written out plainly, on random trees whose thresholds the values often
// equal exactly, and values of ±Inf and MaxFloat32, for every row count up
// to 13 and depths 1 to 7.
func TestWalkRowsEqualsSteps(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	picks := []float32{-1, 0, 0.5, 1, 2, float32(math.Inf(1)), float32(math.Inf(-1)), math.MaxFloat32}
	const n = 6
	for d := 1; d <= 7; d++ {
		splits := 1<<d - 1
		col := make([]uint32, splits)
		thr := make([]float32, splits)
		for i := range col {
			col[i] = uint32(rng.IntN(n))
			thr[i] = picks[rng.IntN(len(picks)-2)] // not +Inf: source gives those MaxFloat32
		}
		leaves := make([]float64, 1<<d)
		for i := range leaves {
			leaves[i] = rng.NormFloat64()
		}
		for rows := range 14 {
			g := make([]float32, rows*n)
			for i := range g {
				g[i] = picks[rng.IntN(len(picks))]
			}
			got := make([]float64, rows)
			want := make([]float64, rows)
			for r := range rows {
				got[r] = float64(r)
				want[r] = float64(r)
				i := 0
				for range d {
					i = 2*i + 1
					if g[r*n+int(col[(i-1)/2])] > thr[(i-1)/2] {
						i++
					}
				}
				want[r] += leaves[i-splits]
			}
			walkRows(col, thr, leaves, g, n, d, got)
			for r := range rows {
				if got[r] != want[r] {
					t.Fatalf("depth %d, %d rows: row %d got %v, want %v", d, rows, r, got[r], want[r])
				}
			}
		}
	}
}
