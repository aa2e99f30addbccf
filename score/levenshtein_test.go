package score

import (
	"math"
	"math/rand/v2"
	"testing"
)

// naiveLCS is the textbook O(n*m) dynamic programme.
func naiveLCS(a, b []int32) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			switch {
			case a[i] == b[j]:
				cur[j+1] = prev[j] + 1
			case prev[j+1] >= cur[j]:
				cur[j+1] = prev[j+1]
			default:
				cur[j+1] = cur[j]
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func randSeq(r *rand.Rand, n, vocab int, base int32) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = base + int32(r.IntN(vocab))
	}
	return s
}

// mutateSeq returns an edited copy of s.
func mutateSeq(r *rand.Rand, s []int32, vocab int, rate float64) []int32 {
	var out []int32
	for _, x := range s {
		switch p := r.Float64(); {
		case p < rate:
		case p < 2*rate:
			out = append(out, int32(r.IntN(vocab)))
		case p < 3*rate:
			out = append(out, int32(r.IntN(vocab)), x)
		default:
			out = append(out, x)
		}
	}
	return out
}

func TestLCSLengthRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 3000; n++ {
		vocab := []int{1, 2, 3, 5, 10, 50, 1000}[r.IntN(7)]
		la := r.IntN([]int{5, 70, 300}[r.IntN(3)] + 1)
		var base int32
		switch r.IntN(4) {
		case 0:
			base = -500 // negative ids
		case 1:
			base = 1 << 28 // large sparse ids
		}
		a := randSeq(r, la, vocab, base)
		var b []int32
		if r.IntN(2) == 0 {
			b = randSeq(r, r.IntN(la+10), vocab, base)
		} else {
			b = mutateSeq(r, a, vocab, []float64{0.01, 0.05, 0.3}[r.IntN(3)])
			for i := range b {
				if b[i] < base {
					b[i] += base
				}
			}
		}
		want := naiveLCS(a, b)
		if got := lcsLength(a, b); got != want {
			t.Fatalf("lcsLength(%v, %v) = %d, want %d", a, b, got, want)
		}
		// Both inner algorithms on their own, whatever the budget.
		if len(a) > 0 && len(b) > 0 {
			if d, ok := myersDistance(a, b, math.MaxInt64); !ok || d != len(a)+len(b)-2*want {
				t.Fatalf("myersDistance(%v, %v) = %d, %v; want %d", a, b, d, ok, len(a)+len(b)-2*want)
			}
			if got := bitParallelLCS(a, b); got != want {
				t.Fatalf("bitParallelLCS(%v, %v) = %d, want %d", a, b, got, want)
			}
			if got := bitParallelLCS(b, a); got != want {
				t.Fatalf("bitParallelLCS(%v, %v) = %d, want %d", b, a, got, want)
			}
		}
	}
}

func TestIndelDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"abc", "", 3},
		{"kitten", "sitting", 5}, // LCS "ittn": 6+7-8
		{"abcd", "acbd", 2},
	}
	for _, tt := range tests {
		if got := IndelDistance(chars(tt.a), chars(tt.b)); got != tt.want {
			t.Errorf("IndelDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestCleanEvalEdit(t *testing.T) {
	gold := "URL: http://x/\n<h>The Title\n<p>Hello, world! It's fine."
	output := "<p>the title:\n<p>Hello world -- it's fine. Home"
	// Normalised (lower-case, letters and digits only, empty tokens dropped):
	// gold text:   the title hello world its fine            (6)
	// output text: the title hello world its fine home       (7)
	// gold markup:   <h> the title <p> hello world its fine    (8)
	// output markup: <p> the title <p> hello world its fine home (9)
	s := CleanEvalEdit(output, gold)
	if s.LenText != 13 || s.DistText != 1 || s.LenMarkup != 17 || s.DistMarkup != 3 {
		t.Fatalf("got %+v", s)
	}
	if s.TextOnly != 1-1.0/13 || s.TextMarkup != 1-3.0/17 || s.Average != (s.TextOnly+s.TextMarkup)/2 {
		t.Errorf("got %+v", s)
	}
	if e := CleanEvalEdit("", ""); e.TextOnly != 1 || e.TextMarkup != 1 || e.Average != 1 {
		t.Errorf("empty: %+v", e)
	}
	if e := CleanEvalEdit("<p>a", "<p>b"); e.TextOnly != 0 || e.TextMarkup != 0.5 {
		t.Errorf("disjoint text: %+v", e)
	}
}

func benchLCS(b *testing.B, similar bool) {
	r := rand.New(rand.NewPCG(3, 4))
	z := rand.NewZipf(r, 1.2, 1, 20000)
	a := make([]int32, 50000)
	for i := range a {
		a[i] = int32(z.Uint64())
	}
	var c []int32
	if similar {
		c = mutateSeq(r, a, 20000, 0.02)
	} else {
		c = make([]int32, 50000)
		for i := range c {
			c[i] = int32(z.Uint64())
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		lcsLength(a, c)
	}
}

// BenchmarkLCS: 50,000-token pages, near-identical (Myers) and unrelated
// (bit-parallel).
func BenchmarkLCS(b *testing.B) {
	b.Run("similar", func(b *testing.B) { benchLCS(b, true) })
	b.Run("unrelated", func(b *testing.B) { benchLCS(b, false) })
}

func FuzzLCSLength(f *testing.F) {
	f.Add([]byte("kitten"), []byte("sitting"))
	f.Add([]byte(""), []byte("abc"))
	f.Fuzz(func(t *testing.T, x, y []byte) {
		if len(x) > 300 || len(y) > 300 {
			return
		}
		a, b := make([]int32, len(x)), make([]int32, len(y))
		for i, c := range x {
			a[i] = int32(c % 8)
		}
		for i, c := range y {
			b[i] = int32(c % 8)
		}
		if got, want := lcsLength(a, b), naiveLCS(a, b); got != want {
			t.Fatalf("lcsLength = %d, want %d", got, want)
		}
	})
}
