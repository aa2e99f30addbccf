package score

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func TestLCS(t *testing.T) {
	for _, c := range []struct {
		out, gold string
		want      Counts
	}{
		{"", "", Counts{}},
		{"", "a b", Counts{FN: 2}},
		{"a b", "", Counts{FP: 2}},
		{"a b c d", "a c e", Counts{TP: 2, FP: 2, FN: 1}},
		{"the cat sat on the mat", "the cat sat on the mat", Counts{TP: 6}},
		// Order matters: a bag of words would match all three.
		{"c b a", "a b c", Counts{TP: 1, FP: 2, FN: 2}},
		// Case and punctuation are part of the word.
		{"The cat.", "the cat", Counts{FP: 2, FN: 2}},
		{"Grüße aus Köln", "Viele Grüße aus Köln", Counts{TP: 3, FN: 1}},
		{"Привет мир как дела", "Привет как дела", Counts{TP: 3, FP: 1}},
		// A Han or kana character is a word; the punctuation between
		// two is a word too.
		{"东京 タワー 中文", "东京 中文", Counts{TP: 4, FP: 3}},
		{"新闻：东京", "东京。", Counts{TP: 2, FP: 3, FN: 1}},
	} {
		if got := LCS(c.out, c.gold); got != c.want {
			t.Errorf("LCS(%q, %q) = %+v, want %+v", c.out, c.gold, got, c.want)
		}
	}
	if got, want := LCSAs("东京 タワー 中文", "东京 中文", CJKRuns), (Counts{TP: 2, FP: 1}); got != want {
		t.Errorf("LCSAs(CJKRuns) = %+v, want %+v", got, want)
	}
	c := LCS("a b c d", "a c e")
	if p, r, f := c.Precision(), c.Recall(), c.F1(); p != 0.5 || r != 2.0/3 || f != 4.0/7 {
		t.Errorf("P, R, F = %v, %v, %v; want 0.5, 2/3, 4/7", p, r, f)
	}
	if f := LCS("x y z", "x y z").F1(); f != 1 {
		t.Errorf("identical texts: F1 = %v", f)
	}
}

// dpLCS is the textbook quadratic dynamic programme.
func dpLCS(a, b []string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			if a[i-1] == b[j-1] {
				cur[j] = prev[j-1] + 1
			} else {
				cur[j] = max(prev[j], cur[j-1])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func TestLCSRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 2000; n++ {
		vocab := 1 + rng.IntN(12)
		gen := func() []string {
			toks := make([]string, rng.IntN(150))
			for i := range toks {
				toks[i] = string(rune('a' + rng.IntN(vocab)))
			}
			return toks
		}
		a, b := gen(), gen()
		if rng.IntN(4) == 0 { // similar texts: edit a copy
			b = append([]string(nil), a...)
			for k := rng.IntN(5); k > 0 && len(b) > 0; k-- {
				i := rng.IntN(len(b))
				b = append(b[:i], b[i+1:]...)
			}
		}
		want := dpLCS(a, b)
		got := LCSTokens(a, b)
		if got != (Counts{TP: want, FP: len(a) - want, FN: len(b) - want}) {
			t.Fatalf("LCSTokens(%q, %q) = %+v, want TP %d", a, b, got, want)
		}
		if s := LCS(strings.Join(a, " "), strings.Join(b, " ")); s != got {
			t.Fatalf("LCS on joined text = %+v, want %+v", s, got)
		}
	}
}

// genText returns a pseudo-random text of n words drawn from a Zipf-like
// vocabulary of about 5,000 words, with some capitals and punctuation.
func genText(n int, seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, 99))
	z := rand.NewZipf(rng, 1.1, 2, 5000)
	var b strings.Builder
	for i := 0; i < n; i++ {
		w := z.Uint64()
		word := "w" + string(rune('a'+w%26)) + string(rune('a'+(w/26)%26)) + string(rune('a'+(w/676)%26))
		if rng.IntN(10) == 0 {
			word = strings.ToUpper(word[:1]) + word[1:]
		}
		b.WriteString(word)
		switch rng.IntN(12) {
		case 0:
			b.WriteString(".\n")
		case 1:
			b.WriteString(", ")
		default:
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// BenchmarkLCS50k scores a 50,000-word output against a 40,000-word gold
// that shares about two thirds of it: a large page with boilerplate around a
// long main text.
func BenchmarkLCS50k(b *testing.B) {
	gold := Words(genText(40000, 1))
	noise := Words(genText(50000, 2))
	out := make([]string, 0, 50000)
	for i := 0; len(out) < 50000; i++ {
		if i%3 == 2 {
			out = append(out, noise[i%len(noise)])
		} else if i < len(gold) {
			out = append(out, gold[i])
		} else {
			out = append(out, noise[i%len(noise)])
		}
	}
	b.ResetTimer()
	for b.Loop() {
		LCSTokens(out, gold)
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/page")
}
