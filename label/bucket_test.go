package label

import (
	"math"
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
