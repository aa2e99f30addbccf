package features

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestBucket(t *testing.T) {
	b, err := NewBucket("words", []float64{0, 1, 2, 4, 8})
	if err != nil {
		t.Fatal(err)
	}
	for v, want := range map[float64]string{-3: "words=0", 0: "words=0", 1: "words=1", 3: "words=2", 4: "words=4",
		100: "words=8", math.NaN(): "words=0", 0.5: "words=0"} {
		if got := b.Name(v); got != want {
			t.Errorf("Name(%v) = %s, want %s", v, got, want)
		}
	}
	if got := b.Int(5); got != "words=4" {
		t.Errorf("Int(5) = %s", got)
	}
	r, _ := NewBucket("r", []float64{0, 0.05, 1e4})
	if got := r.Names(); !slices.Equal(got, []string{"r=0", "r=0.05", "r=10000"}) {
		t.Errorf("Names = %v", got)
	}
	if _, err := NewBucket("x", []float64{0, math.Inf(1)}); err == nil {
		t.Error("infinite bound accepted")
	}
	if _, err := NewBucket("", []float64{0}); err == nil {
		t.Error("empty key accepted")
	}
}

func TestBucketNoAllocs(t *testing.T) {
	b, _ := NewBucket("chars", []float64{0, 2, 4, 8, 16})
	if n := testing.AllocsPerRun(100, func() { _ = b.Int(7) }); n != 0 {
		t.Errorf("Int allocates %v times", n)
	}
}

func TestBucketIntMatchesName(t *testing.T) {
	for _, bounds := range [][]float64{{0, 1, 2, 4, 8}, {1, 2, 3}, {0, 0.5, 1}, {0, 50, 100, 1000, 10000}, {-10, -1}, {2.5, 7.5, 300}} {
		b, err := NewBucket("k", bounds)
		if err != nil {
			t.Fatal(err)
		}
		for n := int32(-5); n < 20000; n++ {
			if got, want := b.Int(n), b.Name(float64(n)); got != want {
				t.Fatalf("bounds %v: Int(%d) = %s, Name = %s", bounds, n, got, want)
			}
		}
	}
}

func TestBucketIndexMatchesLinearScan(t *testing.T) {
	naive := func(bounds []float64, v float64) int {
		i := 0
		for k, b := range bounds {
			if b <= v {
				i = k
			}
		}
		return i
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, bounds := range [][]float64{
		{0, .05, .1, .13, .16, .2, .25, .3, .5}, {0, .01, .1, .2, .33, .5, .67, .8, .9, 1},
		{0, 1, 2, 3, 4, 5, 6, 8, 10, 13, 16, 20, 25, 30, 40, 50, 70, 100, 150, 200},
		{0, 50, 100, 200, 300, 500, 750, 1000, 1500, 2000, 3000, 5000, 10000},
		{0, 1e-9, 2e-9, 1}, {-3, 0.1, 7}, {5},
	} {
		b, err := NewBucket("k", bounds)
		if err != nil {
			t.Fatal(err)
		}
		var vs []float64
		for _, x := range bounds {
			vs = append(vs, x, math.Nextafter(x, math.Inf(-1)), math.Nextafter(x, math.Inf(1)))
		}
		span := bounds[len(bounds)-1] - bounds[0] + 1
		for range 10000 {
			vs = append(vs, bounds[0]-1+rng.Float64()*(span+2))
		}
		for _, v := range vs {
			if got, want := b.Index(v), naive(bounds, v); got != want {
				t.Fatalf("bounds %v: Index(%v) = %d, want %d", bounds, v, got, want)
			}
		}
	}
}
