// Package textunit cuts text into the units that sluice counts wherever it
// counts "words", in any script: one implementation for the whole project.
//
// Text in scripts written with spaces between words (Latin, Cyrillic, Greek,
// Arabic, Hebrew, Devanagari, Hangul...) is cut into words by Unicode word
// segmentation (UAX #29, https://www.unicode.org/reports/tr29/, through
// github.com/rivo/uniseg, with an equivalent fast path for ASCII). Text in
// scripts written without spaces between words (Han, Hiragana, Katakana,
// Thai, Lao, Khmer, Myanmar: see IsChar) is cut into characters, one unit
// each: finding their words needs a dictionary, and characters are the unit
// the multilingual benchmarks score Chinese and Japanese by. Segments that
// hold no letter and no digit (white space, punctuation, symbols, emoji) are
// not units.
//
// A unit of one script is not worth a unit of another: a Chinese character
// carries less than an English word. PerWord gives the typical characters
// per word of a script, so that a length threshold can be stated in
// word-equivalents (see docs/languages.md).
package textunit

import (
	"iter"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"

	"github.com/sluice-project/sluice/internal/ascii"
)

// Kind says what a unit is.
type Kind uint8

const (
	// Word is a word of a script written with spaces: a UAX #29 word
	// segment holding at least one letter ("don't", "e.g", "abc123").
	Word Kind = iota + 1
	// Number is a UAX #29 segment of digits with no letter ("3.14",
	// "1,000").
	Number
	// Char is one character of a script written without spaces (IsChar),
	// with the combining marks that follow it.
	Char
)

// String returns "word", "number" or "char".
func (k Kind) String() string {
	switch k {
	case Word:
		return "word"
	case Number:
		return "number"
	case Char:
		return "char"
	}
	return "Kind(?)"
}

// Unit is one unit of a text.
type Unit struct {
	Text  string // a substring of the text
	Start int    // its byte offset in the text
	Kind  Kind
}

// IsChar reports whether r belongs to a script written without spaces
// between words, whose characters are units of their own: Han, Hiragana,
// Katakana, Thai, Lao, Khmer or Myanmar, and the letters of no script
// (Common) that Chinese and Japanese text uses between them: the iteration
// marks 々 〆 〱..〵 and the prolonged sound marks ー and ｰ. Hangul is not
// among them: Korean puts spaces between words.
func IsChar(r rune) bool {
	switch {
	case r < 0x0E00:
		return false
	case 0x4E00 <= r && r <= 0x9FFF, 0x3041 <= r && r <= 0x3096, 0x30A1 <= r && r <= 0x30FA:
		return true // the common Han, Hiragana and Katakana blocks
	case r == 0x3005 || r == 0x3006 || (0x3031 <= r && r <= 0x3035) || r == 0x30FC || r == 0xFF70:
		return true
	}
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana,
		unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar)
}

// HasWord reports whether s holds a letter or a number of any script: a
// text of symbols alone ("___", "•", "* * *") says nothing to a reader.
func HasWord(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }) >= 0
}

// isAttached reports whether r belongs to the character before it:
// combining marks, format characters (ZWJ, variation selectors are marks).
func isAttached(r rune) bool {
	switch {
	case r < 0x300, 0x3000 <= r && r <= 0x3029, 0x4E00 <= r && r <= 0x9FFF, 0xFF00 <= r && r <= 0xFFEF:
		return false // no marks there: the common cases of Chinese text
	}
	return unicode.In(r, unicode.Mn, unicode.Mc, unicode.Me, unicode.Cf)
}

// Units calls fn for each unit of s in order, until fn returns false.
func Units(s string, fn func(Unit) bool) {
	walk(s, fn)
}

// All returns the units of s in order.
func All(s string) iter.Seq[Unit] {
	return func(yield func(Unit) bool) { walk(s, yield) }
}

// Count returns the number of units of s. It does not allocate.
func Count(s string) int {
	if isASCII(s) {
		return asciiCount(s)
	}
	n := 0
	chunks(s, func(c string, off int, char bool) bool {
		switch {
		case char:
			n++
		case isASCII(c):
			n += asciiCount(c)
		default:
			n += unisegCount(c)
		}
		return true
	})
	return n
}

// walk emits the units of s.
func walk(s string, fn func(Unit) bool) {
	if isASCII(s) {
		asciiUnits(s, 0, fn)
		return
	}
	walkChunks(s, fn)
}

// walkChunks emits the units of s chunk by chunk (chunks).
func walkChunks(s string, fn func(Unit) bool) {
	chunks(s, func(c string, off int, char bool) bool {
		switch {
		case char:
			return fn(Unit{Text: c, Start: off, Kind: Char})
		case isASCII(c):
			return asciiUnits(c, off, fn)
		default:
			return unisegUnits(c, off, fn)
		}
	})
}

// chunks cuts s at ASCII white space and around each character of IsChar
// (with its attached marks), and calls fn for each piece in order: char
// says the piece is one such character. UAX #29 always has a word boundary
// at these places (white space and those scripts' characters are Other or
// Katakana, which join nothing but Extend and Format characters, attached
// here too, and Katakana, which is cut into characters here on purpose),
// so segmenting the pieces one by one segments s.
func chunks(s string, fn func(c string, off int, char bool) bool) {
	start := -1 // start of the current piece of other text
	flush := func(end int) bool {
		if start < 0 {
			return true
		}
		ok := fn(s[start:end], start, false)
		start = -1
		return ok
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if asciiSpace[c] {
				if !flush(i) {
					return
				}
			} else if start < 0 {
				start = i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if !IsChar(r) {
			if start < 0 {
				start = i
			}
			i += size
			continue
		}
		if !flush(i) {
			return
		}
		j := charEnd(s, i+size)
		if !fn(s[i:j], i, true) {
			return
		}
		i = j
	}
	flush(len(s))
}

var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// IsASCII reports whether s is all ASCII, the texts NextASCII reads.
func IsASCII(s string) bool { return isASCII(s) }

// isASCII reports whether s is all ASCII. Such a text is segmented whole
// (asciiUnits, asciiCount) rather than piece by piece (chunks): white space
// is no letter, digit or joiner, so no segment crosses it, and the two give
// the same units.
func isASCII(s string) bool { return ascii.Is(s) }

// unisegUnits emits the word segments of c (no ASCII white space, no
// character of IsChar) that hold a letter or a digit.
func unisegUnits(c string, off int, fn func(Unit) bool) bool {
	if segmentKind(c) == 0 {
		return true // punctuation between Chinese characters...
	}
	state := -1
	pos := 0
	for len(c) > 0 {
		var w string
		w, c, state = uniseg.FirstWordInString(c, state)
		if k := segmentKind(w); k != 0 && !fn(Unit{Text: w, Start: off + pos, Kind: k}) {
			return false
		}
		pos += len(w)
	}
	return true
}

func unisegCount(c string) int {
	if segmentKind(c) == 0 {
		return 0
	}
	n, state := 0, -1
	for len(c) > 0 {
		var w string
		w, c, state = uniseg.FirstWordInString(c, state)
		if segmentKind(w) != 0 {
			n++
		}
	}
	return n
}

// segmentKind returns Word for a segment with a letter, Number for one
// with digits only, 0 for one with neither.
func segmentKind(w string) Kind {
	var k Kind
	for _, r := range w {
		switch {
		case r < utf8.RuneSelf:
			switch asciiClass[r] {
			case cLetter:
				return Word
			case cDigit:
				k = Number
			}
		case unicode.IsLetter(r):
			return Word
		case unicode.IsNumber(r):
			k = Number
		}
	}
	return k
}

// Pieces cuts s around each character of IsChar (with the marks attached
// to it) and calls fn for each piece in order, until fn returns false: char
// says the piece is one such character; the other pieces are the text
// between them, unchanged. It is how a tokeniser of another convention
// (the scorers' \w+ or white-space tokens) takes those scripts' characters
// one by one.
func Pieces(s string, fn func(p string, char bool) bool) {
	start := 0 // start of the current piece of other text
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if !IsChar(r) {
			i += size
			continue
		}
		if start < i && !fn(s[start:i], false) {
			return
		}
		j := charEnd(s, i+size)
		if !fn(s[i:j], true) {
			return
		}
		i, start = j, j
	}
	if start < len(s) {
		fn(s[start:], false)
	}
}

// charEnd returns the end of the marks attached to a character that ends
// at s[j].
func charEnd(s string, j int) int {
	for j < len(s) {
		m, n := utf8.DecodeRuneInString(s[j:])
		if !isAttached(m) {
			break
		}
		j += n
	}
	return j
}
