package score

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// The expectations below were computed with CPython 3.11: s.split(),
// re.findall(r'\w+', s) and re.findall(r'\w+', s.lower()).
var tokenizeCases = []struct {
	in                  string
	words, tokens, lows []string
}{
	{"", nil, nil, nil},
	{" \t\n", nil, nil, nil},
	{
		"Hello, World! It's 2024.",
		[]string{"Hello,", "World!", "It's", "2024."},
		[]string{"Hello", "World", "It", "s", "2024"},
		[]string{"hello", "world", "it", "s", "2024"},
	},
	{
		"Grüße aus Köln: Straße, ÄÖÜ äöü",
		[]string{"Grüße", "aus", "Köln:", "Straße,", "ÄÖÜ", "äöü"},
		[]string{"Grüße", "aus", "Köln", "Straße", "ÄÖÜ", "äöü"},
		[]string{"grüße", "aus", "köln", "straße", "äöü", "äöü"},
	},
	{
		"Привет, МИР! Ёлка",
		[]string{"Привет,", "МИР!", "Ёлка"},
		[]string{"Привет", "МИР", "Ёлка"},
		[]string{"привет", "мир", "ёлка"},
	},
	{
		// A run of CJK (and kana) is one \w+ token; ideographic
		// punctuation separates.
		"日本語のテキスト、東京タワー。中文 测试",
		[]string{"日本語のテキスト、東京タワー。中文", "测试"},
		[]string{"日本語のテキスト", "東京タワー", "中文", "测试"},
		[]string{"日本語のテキスト", "東京タワー", "中文", "测试"},
	},
	{
		// İ lowercases to "i" + U+0307 (not a word character); Σ to final
		// ς at the end of a word, σ elsewhere.
		"İstanbul ΟΔΟΣ ΟΔΟΣ. Σ",
		[]string{"İstanbul", "ΟΔΟΣ", "ΟΔΟΣ.", "Σ"},
		[]string{"İstanbul", "ΟΔΟΣ", "ΟΔΟΣ", "Σ"},
		[]string{"i", "stanbul", "οδος", "οδος", "σ"},
	},
	{
		// Combining marks are not \w in Python's re.
		"nai\u0308ve snake_case x²",
		[]string{"nai\u0308ve", "snake_case", "x²"},
		[]string{"nai", "ve", "snake_case", "x²"},
		[]string{"nai", "ve", "snake_case", "x²"},
	},
	{
		"हिन्दी भाषा",
		[]string{"हिन्दी", "भाषा"},
		[]string{"ह", "न", "द", "भ", "ष"},
		[]string{"ह", "न", "द", "भ", "ष"},
	},
	{
		// U+001C is white space for Python, as are NBSP and EM SPACE.
		"  \t\x1c a\u00a0b\u2003c\n",
		[]string{"a", "b", "c"},
		[]string{"a", "b", "c"},
		[]string{"a", "b", "c"},
	},
	{
		"ΣΑΣ ΣΑΣ'Α K\u212a",
		[]string{"ΣΑΣ", "ΣΑΣ'Α", "K\u212a"},
		[]string{"ΣΑΣ", "ΣΑΣ", "Α", "K\u212a"},
		[]string{"σας", "σασ", "α", "kk"},
	},
}

func TestTokenizers(t *testing.T) {
	for _, c := range tokenizeCases {
		if got := Words(c.in); !slices.Equal(got, c.words) {
			t.Errorf("Words(%q) = %q, want %q", c.in, got, c.words)
		}
		if got := WordTokens(c.in); !slices.Equal(got, c.tokens) {
			t.Errorf("WordTokens(%q) = %q, want %q", c.in, got, c.tokens)
		}
		if got := WordsLower(c.in); !slices.Equal(got, c.lows) {
			t.Errorf("WordsLower(%q) = %q, want %q", c.in, got, c.lows)
		}
	}
}

func TestPyLower(t *testing.T) {
	for in, want := range map[string]string{
		"":          "",
		"abc":       "abc",
		"ABC Äß":    "abc äß",
		"İ":         "i\u0307",
		"ΟΔΟΣ":      "οδος",
		"ΟΔΟΣ ΟΔΟΣ": "οδος οδος",
		"Σ":         "σ",
		"ΑΣ'Β":      "ασ'β", // ' is case-ignorable: a cased letter follows
		"ΑΣ'":       "ας'",
		"\u212a":    "k",
		"ǅ":         "ǆ",
		"Ⅻ":         "ⅻ",
	} {
		if got := pyLower(in); got != want {
			t.Errorf("pyLower(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestWordsLowerMatchesSpec checks WordsLower against its definition,
// WordTokens(pyLower(s)), on every short string over an alphabet of awkward
// characters.
func TestWordsLowerMatchesSpec(t *testing.T) {
	alphabet := []rune{'a', 'Z', '_', ' ', '.', '\'', 'Σ', 'İ', 'Ä', '\u0308', '日', '²', '\u00ad'}
	var rec func(prefix []rune, depth int)
	rec = func(prefix []rune, depth int) {
		s := string(prefix)
		if got, want := WordsLower(s), WordTokens(pyLower(s)); !slices.Equal(got, want) {
			t.Fatalf("WordsLower(%q) = %q, want %q", s, got, want)
		}
		if depth == 0 {
			return
		}
		for _, r := range alphabet {
			rec(append(prefix, r), depth-1)
		}
	}
	rec(nil, 4)
}

func BenchmarkWordsLower(b *testing.B) {
	text := genText(10000, 1)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		WordsLower(text)
	}
}

// FuzzWordsLower checks WordsLower against its definition and the basic
// invariants of the tokenisers on arbitrary input.
func FuzzWordsLower(f *testing.F) {
	for _, c := range tokenizeCases {
		f.Add(c.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := WordsLower(s), WordTokens(pyLower(s)); !slices.Equal(got, want) {
			t.Fatalf("WordsLower(%q) = %q, want %q", s, got, want)
		}
		for _, w := range Words(s) {
			if w == "" {
				t.Fatalf("Words(%q) has an empty token", s)
			}
		}
		for _, w := range WordTokens(s) {
			for _, r := range w {
				if !isPyWord(r) {
					t.Fatalf("WordTokens(%q): %q holds non-word %q", s, w, r)
				}
			}
		}
		// WordsLowerCJK only cuts WordsLower's tokens, each CJK character
		// into a token of its own.
		cjk := WordsLowerCJK(s)
		if got, want := strings.Join(cjk, ""), strings.Join(WordsLower(s), ""); got != want {
			t.Fatalf("WordsLowerCJK(%q) = %q: not a cut of WordsLower's tokens", s, cjk)
		}
		for _, w := range cjk {
			if w == "" || hasChar(w) && utf8.RuneCountInString(w) != 1 {
				t.Fatalf("WordsLowerCJK(%q): token %q", s, w)
			}
		}
	})
}

func TestWordsLowerCJK(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"The CAT, sat.", []string{"the", "cat", "sat"}},
		{"中文", []string{"中", "文"}},
		{"2018年GDP增长6.6%。", []string{"2018", "年", "gdp", "增", "长", "6", "6"}},
		{"东京タワーに行く", []string{"东", "京", "タ", "ワ", "ー", "に", "行", "く"}},
		{"Hello 世界 again", []string{"hello", "世", "界", "again"}},
		{"々〇", []string{"々", "〇"}},        // Han script, though not ideographs proper
		{"한국어 단어", []string{"한국어", "단어"}}, // Hangul is written with spaces
		{"𠀋x", []string{"𠀋", "x"}},        // outside the BMP
	} {
		if got := WordsLowerCJK(c.in); !slices.Equal(got, c.want) {
			t.Errorf("WordsLowerCJK(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	// Without CJK characters it is WordsLower.
	for _, c := range tokenizeCases {
		if hasChar(c.in) {
			continue
		}
		if got, want := WordsLowerCJK(c.in), WordsLower(c.in); !slices.Equal(got, want) {
			t.Errorf("WordsLowerCJK(%q) = %q, want WordsLower's %q", c.in, got, want)
		}
	}
}
