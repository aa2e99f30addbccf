package htmlscan

import "bytes"

// The tokenizer's tag rules (readTag, readTagName, readTagAttrKey,
// readTagAttrVal): a name up to white space, '/' or '>'; then attributes,
// each a key up to white space, '/', '>' or '=' (an '=' that starts a key
// belongs to it) and an optional value after '=': quoted with ' or ",
// where a '>' is part of the value, or unquoted, up to white space or '>';
// a '/' between attributes is skipped; the tag ends at the first '>'
// outside a value.

// NameEnd returns the end of the tag name starting at i: at white space,
// '/' or '>' (readTagName), or the end of src.
func NameEnd(src []byte, i int) int {
	for ; i < len(src); i++ {
		switch src[i] {
		case ' ', '\t', '\n', '\r', '\f', '/', '>':
			return i
		}
	}
	return i
}

// TagEnd returns the offset of the '>' that ends a tag whose name ends at
// i, reading its attributes as readTag does, or −1 when src ends first.
func TagEnd(src []byte, i int) int {
	for {
		i = SkipSpace(src, i)
		if i >= len(src) {
			return -1
		}
		if src[i] == '>' {
			return i
		}
		i = AttrKeyEnd(src, i)
		i, _, _ = AttrVal(src, i)
	}
}

// SkipSpace returns the offset of the first byte at or after i that is
// not HTML white space.
func SkipSpace(raw []byte, i int) int {
	for i < len(raw) && IsSpace(raw[i]) {
		i++
	}
	return i
}

// IsSpace reports whether c is HTML white space.
func IsSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

// IsLetter reports whether c is an ASCII letter, which after '<' or "</"
// starts a tag.
func IsLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// AttrKeyEnd returns the end of the key starting at i: at white space,
// '/', '>', or '=' unless the key starts with it.
func AttrKeyEnd(raw []byte, i int) int {
	start := i
	for ; i < len(raw); i++ {
		switch c := raw[i]; c {
		case '=':
			if i == start {
				continue
			}
			return i
		case ' ', '\n', '\r', '\t', '\f', '/', '>':
			return i
		}
	}
	return i
}

// AttrVal reads the value after a key ending at i: "=v", "='v'", `="v"`,
// or none; it returns the offset after it and the value's span (0, 0 for
// none).
func AttrVal(raw []byte, i int) (next, vs, ve int) {
	i = SkipSpace(raw, i)
	if i >= len(raw) {
		return i, 0, 0
	}
	switch raw[i] {
	case '/':
		return i + 1, 0, 0
	case '=':
	default:
		return i, 0, 0
	}
	i = SkipSpace(raw, i+1)
	if i >= len(raw) {
		return i, 0, 0
	}
	switch q := raw[i]; q {
	case '>':
		return i, 0, 0
	case '\'', '"':
		end := bytes.IndexByte(raw[i+1:], q)
		if end < 0 {
			return len(raw), i + 1, len(raw)
		}
		return i + 1 + end + 1, i + 1, i + 1 + end
	}
	vs = i
	for ; i < len(raw); i++ {
		switch raw[i] {
		case ' ', '\n', '\r', '\t', '\f':
			return i + 1, vs, i
		case '>':
			return i, vs, i
		}
	}
	return i, vs, i
}

// EqualFoldLower reports whether lower-case k equals key with its ASCII
// letters lowered, as the tokenizer compares keys.
func EqualFoldLower(k, key []byte) bool {
	if len(k) != len(key) {
		return false
	}
	for i, c := range key {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if k[i] != c {
			return false
		}
	}
	return true
}

// LowerASCII reports whether s has no upper-case ASCII letter.
func LowerASCII(s []byte) bool {
	for _, c := range s {
		if 'A' <= c && c <= 'Z' {
			return false
		}
	}
	return true
}
