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

// TestGatherEqualsLoop checks gather (four columns at a time in assembly
// where there is) against its definition, on rows of NaN, ±Inf,
// MaxFloat32 and numbers, for columns of every kind and every column
// count up to 11.
func TestGatherEqualsLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	nan := float32(math.NaN())
	picks := []float32{nan, float32(math.Inf(1)), float32(math.Inf(-1)), math.MaxFloat32, -2, 0, 1.5}
	const width, rows = 9, 5
	x := make([]float32, width*rows)
	for i := range x {
		x[i] = picks[rng.IntN(len(picks))]
	}
	for n := range 12 {
		var c columns
		for range n {
			c.add(source(int32(rng.IntN(width)), colKind(rng.IntN(3))))
		}
		g := make([]float32, rows*n)
		c.gather(g, x, width, 0)
		for r := range rows {
			for k, sk := range c.src {
				v := x[r*width+int(sk.feature)]
				switch {
				case v != v:
					v = sk.nan
				case v > sk.max:
					v = sk.max
				}
				if got := g[r*n+k]; math.Float32bits(got) != math.Float32bits(v) {
					t.Fatalf("%d columns, row %d, column %d (%+v): %v, want %v", n, r, k, sk, got, v)
				}
			}
		}
	}
}
