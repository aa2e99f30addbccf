// Package lower lowers short names (class and id values) without
// allocating, for the checks that read every element of a page.
package lower

import (
	"strings"
	"unicode/utf8"
	"unsafe"
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
