package textunit

import "unicode/utf8"

// The fast path for pure-ASCII text without white space (most of an
// English page's pieces): UAX #29 restricted to ASCII, whose word-break
// property values are ALetter (A-Z a-z), Numeric (0-9), ExtendNumLet (_),
// MidLetter (:), MidNumLet (.), Single_Quote ('), MidNum (, ;) and Other.
// Its rules then say:
//
//   - no break between two of letter, digit and underscore (WB5, WB8, WB9,
//     WB10, WB13a, WB13b);
//   - no break around one MidLetter, MidNumLet or Single_Quote between two
//     letters (WB6, WB7): "don't", "e.g", "a:b";
//   - no break around one MidNum, MidNumLet or Single_Quote between two
//     digits (WB11, WB12): "3.14", "1,000";
//   - a break everywhere else (WB999).
//
// TestASCIIMatchesUniseg checks it against uniseg.

type asciiCls uint8

const (
	cOther asciiCls = iota
	cLetter
	cDigit
	cUnder  // ExtendNumLet
	cMidL   // MidLetter: between letters only
	cMidN   // MidNum: between digits only
	cMidAny // MidNumLet and Single_Quote: between letters or between digits
)

var asciiClass = func() (t [utf8.RuneSelf]asciiCls) {
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = cLetter, cLetter
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = cDigit
	}
	t['_'], t[':'], t[','], t[';'], t['.'], t['\''] = cUnder, cMidL, cMidN, cMidN, cMidAny, cMidAny
	return t
}()

func isWordCls(c asciiCls) bool { return c == cLetter || c == cDigit || c == cUnder }

// joins reports whether the punctuation byte at s[i] (0 < i < len(s)-1)
// joins the characters on its two sides into one word.
func joins(s string, i int) bool {
	a, m, b := asciiClass[s[i-1]], asciiClass[s[i]], asciiClass[s[i+1]]
	switch m {
	case cMidL:
		return a == cLetter && b == cLetter
	case cMidN:
		return a == cDigit && b == cDigit
	case cMidAny:
		return (a == cLetter && b == cLetter) || (a == cDigit && b == cDigit)
	}
	return false
}

// asciiSegment returns the end of the word segment of s that starts at i
// (s[i] a letter, digit or underscore), and its kind (0: underscores only).
func asciiSegment(s string, i int) (end int, k Kind) {
	for i < len(s) {
		switch c := asciiClass[s[i]]; {
		case c == cLetter:
			k = Word
		case c == cDigit:
			if k == 0 {
				k = Number
			}
		case c == cUnder:
		case i+1 < len(s) && i > 0 && joins(s, i):
		default:
			return i, k
		}
		i++
	}
	return i, k
}

// asciiSkip returns the index of the first byte of s at or after i that
// can start a word segment (a letter, digit or underscore), or len(s).
func asciiSkip(s string, i int) int {
	for i < len(s) && !isWordCls(asciiClass[s[i]]) {
		i++
	}
	return i
}

// NextASCII returns the first unit of s at or after byte i, for an s that
// is all ASCII (IsASCII): its start, end and kind, as Units gives it;
// start is len(s) when there is none. It is Units' ASCII case for a loop
// that reads units without a call for each.
func NextASCII(s string, i int) (start, end int, k Kind) {
	for i = asciiSkip(s, i); i < len(s); i = asciiSkip(s, end) {
		if end, k = asciiSegment(s, i); k != 0 {
			return i, end, k
		}
	}
	return len(s), len(s), 0
}

func asciiCount(s string) int {
	n := 0
	for i := asciiSkip(s, 0); i < len(s); {
		end, k := asciiSegment(s, i)
		if k != 0 {
			n++
		}
		i = asciiSkip(s, end)
	}
	return n
}

func asciiUnits(s string, off int, fn func(Unit) bool) bool {
	for i := asciiSkip(s, 0); i < len(s); {
		end, k := asciiSegment(s, i)
		if k != 0 && !fn(Unit{Text: s[i:end], Start: off + i, Kind: k}) {
			return false
		}
		i = asciiSkip(s, end)
	}
	return true
}

// WrapASCII wraps the units of s at width columns as a text editor fills
// a paragraph, when s is all ASCII (ok false otherwise, and nothing else
// is said): a unit takes its bytes and, after the first on a line, a
// space, and goes to the next line when it would take its line past
// width. It returns the number of units, of lines that wrapped (the full
// lines; 0 for a single line) and of units on the last line. It is the
// ASCII case of measuring every unit one by one through Units, without a
// call per unit.
func WrapASCII(s string, width int) (units, full, last int, ok bool) {
	if !isASCII(s) {
		return 0, 0, 0, false
	}
	line := 0
	for i := asciiSkip(s, 0); i < len(s); {
		end, k := asciiSegment(s, i)
		if k != 0 {
			cols := end - i
			units++
			last++
			line += cols + 1
			if line > width {
				full++
				line, last = cols, 1
			}
		}
		i = asciiSkip(s, end)
	}
	return units, full, last, true
}
