package htmlscan

import "bytes"

// hasPrefixFold reports whether s starts with name, a lower-case ASCII
// name, in any case.
func hasPrefixFold(s []byte, name string) bool {
	if len(s) < len(name) {
		return false
	}
	for i := range len(name) {
		if s[i]|0x20 != name[i] {
			return false
		}
	}
	return true
}

// RawTextEnd returns where the raw text of a <name> element that starts
// at from ends: the offset of its end tag, which the tokenizer matches as
// "</" and name in any case followed by white space, '/' or '>'. ok is
// false when the text has no such end, or is a script's and holds "<!--"
// before it (a style's text has no escapes).
func RawTextEnd(src []byte, from int, name string) (end int, ok bool) {
	for i := from; ; {
		j := bytes.Index(src[i:], []byte("</"))
		if j < 0 {
			return 0, false
		}
		k := i + j
		i = k + 2
		if !hasPrefixFold(src[i:], name) || i+len(name) >= len(src) {
			continue
		}
		switch src[i+len(name)] {
		case ' ', '\n', '\r', '\t', '\f', '/', '>':
			if name == "script" && bytes.Contains(src[from:k], []byte("<!--")) {
				return 0, false
			}
			return k, true
		}
	}
}
