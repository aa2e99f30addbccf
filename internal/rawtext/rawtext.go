// Package rawtext finds where the raw text of a <script> or <style>
// element ends, and hands golang.org/x/net/html's Tokenizer its input so
// that htmltree can read that text itself (htmltree/rawskip.go says why).
//
// The tokenizer must not have read past a start tag whose text the builder
// takes, so Reader hands over the input in pieces that end just after the
// name of every "<script" and "<style", and after that at every '>' until
// the tag is read.
package rawtext

import (
	"bytes"
	"io"
)

// Reader is the input as the tokenizer reads it.
type Reader struct {
	src   []byte
	Pos   int // the next byte to hand over; the builder moves it past a raw text it has read
	mark  int // just past the name of the next "<script" or "<style" at or after pos; len(src)+1 when none
	stops int // pieces ended at a '>' past the mark
}

// maxStops bounds the pieces the reader ends at a '>' past one mark. A
// start tag holds a '>' only inside a quoted value, seldom; a mark inside
// a comment or a long text would otherwise cut all the rest of it in
// pieces, and at each piece the tokenizer may move what it holds of the
// current token to the front of its buffer.
const maxStops = 8

// Reset makes r read src from its start.
func (r *Reader) Reset(src []byte) {
	r.src, r.Pos, r.stops = src, 0, 0
	r.mark = nextTag(src, 0)
}

// Read hands over the input up to the mark, and past it up to each '>',
// maxStops times at most.
func (r *Reader) Read(p []byte) (int, error) {
	if r.Pos >= len(r.src) {
		return 0, io.EOF
	}
	end := len(r.src)
	if r.Pos < r.mark {
		end = min(end, r.mark)
	} else if i := bytes.IndexByte(r.src[r.Pos:], '>'); i >= 0 && r.stops < maxStops {
		end = r.Pos + i + 1
		r.stops++
	}
	n := copy(p, r.src[r.Pos:end])
	r.Pos += n
	return n, nil
}

// Passed moves the mark past a token that ends at end, once the tokenizer
// has read past it.
func (r *Reader) Passed(end int) {
	if r.mark <= end {
		r.mark = nextTag(r.src, r.Pos)
		r.stops = 0
	}
}

// nextTag returns the offset just past the name of the first "<script"
// or "<style" (in any case) at or after from, or len(src)+1.
func nextTag(src []byte, from int) int {
	for i := from; i < len(src); {
		j := bytes.IndexByte(src[i:], '<')
		if j < 0 {
			break
		}
		i += j + 1
		if rest := src[i:]; hasPrefixFold(rest, "script") {
			return i + len("script")
		} else if hasPrefixFold(rest, "style") {
			return i + len("style")
		}
	}
	return len(src) + 1
}

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

// End returns where the raw text of a <name> element that starts
// at from ends: the offset of its end tag, which the tokenizer matches as
// "</" and name in any case followed by white space, '/' or '>'. ok is
// false when the text has no such end, or is a script's and holds "<!--"
// before it (a style's text has no escapes).
func End(src []byte, from int, name string) (end int, ok bool) {
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
