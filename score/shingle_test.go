package score

import "testing"

func TestShingles(t *testing.T) {
	// Expectations computed with the benchmark's own string_shingle_matching
	// (before its normalisation by TP+FP+FN, which Counts does not apply).
	for _, c := range []struct {
		gold, out string
		want      Counts
	}{
		{"", "", Counts{}},
		{"", "a b c d e", Counts{FP: 2}},
		{"a b c d", "", Counts{FN: 1}},
		{"a b c d", "a b c d e", Counts{TP: 1, FP: 1}},
		// Fewer than four tokens: one shorter shingle.
		{"a b", "a b", Counts{TP: 1}},
		{"a b c", "a b", Counts{FP: 1, FN: 1}},
		// Case is kept.
		{"a b c d", "A b c d", Counts{FP: 1, FN: 1}},
		// Multisets.
		{"x x x x", "x x x x x", Counts{TP: 1, FP: 1}},
		{"a a a a a", "a", Counts{FP: 1, FN: 2}},
		{"Die Straße ist schön, sagte Jürgen gestern.", "Die Straße ist schön, sagte er gestern.", Counts{TP: 2, FP: 2, FN: 2}},
		{"Он сказал, что придёт завтра утром", "Он сказал, что придёт завтра", Counts{TP: 2, FN: 1}},
	} {
		if got := ShinglesAs(c.out, c.gold, ShingleSize, CJKRuns); got != c.want {
			t.Errorf("ShinglesAs(%q, %q, CJKRuns) = %+v, want %+v", c.out, c.gold, got, c.want)
		}
	}
	// By the benchmark's tokens a CJK run is one token; by default each
	// character is one, so the 16 characters of the gold make 13 shingles.
	cjkGold, cjkOut := "東京タワー 中文 测试 日本語 テキスト", "東京タワー 中文 测试 日本語"
	if got, want := ShinglesAs(cjkOut, cjkGold, ShingleSize, CJKRuns), (Counts{TP: 1, FN: 1}); got != want {
		t.Errorf("ShinglesAs(CJKRuns) = %+v, want %+v", got, want)
	}
	if got, want := Shingles(cjkOut, cjkGold), (Counts{TP: 9, FN: 4}); got != want {
		t.Errorf("Shingles(CJK) = %+v, want %+v", got, want)
	}
	for _, c := range []struct {
		gold, out string
		want      Counts
	}{
		{"a b c d", "a b c d e", Counts{TP: 1, FP: 1}},
	} {
		if got := Shingles(c.out, c.gold); got != c.want {
			t.Errorf("Shingles(%q, %q) = %+v, want %+v", c.out, c.gold, got, c.want)
		}
	}
	text := "one two three four five six seven"
	if f := Shingles(text, text).F1(); f != 1 {
		t.Errorf("identical texts: F1 = %v", f)
	}
}

// TestShinglesN checks that shingles of different lengths never share an id
// and that n=1 is the case-sensitive bag of words.
func TestShinglesN(t *testing.T) {
	if got := ShinglesN("b a A", "a b b", 1); got != (Counts{TP: 2, FP: 1, FN: 1}) {
		t.Errorf("n=1: %+v", got)
	}
	// "a b" is one 2-token shingle; "a b c" has the 3-gram (a b c) only.
	if got := ShinglesN("a b", "a b c", 3); got != (Counts{FP: 1, FN: 1}) {
		t.Errorf("n=3 short: %+v", got)
	}
	// A one-token text's shingle is the token itself.
	if got := ShinglesN("a", "a", 4); got != (Counts{TP: 1}) {
		t.Errorf("one token: %+v", got)
	}
	if got := ShinglesN("a b c d e f", "c d e f g", 2); got != (Counts{TP: 3, FP: 2, FN: 1}) {
		t.Errorf("n=2: %+v", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("ShinglesN with n=0 did not panic")
		}
	}()
	ShinglesN("a", "a", 0)
}

func BenchmarkShingles(b *testing.B) {
	gold := genText(2000, 1)
	out := genText(1000, 2) + gold
	for b.Loop() {
		Shingles(out, gold)
	}
}
