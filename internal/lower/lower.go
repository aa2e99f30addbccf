// Package lower lowers short names (class and id values) without
// allocating, for the checks that read every element of a page.
package lower

import (
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/sluice-project/sluice/internal/ascii"
)

// Into returns strings.ToLower(s): for an ASCII s that fits buf, written
// into buf and valid until buf is written again, so that nothing is
// allocated; otherwise a new string.
func Into(buf []byte, s string) string {
	if len(s) > len(buf) {
		return strings.ToLower(s)
	}
	for i := range len(s) {
		c := s[i]
		if c >= utf8.RuneSelf {
			return strings.ToLower(s)
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	return unsafe.String(unsafe.SliceData(buf), len(s))
}

// HasPrefix reports whether s starts with word, a lower-case ASCII word,
// the capitals A to Z in s counting as their small letters: the prefix
// test of strings.ToLower(s) for an ASCII s, without lowering it.
func HasPrefix(s, word string) bool {
	if len(s) < len(word) {
		return false
	}
	for i := range len(word) {
		if Byte(s[i]) != word[i] {
			return false
		}
	}
	return true
}

// Byte returns c with A to Z as a to z.
func Byte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// IsASCII reports whether s is ASCII, where HasPrefix and Byte are what
// strings.ToLower does.
func IsASCII(s string) bool { return ascii.Is(s) }
