package render

import (
	"bufio"
	"io"

	"github.com/sluice-project/sluice/page"
)

// CleanEval writes the CleanEval annotation format: each segment opens with
// its tag, "<h>", "<p>" or "<l>", a space and the segment's text, and a blank
// line separates segments. A segment that spans several lines (preformatted
// text) keeps its line breaks. Text is written as is: CleanEval output is
// not HTML, so nothing is escaped.
//
// With Header the output starts with the line "URL: <url>" and a blank line,
// as the CleanEval gold files do. With Wrapper the document is enclosed in
// the CleanEval input wrapper:
//
//	<text id="http://example.com/" title="Example">
//	URL: http://example.com/
//
//	<h> Example
//
//	<p> Some text.
//	</text>
//
// where the attribute values are HTML-escaped. In a Stream each document is
// preceded by a line "<doc>".
//
// Data tables (see Tables) are written as their cells' blocks by default,
// as the CleanEval gold files have them; with TablesLinear (or
// TablesGrid) as one <p> clause per data row.
type CleanEval struct {
	Header  bool   // start with "URL: <url>" and a blank line
	Wrapper bool   // enclose in <text id="URL" title="TITLE"> ... </text>
	Tables  Tables // how data tables are written; default TablesBlocks
}

// Render writes p in the CleanEval format.
func (c *CleanEval) Render(w io.Writer, p *page.Page) error { return renderDoc(w, p, c) }

func (c *CleanEval) writeDoc(b *bufio.Writer, p *page.Page, i int) error {
	if i >= 0 {
		b.WriteString("<doc>\n")
	}
	if c.Wrapper {
		b.WriteString(`<text id="`)
		escapeHTML(b, p.Meta.URL)
		b.WriteString(`" title="`)
		escapeHTML(b, p.Meta.Title)
		b.WriteString("\">\n")
	}
	if c.Header {
		b.WriteString("URL:")
		if p.Meta.URL != "" {
			b.WriteByte(' ')
			b.WriteString(p.Meta.URL)
		}
		b.WriteString("\n\n")
	}
	for k, s := range textSegments(p, c.Tables.or(TablesBlocks)) {
		if k > 0 {
			b.WriteByte('\n')
		}
		tag := s.Label.Tag()
		if tag == "" {
			tag = "<p>"
		}
		b.WriteString(tag)
		b.WriteByte(' ')
		b.WriteString(s.Text)
		b.WriteByte('\n')
	}
	if c.Wrapper {
		b.WriteString("</text>\n")
	}
	return bufErr(b)
}

func (c *CleanEval) endStream(b *bufio.Writer, n int) error { return nil }
