package score

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestRougeTokens(t *testing.T) {
	for in, want := range map[string][]string{
		"":                         nil,
		"Hello, World! It's 2024.": {"hello", "world", "it", "s", "2024"},
		"snake_case x²":            {"snake", "case", "x"},
		"Grüße aus Köln":           {"gr", "e", "aus", "k", "ln"},
		"Привет мир 東京":            nil,
		"İstanbul \u212aelvin":     {"i", "stanbul", "kelvin"},
	} {
		if got := RougeTokens(in); !slices.Equal(got, want) {
			t.Errorf("RougeTokens(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRougeLSum(t *testing.T) {
	// The summary-level LCS example of Lin (2004), section 3.2: r = w1 w2 w3
	// w4 w5, c1 = w1 w2 w6 w7 w8, c2 = w1 w3 w8 w9 w5; the union LCS of r
	// is w1 w2 w3 w5, 4 hits; m = 5, n = 10.
	gold := "w1 w2 w3 w4 w5"
	out := "w1 w2 w6 w7 w8\nw1 w3 w8 w9 w5"
	if got := RougeLSum(out, gold); got != (Counts{TP: 4, FP: 6, FN: 1}) {
		t.Errorf("Lin's example: %+v", got)
	}
	for _, c := range []struct {
		out, gold string
		want      Counts
	}{
		{"", "", Counts{}},
		{"", "some gold", Counts{FN: 2}},
		{"some output", "", Counts{FP: 2}},
		{"\n\n", "---", Counts{}},
		{"The cat sat.\nOn the mat!", "the cat sat on the mat", Counts{TP: 6}},
		// Clipping: the union of "a" with both candidate lines has one a,
		// but two reference lines each find one; the reference has two.
		{"a b\na", "a\na", Counts{TP: 2, FP: 1}},
		{"a\na", "a b\na", Counts{TP: 2, FN: 1}},
		// Order within a line matters (LCS), across lines it does not.
		{"c b a", "a b c", Counts{TP: 1, FP: 2, FN: 2}},
		{"c\nb\na", "a b c", Counts{TP: 3}},
		{"Grüße aus Köln", "Grüße aus Köln", Counts{TP: 5}},
	} {
		if got := RougeLSum(c.out, c.gold); got != c.want {
			t.Errorf("RougeLSum(%q, %q) = %+v, want %+v", c.out, c.gold, got, c.want)
		}
	}

	ws := RougeOptions{Tokenize: Words}
	for _, c := range []struct {
		out, gold string
		want      Counts
	}{
		{"Grüße aus Köln", "Grüße aus Köln.", Counts{TP: 2, FP: 1, FN: 1}},
		{"Привет мир\nкак дела", "Привет как дела мир", Counts{TP: 4}}, // union of two LCSs
		{"東京タワー 中文", "中文\n東京タワー", Counts{TP: 2}},
	} {
		if got := RougeLSumWith(c.out, c.gold, ws); got != c.want {
			t.Errorf("RougeLSumWith(%q, %q, Words) = %+v, want %+v", c.out, c.gold, got, c.want)
		}
	}
	sentences := RougeOptions{Sentences: func(s string) []string { return strings.Split(s, ". ") }}
	if got := RougeLSumWith("c. b. a", "a b c", sentences); got != (Counts{TP: 3}) {
		t.Errorf("custom splitter: %+v", got)
	}
}

// refSummaryLCS is a literal transcription of rouge-score's
// _summary_level_lcs with the quadratic table and _backtrack_norec, the
// oracle for summaryLCS.
func refSummaryLCS(refs, cands [][]int32) int {
	m, n := 0, 0
	cr, cc := map[int32]int{}, map[int32]int{}
	for _, r := range refs {
		m += len(r)
		for _, x := range r {
			cr[x]++
		}
	}
	for _, c := range cands {
		n += len(c)
		for _, x := range c {
			cc[x]++
		}
	}
	if m == 0 || n == 0 {
		return 0
	}
	hits := 0
	for _, r := range refs {
		union := map[int]bool{}
		for _, c := range cands {
			tab := make([][]int, len(r)+1)
			for i := range tab {
				tab[i] = make([]int, len(c)+1)
			}
			for i := 1; i <= len(r); i++ {
				for j := 1; j <= len(c); j++ {
					if r[i-1] == c[j-1] {
						tab[i][j] = tab[i-1][j-1] + 1
					} else {
						tab[i][j] = max(tab[i-1][j], tab[i][j-1])
					}
				}
			}
			i, j := len(r), len(c)
			for i > 0 && j > 0 {
				switch {
				case r[i-1] == c[j-1]:
					union[i-1] = true
					i--
					j--
				case tab[i][j-1] > tab[i-1][j]:
					j--
				default:
					i--
				}
			}
		}
		for p := range r {
			if x := r[p]; union[p] && cc[x] > 0 && cr[x] > 0 {
				hits++
				cc[x]--
				cr[x]--
			}
		}
	}
	return hits
}

func TestSummaryLCSRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	gen := func(vocab, maxSents, maxLen int) [][]int32 {
		s := make([][]int32, rng.IntN(maxSents+1))
		for i := range s {
			s[i] = make([]int32, rng.IntN(maxLen+1))
			for j := range s[i] {
				s[i][j] = int32(rng.IntN(vocab))
			}
		}
		return s
	}
	for n := 0; n < 3000; n++ {
		vocab := 1 + rng.IntN(10)
		long := n%100 == 0
		maxSents, maxLen := 5, 12
		if long {
			maxSents, maxLen = 3, 300
		}
		refs, cands := gen(vocab, maxSents, maxLen), gen(vocab, maxSents, maxLen)
		want := refSummaryLCS(refs, cands)
		// Budgets: everything stored; checkpointing at every size.
		for _, budget := range []int{rowBudget, 1, 5} {
			got := summaryLCS(refs, cands, vocab, budget)
			if got.TP != want {
				t.Fatalf("budget %d: refs %v cands %v: hits %d, want %d", budget, refs, cands, got.TP, want)
			}
		}
	}
}

// BenchmarkRougeLSum scores a 3,000-word output against a 2,000-word gold,
// both with a line break every 12 words on average.
func BenchmarkRougeLSum(b *testing.B) {
	gold := genText(2000, 1)
	out := genText(1000, 2) + gold
	for b.Loop() {
		RougeLSum(out, gold)
	}
}

// FuzzSummaryLCS checks summaryLCS against the quadratic transcription of
// rouge-score: each byte is a token (its low 3 bits), '\n' bytes end
// sentences, and the first byte splits references from candidates.
func FuzzSummaryLCS(f *testing.F) {
	f.Add([]byte("\x05abc\ncab\nbca"))
	f.Add([]byte("\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 || len(data) > 400 {
			return
		}
		cut := 1 + int(data[0])%len(data)
		split := func(b []byte) [][]int32 {
			var out [][]int32
			cur := []int32{}
			for _, c := range b {
				if c == '\n' {
					out = append(out, cur)
					cur = []int32{}
					continue
				}
				cur = append(cur, int32(c&7))
			}
			return append(out, cur)
		}
		refs, cands := split(data[1:cut]), split(data[cut:])
		want := refSummaryLCS(refs, cands)
		for _, budget := range []int{rowBudget, 1} {
			if got := summaryLCS(refs, cands, 8, budget); got.TP != want {
				t.Fatalf("budget %d: refs %v cands %v: hits %d, want %d", budget, refs, cands, got.TP, want)
			}
		}
	})
}
