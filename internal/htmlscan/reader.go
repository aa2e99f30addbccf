// Package htmlscan reads HTML tokens' bytes by the rules of
// golang.org/x/net/html's Tokenizer (its token.go), so that htmltree can
// read most tokens itself: where a text or a tag ends and what an
// attribute's key and value are (tag.go, text.go), where the raw text of a
// <script> or <style> ends (rawtext.go), and the reader that hands the
// tokenizer its input so that it can read the rest (Reader).
//
// The builder can read on from where the tokenizer stopped only when the
// tokenizer holds no input past its last token, so Reader hands over the
// input in pieces that end just after a '>', where tags, comments and
// doctypes end.
package htmlscan

import (
	"bytes"
	"io"
)

// Reader is the input as the tokenizer reads it.
type Reader struct {
	src   []byte
	Pos   int // the next byte to hand over; the builder moves it to where the tokenizer is to read on
	start int // where the current token starts (Passed)
	stops int // pieces handed over since
}

// maxStops bounds the pieces of one token that end at its next '>'. A tag
// holds a '>' only inside a quoted value, seldom; a long comment or text
// full of them would otherwise be handed over a piece per '>', and at each
// piece the tokenizer moves what it holds of the current token to the
// front of its buffer. Past maxStops a piece runs on to the first '>' at
// least as far again as the token has come, so that the moving costs no
// more than twice the token's length.
const maxStops = 8

// minPiece is the least a piece past maxStops holds before its '>'.
const minPiece = 4096

// Reset makes r read src from its start.
func (r *Reader) Reset(src []byte) {
	r.src, r.Pos, r.start, r.stops = src, 0, 0, 0
}

// Read hands over the input up to the next '>' (see maxStops).
func (r *Reader) Read(p []byte) (int, error) {
	if r.Pos >= len(r.src) {
		return 0, io.EOF
	}
	from := r.Pos
	if r.stops >= maxStops {
		from = min(len(r.src), r.Pos+max(minPiece, r.Pos-r.start))
	}
	end := len(r.src)
	if i := bytes.IndexByte(r.src[from:], '>'); i >= 0 {
		end = from + i + 1
	}
	r.stops++
	n := copy(p, r.src[r.Pos:end])
	r.Pos += n
	return n, nil
}

// Passed tells the reader that the current token starts at start.
func (r *Reader) Passed(start int) {
	r.start, r.stops = start, 0
}
