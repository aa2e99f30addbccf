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
// Data tables (see Tables) are written as their cells' blocks by default;
// with TablesLinear (or TablesGrid) as one clause per data row, each a
// paragraph.
//
// In a Stream, documents are separated by a line holding a single form feed
// (U+000C).
type Text struct {
	Tables Tables // how data tables are written; default TablesBlocks
	// Metadata starts each document with its metadata as YAML front
	// matter (title, url, host, description, language, file, encoding).
	Metadata bool
}

// Render writes p as plain text.
func (t Text) Render(w io.Writer, p *page.Page) error { return renderDoc(w, p, t) }

func (t Text) writeDoc(b *bufio.Writer, p *page.Page, i int) error {
	if i > 0 {
		b.WriteString("\f\n")
	}
	if t.Metadata {
		writeFrontMatter(b, p)
	}
	if segs := textSegments(p, t.Tables.or(TablesBlocks)); len(segs) > 0 {
		b.WriteString(plainText(segs))
		b.WriteByte('\n')
	}
	return bufErr(b)
}

func (Text) endStream(*bufio.Writer, int) error { return nil }
