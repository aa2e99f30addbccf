package htmltree

import (
	"bytes"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/sluice-project/sluice/internal/htmlscan"
)

// token is the token being processed: the tokenizer's, with its strings as
// spans of the input (or of the side buffer) and its attributes already in
// Tree.attrs.
type token struct {
	typ         html.TokenType // a self-closing tag is a StartTagToken with selfClosing set
	atom        atom.Atom
	name        str // lower-case tag name
	selfClosing bool
	attr, nattr int32 // the start tag's attributes in Tree.attrs
	data        str   // text, comment or doctype data
	raw         Span
}

// locateWindow is how far past the previous attribute the builder looks
// for an attribute's key or value in the raw tag.
const locateWindow = 64

// readToken reads the tokenizer's current token, of type tt and n raw
// bytes at b.pos, into b.tok.
func (b *Builder) readToken(tt html.TokenType, n int) {
	raw := b.tree.src[b.pos : b.pos+n]
	b.tok = token{typ: tt, raw: Span{int32(b.pos), int32(b.pos + n)}}
	switch tt {
	case html.TextToken:
		if htmlscan.Plain(raw) {
			// What Text would give: the raw bytes, which are the
			// token's data, with no carriage return to convert, no
			// character reference to decode and no NUL to replace.
			// Taking them where they are saves Text's two loops over
			// every text of the page and the comparison of its result
			// with the input: about 0.5% of Clean's instructions.
			b.tok.data = str{off: uint32(b.pos), n: uint32(n)}
			break
		}
		b.tok.data = b.textStr(b.z.Text())
	case html.CommentToken, html.DoctypeToken:
		cur := 0
		d := b.z.Text()
		b.tok.data = b.locate(raw, &cur, d, len(raw))
	case html.StartTagToken, html.SelfClosingTagToken:
		b.tok.typ = html.StartTagToken
		b.tok.selfClosing = tt == html.SelfClosingTagToken
		cur := b.tagName(raw, 1)
		b.readAttrs(raw, cur)
	case html.EndTagToken:
		b.tagName(raw, 2)
	}
}

// textStr returns the str of a text token's decoded data d: a span of the
// input when the input holds d at the token's start, else a copy in the
// side buffer.
func (b *Builder) textStr(d []byte) str {
	if len(d) == 0 {
		return str{}
	}
	src := b.tree.src
	if b.pos+len(d) <= len(src) && bytes.Equal(src[b.pos:b.pos+len(d)], d) {
		return str{off: uint32(b.pos), n: uint32(len(d))}
	}
	return b.addSide(d)
}

// locate returns the str of v, found in raw at or after *cur (within
// window bytes past the end of v) and moves *cur past it; or a copy of v
// in the side buffer when raw does not hold it there (entities, upper
// case, NUL bytes).
func (b *Builder) locate(raw []byte, cur *int, v []byte, window int) str {
	if len(v) == 0 {
		return str{}
	}
	end := min(len(raw), *cur+len(v)+window)
	if *cur < end {
		if i := bytes.Index(raw[*cur:end], v); i >= 0 {
			off := b.pos + *cur + i
			*cur += i + len(v)
			return str{off: uint32(off), n: uint32(len(v))}
		}
	}
	return b.addSide(v)
}

// addSide copies v to the side buffer.
func (b *Builder) addSide(v []byte) str {
	off := len(b.tree.side)
	b.tree.side = append(b.tree.side, v...)
	return str{off: uint32(off) | sideBit, n: uint32(len(v))}
}

// tagName reads the name of the tag token raw, which starts at raw[skip],
// into b.tok (name and atom), as the tokenizer reads it: up to white space,
// '/' or '>', lower case, NUL as U+FFFD. It returns the offset in raw past
// the name.
func (b *Builder) tagName(raw []byte, skip int) int {
	i := skip
	plain := true
	for ; i < len(raw); i++ {
		c := raw[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '/' || c == '>' {
			break
		}
		if ('A' <= c && c <= 'Z') || c == 0 {
			plain = false
		}
	}
	name := raw[skip:i]
	if plain {
		b.tok.name = str{off: uint32(b.pos + skip), n: uint32(len(name))}
	} else {
		b.tok.name = b.lowerName(name)
	}
	b.tok.atom = atom.Lookup(b.tree.bytes(b.tok.name))
	return i
}

// lowerName copies a tag name to the side buffer, lower case, with NUL
// bytes replaced by U+FFFD.
func (b *Builder) lowerName(name []byte) str {
	off := len(b.tree.side)
	for _, c := range name {
		switch {
		case 'A' <= c && c <= 'Z':
			b.tree.side = append(b.tree.side, c+'a'-'A')
		case c == 0:
			b.tree.side = append(b.tree.side, "\ufffd"...)
		default:
			b.tree.side = append(b.tree.side, c)
		}
	}
	return str{off: uint32(off) | sideBit, n: uint32(len(b.tree.side) - off)}
}

// maxScanTag is the longest tag whose attributes the builder reads itself
// (see scanAttrs); longer ones go through the tokenizer's TagAttr.
const maxScanTag = 2048

// readAttrs appends the attributes of the current start tag, raw, to
// Tree.attrs; cur is the offset in raw past the tag name.
func (b *Builder) readAttrs(raw []byte, cur int) {
	t := &b.tree
	b.tok.attr = int32(len(t.attrs))
	if len(raw) <= maxScanTag && htmlscan.Plain(raw) {
		b.scanAttrs(raw, cur)
		b.tok.nattr = int32(len(t.attrs)) - b.tok.attr
		return
	}
	for {
		k, v, more := b.z.TagAttr()
		if len(k) == 0 {
			break
		}
		var a attribute
		a.atom = atom.Lookup(k)
		a.key = b.locate(raw, &cur, k, locateWindow)
		a.val = b.locate(raw, &cur, v, locateWindow)
		t.attrs = append(t.attrs, a)
		if !more {
			break
		}
	}
	b.tok.nattr = int32(len(t.attrs)) - b.tok.attr
}
