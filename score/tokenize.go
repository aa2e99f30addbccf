package score

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file holds the word tokenisers the metrics share. They reproduce the
// Python expressions the reference scorers are written in, because a metric
// is only comparable with published figures when it cuts words the same way:
//
//   - Words: str.split() with no argument (white-space runs separate tokens).
//   - WordTokens: re.findall(r'\w+', s) on a str (Python 3 re semantics).
//   - WordsLower: re.findall(r'\w+', s.lower()), the WCXB tokeniser.
//
// Python 3 defines \w on str as "alphanumeric (str.isalnum) or underscore",
// and isalnum is isalpha (general category Lu, Ll, Lt, Lm, Lo) or isnumeric
// (Numeric_Type Decimal, Digit or Numeric). For every code point the second
// set equals general category N (Nd, Nl, No): checked exhaustively against
// Python 3.11. So \w is unicode.IsLetter || unicode.IsNumber || '_'. Marks
// (Mn, Mc, Me) are NOT word characters in Python's re, unlike in most other
// regex engines: "nai\u0308ve" (decomposed) is the two tokens "nai" and "ve",
// and Devanagari words break at their vowel signs. We reproduce that, since
// the benchmarks' figures include it. A run of CJK ideographs (category Lo)
// with no spaces is a single token.
//
// Python's str.lower() is reproduced too: simple lowercase mappings, plus
// the full mapping of U+0130 (İ → "i" U+0307, so "İstanbul" lowercases to
// a word "i", a non-word combining dot, and a word "stanbul") and the
// Final_Sigma rule for U+03A3 (Σ → ς at the end of a word, σ elsewhere).
//
// The character tables are Go's (unicode.Version, 15.0 for Go 1.26), so
// code points assigned after the Python release a reference figure was
// computed with may tokenise differently; no other difference is known.

// isPySpace reports whether r is white space for Python's str.isspace,
// str.split and re's \s: Go's unicode.IsSpace plus the ASCII information
// separators U+001C..U+001F, which Python counts (bidirectional class B/S).
func isPySpace(r rune) bool {
	if r < utf8.RuneSelf {
		return asciiSpace[r]
	}
	return unicode.IsSpace(r)
}

// isPyWord reports whether r matches Python 3's \w on str. It is small
// enough to inline (runs then calls it directly); isPyWordRune does the rest.
func isPyWord(r rune) bool {
	if r < utf8.RuneSelf {
		return asciiWord[r]
	}
	return isPyWordRune(r)
}

func isPyWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }

var asciiSpace, asciiWord [utf8.RuneSelf]bool

func init() {
	for _, r := range "\t\n\v\f\r \x1c\x1d\x1e\x1f" {
		asciiSpace[r] = true
	}
	for r := 'a'; r <= 'z'; r++ {
		asciiWord[r] = true
		asciiWord[r-'a'+'A'] = true
	}
	for r := '0'; r <= '9'; r++ {
		asciiWord[r] = true
	}
	asciiWord['_'] = true
}

// Words splits s at runs of white space, as Python's str.split() does (and
// as Gottron's word-sequence measure counts words), Unicode spaces such as
// U+00A0 included; the CleanEval scorer splits at ASCII white space only
// (see CleanEvalWords). Leading and trailing white space produce no empty
// tokens.
func Words(s string) []string { return runs(s, notPySpace) }

func notPySpace(r rune) bool { return !isPySpace(r) }

// WordTokens returns the maximal runs of word characters of s, as Python's
// re.findall(r'\w+', s) does; case is kept. The Zyte (Scrapinghub) article
// extraction benchmark builds its shingles from these tokens.
func WordTokens(s string) []string { return runs(s, isPyWord) }

// runs returns the maximal runs of the characters of s for which in is
// true.
func runs(s string, in func(rune) bool) []string {
	var out []string
	start := -1
	for i, r := range s {
		if in(r) {
			if start < 0 {
				start = i
			}
		} else if start >= 0 {
			out = append(out, s[start:i])
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

// WordsLower returns the word tokens of the lowercased text, as Python's
// re.findall(r'\w+', s.lower()) does: the tokeniser of the WCXB benchmark's
// bag-of-words F1. See the file comment for the exact semantics (Python's
// \w, full lowercasing with final sigma). Tokens that lowercasing leaves
// unchanged share memory with s.
func WordsLower(s string) []string {
	var out []string
	var buf []byte
	start := -1      // byte offset of the current token in s
	changed := false // the current token differs from s[start:i] once lowered
	flush := func(end int) {
		if changed {
			out = append(out, string(buf))
		} else {
			out = append(out, s[start:end])
		}
		start, changed = -1, false
	}
	for i, r := range s {
		if !isPyWord(r) {
			if start >= 0 {
				flush(i)
			}
			continue
		}
		if start < 0 {
			start = i
			buf = buf[:0]
		}
		if r < utf8.RuneSelf && (r < 'A' || r > 'Z') {
			if changed {
				buf = append(buf, byte(r))
			}
			continue
		}
		lr, split := pyLowerAt(s, i, r)
		if lr != r && !changed {
			changed = true
			buf = append(buf[:0], s[start:i]...)
		}
		if changed {
			buf = utf8.AppendRune(buf, lr)
		}
		if split {
			// U+0130 lowercases to "i" U+0307; the combining dot is not a
			// word character, so the token ends after the "i".
			flush(i)
		}
	}
	if start >= 0 {
		flush(len(s))
	}
	return out
}

// pyLowerAt returns the lowercase of r, found at byte offset i of s, as
// Python's str.lower() produces it. split reports the one multi-character
// mapping, U+0130 → "i" U+0307: lr is then 'i' and a non-word character
// follows it.
func pyLowerAt(s string, i int, r rune) (lr rune, split bool) {
	switch r {
	case 0x130:
		return 'i', true
	case 0x3A3:
		if finalSigma(s, i) {
			return 0x3C2, false
		}
		return 0x3C3, false
	}
	return unicode.ToLower(r), false
}

// pyLower returns Python's s.lower().
func pyLower(s string) string {
	// Fast path: nothing to change.
	clean := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || ('A' <= c && c <= 'Z') {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i, r := range s {
		lr, split := pyLowerAt(s, i, r)
		b.WriteRune(lr)
		if split {
			b.WriteRune(0x307)
		}
	}
	return b.String()
}

// finalSigma reports whether the capital sigma at byte offset i of s is in
// the Final_Sigma context of Unicode's SpecialCasing, as CPython tests it:
// a cased letter precedes it (case-ignorable characters skipped) and no
// cased letter follows it (case-ignorable characters skipped).
func finalSigma(s string, i int) bool {
	j := i
	before := false
	for j > 0 {
		r, n := utf8.DecodeLastRuneInString(s[:j])
		j -= n
		if !isCaseIgnorable(r) {
			before = isCased(r)
			break
		}
	}
	if !before {
		return false
	}
	for _, r := range s[i+utf8.RuneLen(0x3A3):] {
		if !isCaseIgnorable(r) {
			return !isCased(r)
		}
	}
	return true
}

// isCased is Unicode's Cased property: Lu, Ll, Lt, Other_Lowercase,
// Other_Uppercase.
func isCased(r rune) bool {
	if r < utf8.RuneSelf {
		return ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z')
	}
	return unicode.In(r, unicode.Lu, unicode.Ll, unicode.Lt, unicode.Other_Lowercase, unicode.Other_Uppercase)
}

// isCaseIgnorable is Unicode's Case_Ignorable property: Mn, Me, Cf, Lm, Sk,
// and Word_Break MidLetter, MidNumLet or Single_Quote (listed by hand, as Go
// has no Word_Break table).
func isCaseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', 0xB7, 0x387, 0x55F, 0x5F4, 0x2018, 0x2019, 0x2024,
		0x2027, 0xFE13, 0xFE52, 0xFE55, 0xFF07, 0xFF0E, 0xFF1A:
		return true
	}
	if r < utf8.RuneSelf {
		return r == '^' || r == '`' // Sk
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}

// WordsLowerCJK returns the tokens of WordsLower with every character of a
// script written without spaces between words (textunit.IsChar: Han,
// Hiragana, Katakana, Thai, Lao, Khmer, Myanmar) cut out as a token of its
// own: "2018年GDP增长" gives "2018", "年", "gdp", "增", "长". WordsLower would
// keep such a run whole, one token however long the sentence, so that a bag
// of words over Chinese or Japanese text counts sentences rather than words;
// characters are the usual unit there. Runs of other word characters stay
// whole, as in WordsLower.
func WordsLowerCJK(s string) []string { return CJKChars.cut(WordsLower(s)) }

// WordTokensCJK is WordTokens with every character of textunit.IsChar a
// token of its own, as WordsLowerCJK.
func WordTokensCJK(s string) []string { return CJKChars.cut(WordTokens(s)) }

// WordsCJK is Words with every character of textunit.IsChar a token of its
// own, and the text between two such characters in a white-space word
// (punctuation, Latin letters) a token too: "中文，ok" gives "中", "文",
// "，ok".
func WordsCJK(s string) []string { return CJKChars.cut(Words(s)) }
