package htmltree

import (
	"bytes"

	"golang.org/x/net/html/atom"
)

// The tokenizer's TagAttr copies every key and value it returns. For a tag
// whose values need no decoding (no '&', CR or NUL in it), the builder
// reads the attributes from the raw tag itself, following the tokenizer's
// rules (readTag, readTagAttrKey, readTagAttrVal in x/net/html's
// token.go), so that values are spans of the input.

// scanAttrs appends the attributes of the raw start tag, from offset i
// past its name, dropping a repeated key as the tokenizer does. It returns
// where in raw the value of the last attribute it kept ends, as the
// tokenizer records it (past the key for an attribute without a value),
// or −1 when it kept none.
func (b *Builder) scanAttrs(raw []byte, i int) (lastVal int) {
	first := len(b.tree.attrs)
	lastVal = -1
	for {
		i = skipSpace(raw, i)
		if i >= len(raw) || raw[i] == '>' {
			return lastVal
		}
		ks := i
		i = attrKeyEnd(raw, i)
		key := raw[ks:i]
		vs, ve := 0, 0
		i, vs, ve = attrVal(raw, i)
		if len(key) == 0 || b.seenKey(first, key) {
			continue
		}
		lastVal = ve
		if ve == 0 {
			lastVal = ks + len(key)
		}
		a := attribute{key: b.keyStr(key, ks), atom: atom.Lookup(key)}
		if !lowerASCII(key) {
			a.atom = atom.Lookup(b.tree.bytes(a.key))
		}
		if ve > vs {
			a.val = str{off: uint32(b.pos + vs), n: uint32(ve - vs)}
		}
		b.tree.attrs = append(b.tree.attrs, a)
	}
}

func skipSpace(raw []byte, i int) int {
	for i < len(raw) && isSpace(raw[i]) {
		i++
	}
	return i
}

// attrKeyEnd returns the end of the key starting at i: at white space,
// '/', '>', or '=' unless the key starts with it.
func attrKeyEnd(raw []byte, i int) int {
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

// attrVal reads the value after a key ending at i: "=v", "='v'", `="v"`,
// or none; it returns the offset after it and the value's span.
func attrVal(raw []byte, i int) (next, vs, ve int) {
	i = skipSpace(raw, i)
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
	i = skipSpace(raw, i+1)
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

// seenKey reports whether the tag's attributes from first on have the key
// (compared lower case).
func (b *Builder) seenKey(first int, key []byte) bool {
	t := &b.tree
	for _, a := range t.attrs[first:] {
		if asciiEqualFold(t.bytes(a.key), key) {
			return true
		}
	}
	return false
}

// keyStr returns the str of a key at offset ks of the raw tag, lower case.
func (b *Builder) keyStr(key []byte, ks int) str {
	if lowerASCII(key) {
		return str{off: uint32(b.pos + ks), n: uint32(len(key))}
	}
	return b.lowerName(key)
}

// asciiEqualFold reports whether lower-case k equals key with its ASCII
// letters lowered, as the tokenizer compares keys.
func asciiEqualFold(k, key []byte) bool {
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

func lowerASCII(s []byte) bool {
	for _, c := range s {
		if 'A' <= c && c <= 'Z' {
			return false
		}
	}
	return true
}
