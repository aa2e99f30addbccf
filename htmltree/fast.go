package htmltree

import (
	"bytes"
	"unsafe"

	"golang.org/x/net/html"

	"github.com/sluice-project/sluice/internal/htmlscan"
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
// reader (htmlscan.Reader) hands the tokenizer its input in pieces that end
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
		case htmlscan.IsLetter(c):
			return b.fastStartTag()
		case c == '/':
			if pos+2 < len(src) && htmlscan.IsLetter(src[pos+2]) {
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
	end := htmlscan.TextEnd(src, pos)
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
			b.scratch = htmlscan.AppendNewlines(b.scratch[:0], raw)
			d = b.scratch
		}
		u := html.UnescapeString(unsafe.String(unsafe.SliceData(d), len(d)))
		b.tok.data = b.textStr(unsafe.Slice(unsafe.StringData(u), len(u)))
	}
	return len(raw), true
}

// addSideNewlines copies text to the side buffer with its CRs converted
// (htmlscan.AppendNewlines).
func (b *Builder) addSideNewlines(text []byte) str {
	off := len(b.tree.side)
	b.tree.side = htmlscan.AppendNewlines(b.tree.side, text)
	return str{off: uint32(off) | sideBit, n: uint32(len(b.tree.side) - off)}
}

// fastStartTag reads a start tag that needs no decoding and does not make
// the tokenizer read raw text next.
func (b *Builder) fastStartTag() (int, bool) {
	src, pos := b.tree.src, b.pos
	end := htmlscan.TagEnd(src, htmlscan.NameEnd(src, pos+1))
	if end < 0 || end+1-pos > maxScanTag {
		return 0, false
	}
	raw := src[pos : end+1]
	if !htmlscan.Plain(raw) {
		return 0, false
	}
	b.tok = token{typ: html.StartTagToken, raw: Span{int32(pos), int32(end + 1)}}
	cur := b.tagName(raw, 1)
	if htmlscan.RawTextElement(b.tok.atom) {
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
	end := htmlscan.TagEnd(src, htmlscan.NameEnd(src, pos+2))
	if end < 0 {
		return 0, false
	}
	raw := src[pos : end+1]
	b.tok = token{typ: html.EndTagToken, raw: Span{int32(pos), int32(end + 1)}}
	b.tagName(raw, 2)
	return len(raw), true
}
