package dataset

import (
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// decodeText turns the bytes of a gold file into a string. A byte order
// mark decides first (UTF-8, UTF-16LE or UTF-16BE; the mark itself is
// dropped). Without one, valid UTF-8 is taken as it is; otherwise the
// file is decoded sequence by sequence: every valid UTF-8 sequence is kept
// and every other byte is read as windows-1252. That handles whole
// ISO-8859-1 / windows-1252 files (where a byte pair that happens to form
// valid UTF-8 is vanishingly rare in real text) as well as the files that
// mix both, which the CleanEval gold has (cleaneval-dev 59: "Pequeño" in
// UTF-8 next to a windows-1252 middle dot). The windows-1252 bytes it
// leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D) become the C1 control of
// the same value, as in the WHATWG encoding standard.
func decodeText(b []byte) string {
	switch {
	case len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF:
		b = b[3:]
	case len(b) >= 2 && b[0] == 0xFF && b[1] == 0xFE:
		return decodeUTF16(b[2:], false)
	case len(b) >= 2 && b[0] == 0xFE && b[1] == 0xFF:
		return decodeUTF16(b[2:], true)
	}
	if utf8.Valid(b) {
		return string(b)
	}
	var sb strings.Builder
	sb.Grow(len(b) + len(b)/8)
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size <= 1 {
			r = charmap.Windows1252.DecodeByte(b[0])
			if r == utf8.RuneError {
				r = rune(b[0])
			}
			size = 1
		}
		sb.WriteRune(r)
		b = b[size:]
	}
	return sb.String()
}

// decodeUTF16 decodes UTF-16 without its byte order mark; a trailing odd
// byte is dropped and unpaired surrogates become U+FFFD.
func decodeUTF16(b []byte, bigEndian bool) string {
	u := make([]uint16, len(b)/2)
	for i := range u {
		if bigEndian {
			u[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
		} else {
			u[i] = uint16(b[2*i+1])<<8 | uint16(b[2*i])
		}
	}
	return string(utf16.Decode(u))
}

// isSpace reports whether r separates words in gold text: Unicode white
// space (no-break space included) and control characters, which the
// CleanEval scorer also turns into spaces.
func isSpace(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }

// collapse returns s with leading and trailing white space removed,
// every other run of white space or control characters replaced by one
// space, and zero-width no-break spaces (U+FEFF, a byte order mark inside
// the text) dropped.
func collapse(s string) string {
	if strings.ContainsRune(s, '\ufeff') {
		s = strings.ReplaceAll(s, "\ufeff", "")
	}
	// Fast path: nothing to change.
	clean := true
	prevSpace := true
	for _, r := range s {
		sp := isSpace(r)
		if sp && (prevSpace || r != ' ') {
			clean = false
			break
		}
		prevSpace = sp
	}
	if clean && !prevSpace {
		return s
	}
	return strings.Join(strings.FieldsFunc(s, isSpace), " ")
}

// lineParagraphs makes each non-blank line of s one paragraph (white space
// collapsed) and returns them; it is how the plain-text gold of Dragnet
// and WCXB becomes Gold.Text.
func lineParagraphs(s string) []string {
	var out []string
	for line := range strings.Lines(s) {
		if c := collapse(line); c != "" {
			out = append(out, c)
		}
	}
	return out
}

// joinParagraphs joins paragraphs with blank lines, the layout of
// Gold.Text.
func joinParagraphs(ps []string) string { return strings.Join(ps, "\n\n") }

// compareIDs orders names with their digit runs compared as numbers, so
// that "2" sorts before "10" and "R9" before "R10". Names equal in that
// order (such as "01" and "1") fall back to byte order.
func compareIDs(a, b string) int {
	if c := naturalCompare(a, b); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

func naturalCompare(a, b string) int {
	for a != "" && b != "" {
		da, db := isDigit(a[0]), isDigit(b[0])
		switch {
		case da && db:
			na, ra := digitRun(a)
			nb, rb := digitRun(b)
			ta, tb := strings.TrimLeft(na, "0"), strings.TrimLeft(nb, "0")
			if len(ta) != len(tb) {
				return cmpInt(len(ta), len(tb))
			}
			if ta != tb {
				return strings.Compare(ta, tb)
			}
			a, b = ra, rb
		case da != db:
			// Digits sort before anything else.
			if da {
				return -1
			}
			return 1
		default:
			if a[0] != b[0] {
				return cmpInt(int(a[0]), int(b[0]))
			}
			a, b = a[1:], b[1:]
		}
	}
	return cmpInt(len(a), len(b))
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func digitRun(s string) (run, rest string) {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return s[:i], s[i:]
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
