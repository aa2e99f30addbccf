package htmltree

import (
	"golang.org/x/net/html/atom"

	"github.com/sluice-project/sluice/internal/htmlscan"
)

// The tokenizer's TagAttr copies every key and value it returns. For a tag
// whose values need no decoding (no '&', CR or NUL in it), the builder
// reads the attributes from the raw tag itself, following the tokenizer's
// rules (readTag, readTagAttrKey, readTagAttrVal in x/net/html's
// token.go; package htmlscan), so that values are spans of the input.

// scanAttrs appends the attributes of the raw start tag, from offset i
// past its name, dropping a repeated key as the tokenizer does. It returns
// where in raw the value of the last attribute it kept ends, as the
// tokenizer records it (past the key for an attribute without a value),
// or −1 when it kept none.
func (b *Builder) scanAttrs(raw []byte, i int) (lastVal int) {
	first := len(b.tree.attrs)
	lastVal = -1
	for {
		i = htmlscan.SkipSpace(raw, i)
		if i >= len(raw) || raw[i] == '>' {
			return lastVal
		}
		ks := i
		i = htmlscan.AttrKeyEnd(raw, i)
		key := raw[ks:i]
		vs, ve := 0, 0
		i, vs, ve = htmlscan.AttrVal(raw, i)
		if len(key) == 0 || b.seenKey(first, key) {
			continue
		}
		lastVal = ve
		if ve == 0 {
			lastVal = ks + len(key)
		}
		a := attribute{key: b.keyStr(key, ks), atom: atom.Lookup(key)}
		if !htmlscan.LowerASCII(key) {
			a.atom = atom.Lookup(b.tree.bytes(a.key))
		}
		if ve > vs {
			a.val = str{off: uint32(b.pos + vs), n: uint32(ve - vs)}
		}
		b.tree.attrs = append(b.tree.attrs, a)
	}
}

// seenKey reports whether the tag's attributes from first on have the key
// (compared lower case).
func (b *Builder) seenKey(first int, key []byte) bool {
	t := &b.tree
	for _, a := range t.attrs[first:] {
		if htmlscan.EqualFoldLower(t.bytes(a.key), key) {
			return true
		}
	}
	return false
}

// keyStr returns the str of a key at offset ks of the raw tag, lower case.
func (b *Builder) keyStr(key []byte, ks int) str {
	if htmlscan.LowerASCII(key) {
		return str{off: uint32(b.pos + ks), n: uint32(len(key))}
	}
	return b.lowerName(key)
}
