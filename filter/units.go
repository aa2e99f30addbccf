package filter

import (
	"unicode/utf8"

	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/textunit"
)

// Text is counted in word-equivalents (page.Block.Units, from package
// textunit): a word or a number of any script written with spaces counts 1,
// a Han, kana or Thai character 1/textunit.PerWord of its script (a Chinese
// character 0.625), punctuation and symbols nothing. Every threshold below
// that says "words" means word-equivalents, so a Chinese paragraph of 160
// characters weighs what an English one of 100 words does, where white
// space would have counted it one word (docs/languages.md, "Filters").

// unitSlots is the number of word positions of a block of u
// word-equivalents, for the filters that walk a sequence of word tokens
// (DSC, tccb): page.RoundUnits, the block's Words.
func unitSlots(u float32) int { return int(page.RoundUnits(u)) }

// latinColumns is the width, in columns of Latin text, of one English word
// with the space after it: textunit.PerWord(Latin) letters and a space.
var latinColumns = textunit.PerWord(textunit.Latin) + 1

// unitMeasure returns what one unit weighs in word-equivalents, how many
// columns of a line of Latin text it takes and whether a space follows it:
// a word or number weighs 1 and takes its characters and a space; a
// character of a script written without spaces weighs 1/PerWord of its
// script and takes that share of an English word's columns (space
// included), so that a line of Chinese holds as many word-equivalents as a
// line of English holds words.
func unitMeasure(u textunit.Unit) (weight, columns float64, spaced bool) {
	if u.Kind != textunit.Char {
		return 1, float64(utf8.RuneCountInString(u.Text)), true
	}
	sc := textunit.UnitScript(u.Text)
	if sc == textunit.Other {
		sc = textunit.Kana // ー and 々, counted as kana by WordEquivalents
	}
	weight = 1 / textunit.PerWord(sc)
	return weight, weight * latinColumns, false
}

// LatinChars is the length of block b in Latin characters: its characters
// (Block.Chars), with each Han, kana or Thai character counted as the
// letters of its share of an English word (PerWord(Latin)/PerWord of its
// script: 3.06 for a Chinese character). Text without such characters is
// its Chars, exactly.
func LatinChars(b *page.Block) float64 {
	c := float64(max(b.Chars, 0))
	if !maybeChars(b.Text) {
		return c
	}
	textunit.Units(b.Text, func(u textunit.Unit) bool {
		if u.Kind == textunit.Char {
			w, _, _ := unitMeasure(u)
			c += w*textunit.PerWord(textunit.Latin) - float64(utf8.RuneCountInString(u.Text))
		}
		return true
	})
	return c
}

// maybeChars reports whether s may hold a character of a script written
// without spaces: all of them lie above U+0E00, encoded in three bytes or
// more, so text with no lead byte of those (Latin, Cyrillic, Greek,
// Arabic, Hebrew) has none.
func maybeChars(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0xE0 {
			return true
		}
	}
	return false
}
