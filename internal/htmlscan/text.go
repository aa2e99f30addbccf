package htmlscan

import (
	"bytes"

	"golang.org/x/net/html/atom"
)

// TextEnd returns where a text token starting at i ends, as the tokenizer
// ends text: at the first '<' after i followed by a letter, '/', '!' or
// '?' (a tag, an end tag, a comment or a doctype). It returns −1 when the
// text runs to the end of src, or to a '<' that is its last byte, which
// the tokenizer reads differently.
func TextEnd(src []byte, i int) int {
	for i++; i < len(src); {
		j := bytes.IndexByte(src[i:], '<')
		if j < 0 || i+j+1 >= len(src) {
			return -1
		}
		k := i + j
		if c := src[k+1]; IsLetter(c) || c == '/' || c == '!' || c == '?' {
			return k
		}
		i = k + 1
	}
	return -1
}

// Plain reports whether a text token's raw bytes are its text as the
// tokenizer's Text gives it: Text converts carriage returns, decodes
// character references and may replace NULs, each byte by byte, and
// without any of the three it returns the bytes as they are. The same
// three bytes are the only ones that change an attribute's value when
// decoded, so a raw start tag without them holds its attributes' values
// as the tokenizer's TagAttr gives them.
func Plain(raw []byte) bool {
	return bytes.IndexByte(raw, '&') < 0 && bytes.IndexByte(raw, '\r') < 0 && bytes.IndexByte(raw, 0) < 0
}

// AppendNewlines appends text to dst with its CRs converted as the
// tokenizer's Text converts them: CR LF and a lone CR to LF.
func AppendNewlines(dst, text []byte) []byte {
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == '\r' {
			c = '\n'
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
		}
		dst = append(dst, c)
	}
	return dst
}

// AppendRawText appends raw text (a script's or a style's) to dst as the
// tokenizer's Text gives it: CRs converted as by AppendNewlines and NUL as
// U+FFFD, nothing else decoded.
func AppendRawText(dst, raw []byte) []byte {
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; c {
		case '\r':
			dst = append(dst, '\n')
			if i+1 < len(raw) && raw[i+1] == '\n' {
				i++
			}
		case 0:
			dst = append(dst, "\uFFFD"...)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// RawTextElement reports whether a start tag of element a makes the
// tokenizer read raw text or RCDATA next (readStartTag's list).
func RawTextElement(a atom.Atom) bool {
	switch a {
	case atom.Iframe, atom.Noembed, atom.Noframes, atom.Noscript, atom.Plaintext,
		atom.Script, atom.Style, atom.Textarea, atom.Title, atom.Xmp:
		return true
	}
	return false
}
