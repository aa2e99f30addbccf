package htmltree

import (
	"bytes"
	"unsafe"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Most of a page's tokens are plain: text without a character reference
// or NUL, and tags without one either, up to the first '>' outside a
// quoted value. For those the builder finds the token's end itself, by
// the tokenizer's rules (Next's text loop; readTag, readTagAttrKey,
// readTagAttrVal and readStartTag's self-closing test, in x/net/html's
// token.go), with IndexByte where the tokenizer reads a byte at a time
// and copies every attribute key into a map. The tokenizer reads the rest:
// comments, doctypes, tags with a character reference, CR or NUL, raw text
// and whatever runs into the end of the input.
//
// The builder may read ahead of the tokenizer only while the tokenizer
// holds no input past the last token it gave, and is not about to read
// raw text (after a <script>, <style>, <title>... start tag it read). The
// reader (rawtext.Reader) hands the tokenizer its input in pieces that end
// at a '>', so that the tokenizer ends most of its tokens with nothing
// left over (drained); when the builder meets a token it leaves to the
// tokenizer, it moves the reader to that token's start, and the tokenizer
// reads on from there as if it had read all the tokens in between.

// fastToken reads the token at b.pos into b.tok when it is plain (see
// above) and returns its length; ok is false when the token is the
// tokenizer's to read.
func (b *Builder) fastToken() (n int, ok bool) {
	src, pos := b.tree.src, b.pos
	if pos+1 >= len(src) {
		return 0, false
	}
	if src[pos] == '<' {
		switch c := src[pos+1]; {
		case isLetter(c):
			return b.fastStartTag()
		case c == '/':
			if pos+2 < len(src) && isLetter(src[pos+2]) {
				return b.fastEndTag()
			}
			return 0, false
		case c == '!' || c == '?':
			return 0, false
		}
	}
	return b.fastText()
}

// fastText reads a text token: up to the first '<' that starts a tag, an
// end tag, a comment or a doctype ('<' then a letter, '/', '!' or '?'), as
// the tokenizer ends text. Text up to the end of the input, or with a NUL,
// is left to the tokenizer. CRs and character references are decoded as
// the tokenizer's Text decodes them.
func (b *Builder) fastText() (int, bool) {
	src, pos := b.tree.src, b.pos
	end := -1
	for i := pos + 1; i < len(src); {
		j := bytes.IndexByte(src[i:], '<')
		if j < 0 || i+j+1 >= len(src) {
			break
		}
		k := i + j
		if c := src[k+1]; isLetter(c) || c == '/' || c == '!' || c == '?' {
			end = k
			break
		}
		i = k + 1
	}
	if end < 0 {
		return 0, false
	}
	raw := src[pos:end]
	if bytes.IndexByte(raw, 0) >= 0 {
		return 0, false
	}
	b.tok = token{typ: html.TextToken, raw: Span{int32(pos), int32(end)}}
	amp, cr := bytes.IndexByte(raw, '&') >= 0, bytes.IndexByte(raw, '\r') >= 0
	switch {
	case !amp && !cr:
		b.tok.data = str{off: uint32(pos), n: uint32(len(raw))}
	case !amp:
		b.tok.data = b.addSideNewlines(raw)
	default:
		// UnescapeString reads d, and returns a new string when it
		// decodes anything, which textStr only reads.
		d := raw
		if cr {
			b.scratch = appendNewlines(b.scratch[:0], raw)
			d = b.scratch
		}
		u := html.UnescapeString(unsafe.String(unsafe.SliceData(d), len(d)))
		b.tok.data = b.textStr(unsafe.Slice(unsafe.StringData(u), len(u)))
	}
	return len(raw), true
}

// addSideNewlines copies text to the side buffer with its CRs converted
// (appendNewlines).
func (b *Builder) addSideNewlines(text []byte) str {
	off := len(b.tree.side)
	b.tree.side = appendNewlines(b.tree.side, text)
	return str{off: uint32(off) | sideBit, n: uint32(len(b.tree.side) - off)}
}

// appendNewlines appends text to dst with its CRs converted as the
// tokenizer's Text converts them: CR LF and a lone CR to LF.
func appendNewlines(dst, text []byte) []byte {
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

// fastStartTag reads a start tag that needs no decoding and does not make
// the tokenizer read raw text next.
func (b *Builder) fastStartTag() (int, bool) {
	src, pos := b.tree.src, b.pos
	end := tagEnd(src, nameEnd(src, pos+1))
	if end < 0 || end+1-pos > maxScanTag {
		return 0, false
	}
	raw := src[pos : end+1]
	if !plainText(raw) {
		return 0, false
	}
	b.tok = token{typ: html.StartTagToken, raw: Span{int32(pos), int32(end + 1)}}
	cur := b.tagName(raw, 1)
	if rawTextElement(b.tok.atom) {
		return 0, false
	}
	b.tok.attr = int32(len(b.tree.attrs))
	lastVal := b.scanAttrs(raw, cur)
	b.tok.nattr = int32(len(b.tree.attrs)) - b.tok.attr
	// readStartTag: the byte before '>' is '/', and not the last byte of
	// the last attribute kept's value (as in <p a=/>).
	k := len(raw) - 2
	b.tok.selfClosing = raw[k] == '/' && (b.tok.nattr == 0 || k != lastVal-1)
	return len(raw), true
}

// fastEndTag reads an end tag: its attributes, which the tokenizer reads
// and drops, only matter for where the tag ends.
func (b *Builder) fastEndTag() (int, bool) {
	src, pos := b.tree.src, b.pos
	end := tagEnd(src, nameEnd(src, pos+2))
	if end < 0 {
		return 0, false
	}
	raw := src[pos : end+1]
	b.tok = token{typ: html.EndTagToken, raw: Span{int32(pos), int32(end + 1)}}
	b.tagName(raw, 2)
	return len(raw), true
}

// nameEnd returns the end of the tag name starting at i: at white space,
// '/' or '>' (readTagName), or the end of src.
func nameEnd(src []byte, i int) int {
	for ; i < len(src); i++ {
		switch src[i] {
		case ' ', '\t', '\n', '\r', '\f', '/', '>':
			return i
		}
	}
	return i
}

// tagEnd returns the offset of the '>' that ends a tag whose name ends at
// i, reading its attributes as readTag does, or −1 when src ends first.
func tagEnd(src []byte, i int) int {
	for {
		i = skipSpace(src, i)
		if i >= len(src) {
			return -1
		}
		if src[i] == '>' {
			return i
		}
		i = attrKeyEnd(src, i)
		i, _, _ = attrVal(src, i)
	}
}

// rawTextElement reports whether a start tag of element a makes the
// tokenizer read raw text or RCDATA next (readStartTag's list).
func rawTextElement(a atom.Atom) bool {
	switch a {
	case atom.Iframe, atom.Noembed, atom.Noframes, atom.Noscript, atom.Plaintext,
		atom.Script, atom.Style, atom.Textarea, atom.Title, atom.Xmp:
		return true
	}
	return false
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
