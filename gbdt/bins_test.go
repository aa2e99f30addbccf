package gbdt

import (
	"math"
	"slices"
	"testing"
)

func TestBinEdgesFewValues(t *testing.T) {
	// Every distinct value gets a bin; the edges lie between them.
	vals := []float32{3, 1, 2, 2, 1, 5, 3}
	got := edgesOf(vals, 10)
	distinct := []float32{1, 2, 3, 5}
	if len(got) != len(distinct)-1 {
		t.Fatalf("edges %v, want one between each of %v", got, distinct)
	}
	for i, e := range got {
		if !(distinct[i] <= e && e < distinct[i+1]) {
			t.Errorf("edge %d = %v, want in [%v, %v)", i, e, distinct[i], distinct[i+1])
		}
	}
	if got := edgesOf(nil, 10); len(got) != 0 {
		t.Errorf("edges of no values %v, want none", got)
	}
	if got := edgesOf([]float32{4, 4, 4}, 10); len(got) != 0 {
		t.Errorf("edges of one value %v, want none", got)
	}
}

func TestBinEdgesQuantiles(t *testing.T) {
	r := splitMix{s: 1}
	vals := make([]float32, 10000)
	for i := range vals {
		vals[i] = r.uniform()
	}
	sorted := slices.Sorted(slices.Values(vals))
	edges := edgesOf(slices.Clone(vals), 10)
	if len(edges) != 9 || !slices.IsSorted(edges) {
		t.Fatalf("edges %v, want 9 increasing", edges)
	}
	// Each bin holds about a tenth of the values.
	prev := 0
	for b := range 10 {
		end := len(sorted)
		if b < 9 {
			end, _ = slices.BinarySearchFunc(sorted, edges[b], func(v, e float32) int {
				if v <= e {
					return -1
				}
				return 1
			})
		}
		if n := end - prev; n < 800 || n > 1200 {
			t.Errorf("bin %d holds %d of 10000 values, want about 1000", b, n)
		}
		prev = end
	}
}

func TestBinEdgesHeavyValue(t *testing.T) {
	// Half the values are 0: it gets a bin of its own, and the rest share
	// the other bins.
	var vals []float32
	for i := range 1000 {
		vals = append(vals, 0, float32(i+1))
	}
	edges := edgesOf(vals, 8)
	if len(edges) > 7 {
		t.Fatalf("%d edges, want at most 7", len(edges))
	}
	if edges[0] < 0 || edges[0] >= 1 {
		t.Errorf("first edge %v, want 0 alone in the first bin", edges[0])
	}
	if len(edges) < 5 {
		t.Errorf("edges %v: the values besides 0 get too few bins", edges)
	}
}

func TestBinOfMatchesThreshold(t *testing.T) {
	edges := []float32{float32(math.Inf(-1)), -1, 0, 2.5}
	keys := make([]uint32, len(edges))
	for i, e := range edges {
		keys[i] = orderKey(e)
	}
	nan := float32(math.NaN())
	for _, tc := range []struct {
		v    float32
		want uint8
	}{
		{float32(math.Inf(-1)), 0}, {-3, 1}, {-1, 1}, {-0.5, 2}, {0, 2}, {float32(math.Copysign(0, -1)), 2},
		{1e-45, 3}, {1, 3}, {2.5, 3}, {3, 4}, {float32(math.Inf(1)), 4}, {nan, 5},
	} {
		if got := binOf(keys, 5, tc.v); got != tc.want {
			t.Errorf("binOf(%v) = %d, want %d", tc.v, got, tc.want)
		}
		// The bin agrees with the thresholds Margin compares against.
		for b, e := range edges {
			if left := tc.v <= e; tc.v == tc.v && left != (int(tc.want) <= b) {
				t.Errorf("value %v in bin %d, but %v <= edge %d (%v) is %v", tc.v, tc.want, tc.v, b, e, left)
			}
		}
	}
	for _, ab := range [][2]float32{{1, 2}, {1, math.Nextafter32(1, 2)}, {-math.MaxFloat32, math.MaxFloat32}, {float32(math.Inf(-1)), 0}, {3, float32(math.Inf(1))}} {
		if e := between(ab[0], ab[1]); !(ab[0] <= e && e < ab[1]) {
			t.Errorf("between(%v, %v) = %v", ab[0], ab[1], e)
		}
	}
}

func TestSampleRows(t *testing.T) {
	from := make([]int32, 1000)
	for i := range from {
		from[i] = int32(i)
	}
	r := treeRand(1, 0)
	got := sampleRows(nil, from, 300, &r)
	if len(got) != 300 || !slices.IsSorted(got) {
		t.Fatalf("sampled %d rows (sorted: %v), want 300 in order", len(got), slices.IsSorted(got))
	}
	if len(slices.Compact(slices.Clone(got))) != 300 {
		t.Errorf("sample has repeated rows")
	}
	r2 := treeRand(1, 1)
	if slices.Equal(sampleRows(nil, from, 300, &r2), got) {
		t.Errorf("trees 0 and 1 sampled the same rows")
	}
}

// edgesOf returns binEdges(vals, maxBins) with scratch space of its own.
func edgesOf(vals []float32, maxBins int) []float32 {
	return binEdges(vals, maxBins, make([]uint32, len(vals)), make([]uint32, len(vals)))
}

func TestSortFloats(t *testing.T) {
	r := splitMix{s: 2}
	for _, n := range []int{0, 1, 5, 511, 512, 3000} {
		vals := make([]float32, n)
		for i := range vals {
			switch r.next() % 8 {
			case 0:
				vals[i] = float32(math.Inf(int(r.next()%2)*2 - 1))
			case 1:
				vals[i] = float32(math.Copysign(0, float64(r.uniform())))
			case 2:
				vals[i] = 3 // repeated
			default:
				vals[i] = r.uniform() * float32(math.Pow(10, float64(r.next()%20)-10))
			}
		}
		want := slices.Clone(vals)
		slices.Sort(want)
		sortFloats(vals, make([]uint32, n), make([]uint32, n))
		for i := range vals {
			if vals[i] != want[i] || i > 0 && vals[i] < vals[i-1] {
				t.Fatalf("n=%d: sorted[%d] = %v, want %v", n, i, vals[i], want[i])
			}
		}
	}
}
