package xhtml

import (
	"bufio"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// fixChar is what a character of the input becomes in XML 1.0 text, and
// whether it needs changing at all: the C1 controls U+0080-U+009F (what
// the invalid references &#128;-&#159; and mis-declared windows-1252
// bytes give) become the windows-1252 characters of those bytes, or
// nothing where windows-1252 has none; the other characters XML 1.0
// forbids (controls other than tab, line feed and carriage return,
// U+FFFE, U+FFFF) are dropped; a byte that is not UTF-8 becomes U+FFFD.
// The rune r comes from utf8.DecodeRuneInString with its size.
func fixChar(r rune, size int) (string, bool) {
	switch {
	case r == utf8.RuneError && size == 1:
		return "\uFFFD", true
	case r < 0x20:
		return "", r != '\t' && r != '\n' && r != '\r'
	case r >= 0x80 && r <= 0x9f:
		w := charmap.Windows1252.DecodeByte(byte(r))
		if w == utf8.RuneError || w >= 0x80 && w <= 0x9f {
			return "", true
		}
		return string(w), true
	case r == 0xfffe || r == 0xffff, r >= 0xd800 && r <= 0xdfff:
		return "", true
	}
	return "", false
}

// xmlChars returns s with the characters XML 1.0 forbids replaced as
// fixChar says (s itself when none needed replacing).
func xmlChars(s string) string {
	var sb strings.Builder
	last := 0
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		} else if r >= 0x20 {
			i++
			continue
		}
		if rep, fix := fixChar(r, size); fix {
			sb.WriteString(s[last:i])
			sb.WriteString(rep)
			last = i + size
		}
		i += size
	}
	if last == 0 {
		return s
	}
	sb.WriteString(s[last:])
	return sb.String()
}

// escape writes s as Escape does.
func (x *writer) escape(s string, attr bool) { Escape(x.b, s, attr) }

// Escape writes s to b as XML character data, or as an attribute value
// when attr is set: &, < and > escaped; in an attribute also ", tab and
// line feed, so that a parser's attribute normalisation gives the value
// back; a carriage return as &#13; everywhere (a parser turns a literal
// one into a line feed); the characters XML 1.0 forbids fixed as fixChar
// says (left out, or a C1 control read as windows-1252, a byte that is
// not UTF-8 as U+FFFD). The render package's xml and tei formats write
// with it too.
func Escape(b *bufio.Writer, s string, attr bool) {
	last := 0
	for i := 0; i < len(s); {
		c := s[i]
		size := 1
		var rep string
		switch {
		case c == '&':
			rep = "&amp;"
		case c == '<':
			rep = "&lt;"
		case c == '>':
			rep = "&gt;"
		case c == '\r':
			rep = "&#13;"
		case attr && c == '"':
			rep = "&quot;"
		case attr && c == '\t':
			rep = "&#9;"
		case attr && c == '\n':
			rep = "&#10;"
		case c >= utf8.RuneSelf:
			var r rune
			r, size = utf8.DecodeRuneInString(s[i:])
			var fix bool
			if rep, fix = fixChar(r, size); !fix {
				i += size
				continue
			}
		case c < 0x20:
			var fix bool
			if rep, fix = fixChar(rune(c), 1); !fix {
				i++
				continue
			}
		default:
			i++
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString(rep)
		i += size
		last = i
	}
	b.WriteString(s[last:])
}
