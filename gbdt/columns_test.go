package gbdt

import (
	"context"
	"math"
	"testing"
)

// TestGatheredEqualsHeap: Margins, walking the gathered layout, gives
// each row's Margin (the heap layout) and the walk over the nodes to the
// bit, for trees of every depth up to MaxDepth, with missing and infinite
// values, rows wider than the model's features and every chunk boundary.
func TestGatheredEqualsHeap(t *testing.T) {
	inf := float32(math.Inf(1))
	d := noisyData(3000, 8, 21)
	for i := range d.x {
		switch i % 97 {
		case 5:
			d.x[i] = inf
		case 11:
			d.x[i] = -inf
		}
	}
	for _, depth := range []int{1, 2, 5, MaxDepth} {
		m := mustTrain(t, d, nil, Options{Trees: 25, Depth: depth, MinLeaf: 10})
		for _, width := range []int{d.cols, d.cols + 3} {
			rows := 2*chunkRows + 5
			x := make([]float32, 0, rows*width)
			for r := range rows {
				x = append(x, d.row(r)...)
				for range width - d.cols {
					x = append(x, 7)
				}
			}
			out := make([]float64, rows)
			m.Margins(x, width, out)
			for r := range rows {
				row := x[r*width : (r+1)*width]
				if want := nodeMargin(m, row); out[r] != want || m.Margin(row) != want {
					t.Fatalf("depth %d, width %d, row %d %v: Margins %v, Margin %v, over the nodes %v", depth, width, r, row, out[r], m.Margin(row), want)
				}
			}
		}
	}
}

// TestGatheredSplitKinds: each kind of split of the gathered layout sends
// values as the heap layout does, the splits that only test for a missing
// value and a threshold a model file may hold (NaN) among them.
func TestGatheredSplitKinds(t *testing.T) {
	inf := float32(math.Inf(1))
	nan := float32(math.NaN())
	values := []float32{nan, inf, -inf, 0, 1, -1, 0.5, math.MaxFloat32, -math.MaxFloat32}
	for _, thr := range []float32{0.5, inf, -inf, math.MaxFloat32} {
		for _, defLeft := range []bool{false, true} {
			m := &Model{features: 2}
			m.addTree([]node{
				{feature: 1, threshold: thr, defLeft: defLeft, left: 1, right: 2},
				{feature: -1, value: -1},
				{feature: -1, value: 1},
			}, 1)
			m.addTree([]node{{feature: -1, value: 0.25}}, 0)
			x := make([]float32, 0, 2*len(values))
			for _, v := range values {
				x = append(x, 3, v)
			}
			out := make([]float64, len(values))
			m.Margins(x, 2, out)
			for r, v := range values {
				if want := nodeMargin(m, x[2*r:2*r+2]); out[r] != want {
					t.Errorf("threshold %v, missing left %v, value %v: Margins %v, over the nodes %v", thr, defLeft, v, out[r], want)
				}
			}
		}
	}
}

// BenchmarkGather is the gathering of 32 rows of 100 features for a
// model of 150 trees of depth 5, the part of Margins besides the walks.
func BenchmarkGather(b *testing.B) {
	const width = 100
	d := noisyData(5000, width, 3)
	m, err := Train(context.Background(), d.x, d.cols, d.y, nil, Options{Trees: 150, Depth: 5, Subsample: 0.5})
	if err != nil {
		b.Fatal(err)
	}
	g := make([]float32, chunkRows*len(m.cols.src))
	b.ReportAllocs()
	for b.Loop() {
		m.cols.gather(g, d.x, width, 0)
	}
}
