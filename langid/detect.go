// Package langid tells the language of a text: of a whole document, with
// what its markup declares as evidence (Decide), and of one block of it
// (Block). Scripts used by one language decide alone (kana is Japanese,
// Hangul Korean, Han without kana Chinese, Thai, Greek); the languages
// that share a script are told apart by
// github.com/abadojack/whatlanggo's trigram profiles (docs/langid.md says
// why that library).
//
// Codes are ISO 639-1 ("en", "zh"), or ISO 639-3 for a language that has
// no two-letter code. Every function bounds its work: it reads at most
// SampleBytes of its text.
package langid

import (
	"unicode"
	"unicode/utf8"
)

// SampleBytes is the most of a text Detect reads: its first SampleBytes
// bytes, cut back to a whole character. Some 40 to 80 words (Cyrillic and
// Greek letters take two bytes, Han three) tell a language nearly as well
// as a whole page: on the shared pages, with the declared language as
// evidence, 99.7% of documents are right from 256 bytes, 99.8% from 512,
// 100% from 1,024 (docs/langid.md); and the time grows with the text,
// about 35 µs a page at 512 bytes.
const SampleBytes = 512

// MinLetters is the fewest letters a text needs for a detection to be
// reliable; below it Detect still guesses, unreliably.
const MinLetters = 12

// ReliableConfidence is the confidence at and above which Detect calls a
// detection reliable (whatlanggo's own threshold).
const ReliableConfidence = 0.8

// Detect returns the language of text, the confidence of the guess
// (between 0 and 1) and whether it is reliable: at least MinLetters
// letters and a confidence of at least ReliableConfidence. It returns ""
// for a text without letters. Only the first SampleBytes of text are read;
// invalid UTF-8 reads as no letter.
func Detect(text string) (lang string, confidence float64, reliable bool) {
	text = sample(text)
	c := countScripts(text)
	if c.letters == 0 {
		return "", 0, false
	}
	lang, confidence = c.byScript()
	if lang == "" {
		l, conf := detectTrigrams(text)
		if l < 0 {
			return "", 0, false
		}
		lang, confidence = code(l), conf
	}
	return lang, confidence, c.letters >= MinLetters && confidence >= ReliableConfidence
}

// sample returns the first SampleBytes of s, cut back to a whole
// character.
func sample(s string) string {
	if len(s) <= SampleBytes {
		return s
	}
	n := SampleBytes
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// scripts counts the letters of a text by the scripts that tell a
// language alone.
type scripts struct {
	letters, han, kana, hangul, thai, greek int
}

func countScripts(s string) scripts {
	var c scripts
	for _, r := range s {
		switch {
		case r < 0x80:
			if 'a' <= r|0x20 && r|0x20 <= 'z' {
				c.letters++
			}
			continue
		case !unicode.IsLetter(r):
			continue
		}
		c.letters++
		switch {
		case unicode.Is(unicode.Han, r):
			c.han++
		case unicode.In(r, unicode.Hiragana, unicode.Katakana) || r == 'ー':
			c.kana++
		case unicode.Is(unicode.Hangul, r):
			c.hangul++
		case unicode.Is(unicode.Thai, r):
			c.thai++
		case unicode.Is(unicode.Greek, r):
			c.greek++
		}
	}
	return c
}

// byScript returns the language a script used by no other language (of
// those Detect tells) gives, when it holds most of the letters, with its
// share of them as the confidence; "" when no such script does.
//
// Japanese writes Han and kana together, in running text about as much
// of each; Chinese writes no kana. So Han and kana together decide for
// Japanese when a tenth of them is kana, for Chinese otherwise: a
// Japanese text of kanji alone (a short heading) reads as Chinese, which
// is why Block leaves a Han block to a Japanese document.
func (c scripts) byScript() (string, float64) {
	share := func(n int) float64 { return float64(n) / float64(c.letters) }
	switch cjk := c.han + c.kana; {
	case 2*c.hangul > c.letters:
		// Korean mixes in a few Han characters (hanja): they count for it.
		return "ko", share(c.hangul + c.han)
	case 2*cjk > c.letters && 10*c.kana >= cjk:
		return "ja", share(cjk)
	case 2*cjk > c.letters:
		return "zh", share(cjk)
	case 2*c.thai > c.letters:
		return "th", share(c.thai)
	case 2*c.greek > c.letters:
		return "el", share(c.greek)
	}
	return "", 0
}
