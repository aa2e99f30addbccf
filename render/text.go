package render

import (
	"bufio"
	"io"

	"github.com/sluice-project/sluice/page"
)

// Text writes plain text: each segment, heading and list item alike, as one
// paragraph with no marker, and a blank line between segments, so that the
// output splits back into segments at blank lines. Consecutive preformatted
// segments are written as consecutive lines, keeping their layout. Nothing is
// escaped.
//
// In a Stream, documents are separated by a line holding a single form feed
// (U+000C).
type Text struct{}

// Render writes p as plain text.
func (t Text) Render(w io.Writer, p *page.Page) error { return renderDoc(w, p, t) }

func (Text) writeDoc(b *bufio.Writer, p *page.Page, i int) error {
	if i > 0 {
		b.WriteString("\f\n")
	}
	if segs := Segments(p); len(segs) > 0 {
		b.WriteString(plainText(segs))
		b.WriteByte('\n')
	}
	return bufErr(b)
}

func (Text) endStream(*bufio.Writer, int) error { return nil }
