package score_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/score"
)

func TestBagOfWords(t *testing.T) {
	for _, c := range []struct {
		out, gold string
		want      score.Counts
	}{
		{"", "", score.Counts{}},
		{"", "Some gold.", score.Counts{FN: 2}},
		{"Menu, Login", "", score.Counts{FP: 2}},
		// Lowercased, punctuation dropped, order ignored, multiset counts.
		{"The cat and the hat", "the CAT!", score.Counts{TP: 2, FP: 3}},
		{"b a a", "a b b", score.Counts{TP: 2, FP: 1, FN: 1}},
		{"Grüße aus Köln", "grüße, aus KÖLN", score.Counts{TP: 3}},
		{"Grüße aus Köln", "Grüsse aus Köln", score.Counts{TP: 2, FP: 1, FN: 1}},
		{"Привет, МИР! Как дела?", "привет мир", score.Counts{TP: 2, FP: 2}},
		// Each Han or kana character is a token.
		{"東京タワー", "東京タワーに行く", score.Counts{TP: 5, FN: 3}},
		{"東京タワー。中文", "中文 東京タワー", score.Counts{TP: 7}},
		{"It's 2024", "it s 2024", score.Counts{TP: 3}},
	} {
		if got := score.BagOfWords(c.out, c.gold); got != c.want {
			t.Errorf("BagOfWords(%q, %q) = %+v, want %+v", c.out, c.gold, got, c.want)
		}
	}
	// WCXB's word_f1 exactly: a CJK run with no spaces is a single \w+ token.
	for _, c := range []struct {
		out, gold string
		want      score.Counts
	}{
		{"東京タワー", "東京タワーに行く", score.Counts{FP: 1, FN: 1}},
		{"東京タワー。中文", "中文 東京タワー", score.Counts{TP: 2}},
		{"The cat and the hat", "the CAT!", score.Counts{TP: 2, FP: 3}},
	} {
		if got := score.BagOfWordsAs(c.out, c.gold, score.CJKRuns); got != c.want {
			t.Errorf("BagOfWordsAs(%q, %q, CJKRuns) = %+v, want %+v", c.out, c.gold, got, c.want)
		}
	}
	if f := score.BagOfWords("Same text, same words.", "same TEXT same words").F1(); f != 1 {
		t.Errorf("identical bags: F1 = %v, want 1", f)
	}
	// WCXB's word_f1 on "The cat and the hat" vs "the CAT!": P = 2/5,
	// R = 1, F1 = 2PR/(P+R) = 4/7.
	c := score.BagOfWords("The cat and the hat", "the CAT!")
	if c.Precision() != 0.4 || c.Recall() != 1 || c.F1() != 4.0/7 {
		t.Errorf("P, R, F1 = %v, %v, %v", c.Precision(), c.Recall(), c.F1())
	}
}

func TestBagOfWordsCJK(t *testing.T) {
	for _, c := range []struct {
		out, gold string
		want      score.Counts
	}{
		{"", "", score.Counts{}},
		{"", "中文", score.Counts{FN: 2}},
		// Each Han or kana character is a token; word_f1 would see one
		// token on each side and no overlap.
		{"东京タワー", "东京タワーに行く", score.Counts{TP: 5, FN: 3}},
		{"新闻：2018年GDP增长", "2018年gdp增长。", score.Counts{TP: 5, FP: 2}},
		{"重重复", "重复复", score.Counts{TP: 2, FP: 1, FN: 1}},
		// Thai: a character each (its vowel and tone marks are not \w).
		{"ภาษาไทย", "ภาษา", score.Counts{TP: 4, FP: 3}},
		// Text without those scripts scores as BagOfWords.
		{"The cat and the hat", "the CAT!", score.Counts{TP: 2, FP: 3}},
	} {
		if got := score.BagOfWordsCJK(c.out, c.gold); got != c.want {
			t.Errorf("BagOfWordsCJK(%q, %q) = %+v, want %+v", c.out, c.gold, got, c.want)
		}
	}
}

// BenchmarkBoW scores a 3,000-word output against a 2,000-word gold, the
// size of a long article page.
func BenchmarkBoW(b *testing.B) {
	gold := wordsText(2000, 1)
	out := wordsText(1000, 2) + "\n" + gold
	b.SetBytes(int64(len(out) + len(gold)))
	for b.Loop() {
		score.BagOfWords(out, gold)
	}
}

// wordsText is n pseudo-random words with capitals and punctuation.
func wordsText(n int, seed uint32) string {
	var sb strings.Builder
	x := seed*2654435761 + 1
	for i := 0; i < n; i++ {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		w := x % 3000
		if x%7 == 0 {
			sb.WriteString("Wort")
		} else {
			sb.WriteString("word")
		}
		fmt.Fprintf(&sb, "%d", w%(1+w%97))
		if x%11 == 0 {
			sb.WriteString(". ")
		} else {
			sb.WriteByte(' ')
		}
	}
	return sb.String()
}

// Scoring an extraction with the WCXB bag-of-words measure, and a corpus
// with a Summary.
func Example() {
	gold := "Das Wetter in Köln\n\nMorgen wird es sonnig und warm."
	output := "Startseite | Login\nDas Wetter in Köln\nMorgen wird es sonnig und warm."

	c := score.BagOfWords(output, gold)
	fmt.Printf("TP=%d FP=%d FN=%d\n", c.TP, c.FP, c.FN)
	fmt.Printf("P=%.3f R=%.3f F1=%.3f\n", c.Precision(), c.Recall(), c.F1())

	var s score.Summary
	s.Add(c)
	s.Add(score.BagOfWords("", "a page the cleaner emptied"))
	fmt.Printf("pages=%d macro F1=%.3f micro F1=%.3f\n", s.Pages(), s.Macro().F1, s.Micro().F1)
	// Output:
	// TP=10 FP=2 FN=0
	// P=0.833 R=1.000 F1=0.909
	// pages=2 macro F1=0.455 micro F1=0.741
}
