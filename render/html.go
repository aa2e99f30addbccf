package render

import (
	"bufio"
	"fmt"
	"io"

	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/tables"
)

// HTML writes the kept segments as a minimal HTML document:
//
//	<!DOCTYPE html>
//	<html lang="en">
//	<head>
//	<meta charset="utf-8">
//	<title>Example</title>
//	<link rel="canonical" href="http://example.com/">
//	</head>
//	<body>
//	<h1>Example</h1>
//	<p>Some text.</p>
//	<ul>
//	<li>an item</li>
//	</ul>
//	<pre>
//	code
//	</pre>
//	</body>
//	</html>
//
// A heading is an <hN> at the level of the h1..h6 element holding its first
// block, or <h2>; consecutive list items share one <ul>; consecutive
// preformatted segments share one <pre>; everything else is a <p>. The lang
// attribute and the canonical link are written when Meta has a language and
// a URL. All text and attribute values are escaped as by html.EscapeString.
//
// Data tables (see Tables; default TablesGrid) are written as a <table>:
// the caption as <caption>, one <tr> per grid row, each cell at its
// top-left slot with its colspan and rowspan, header cells as <th> with
// scope="col" in a row of headers and scope="row" elsewhere, the other
// cells as <td> with their role as class ("data", "thema",
// "finalImportant", "finalNonImportant"; none for empty cells). A cell the
// cleaner dropped is an empty cell.
//
// A page that records its links and images (page.Page.Links, Images)
// has them in its headings, paragraphs and list items: <a href="...">
// around the anchor text, <img src="..." alt="..."> in the place of the
// alt text or at the end of its block, with the same refusals as
// Markdown's (javascript: and other schemes, data: but small images).
//
// In a Stream the output is one document titled "sluice" whose body holds
// one <article data-url="URL" data-title="TITLE"> per input document.
type HTML struct {
	Tables Tables // how data tables are written; default TablesGrid
}

// Render writes p as an HTML document.
func (h HTML) Render(w io.Writer, p *page.Page) error { return renderDoc(w, p, h) }

func (h HTML) writeDoc(b *bufio.Writer, p *page.Page, i int) error {
	if i < 0 {
		htmlHead(b, p.Meta.Title, p.Meta.URL, p.Meta.Lang)
		h.body(b, p)
		b.WriteString("</body>\n</html>\n")
		return bufErr(b)
	}
	if i == 0 {
		htmlHead(b, "sluice", "", "")
	}
	b.WriteString(`<article data-url="`)
	escapeHTML(b, p.Meta.URL)
	b.WriteString(`" data-title="`)
	escapeHTML(b, p.Meta.Title)
	b.WriteByte('"')
	if p.Meta.Lang != "" {
		b.WriteString(` lang="`)
		escapeHTML(b, p.Meta.Lang)
		b.WriteByte('"')
	}
	b.WriteString(">\n")
	h.body(b, p)
	b.WriteString("</article>\n")
	return bufErr(b)
}

func (HTML) endStream(b *bufio.Writer, n int) error {
	if n == 0 {
		htmlHead(b, "sluice", "", "")
	}
	b.WriteString("</body>\n</html>\n")
	return bufErr(b)
}

// htmlHead writes everything up to and including <body>.
func htmlHead(b *bufio.Writer, title, url, lang string) {
	b.WriteString("<!DOCTYPE html>\n<html")
	if lang != "" {
		b.WriteString(` lang="`)
		escapeHTML(b, lang)
		b.WriteByte('"')
	}
	b.WriteString(">\n<head>\n<meta charset=\"utf-8\">\n<title>")
	escapeHTML(b, title)
	b.WriteString("</title>\n")
	if url != "" {
		b.WriteString(`<link rel="canonical" href="`)
		escapeHTML(b, url)
		b.WriteString("\">\n")
	}
	b.WriteString("</head>\n<body>\n")
}

// body writes the segments and data tables of p as HTML elements.
func (h HTML) body(b *bufio.Writer, p *page.Page) {
	f := pageFlow(p, h.Tables.or(TablesGrid))
	segs := f.segs
	mk := 0
	for k := 0; k <= len(segs); k++ {
		f.tablesAt(k, &mk, func(v *tables.View) { writeHTMLTable(b, v) })
		if k == len(segs) {
			break
		}
		s := &segs[k]
		switch {
		case s.Pre:
			// "<pre>\n": the parser drops one newline after <pre>, so
			// text starting with an empty line keeps it.
			b.WriteString("<pre>\n")
			end := f.runEnd(k, mk, func(s *Segment) bool { return s.Pre })
			for ; k < end; k++ {
				escapeHTML(b, segs[k].Text)
				b.WriteByte('\n')
			}
			k--
			b.WriteString("</pre>\n")
		case s.Label == page.Heading:
			tag := headingTags[segmentLevel(p, s)]
			b.WriteByte('<')
			b.WriteString(tag)
			b.WriteByte('>')
			htmlSegmentText(b, p, s)
			b.WriteString("</")
			b.WriteString(tag)
			b.WriteString(">\n")
		case s.Label == page.ListItem:
			b.WriteString("<ul>\n")
			end := f.runEnd(k, mk, func(s *Segment) bool { return s.Label == page.ListItem && !s.Pre })
			for ; k < end; k++ {
				b.WriteString("<li>")
				htmlSegmentText(b, p, &segs[k])
				b.WriteString("</li>\n")
			}
			k--
			b.WriteString("</ul>\n")
		default:
			b.WriteString("<p>")
			htmlSegmentText(b, p, s)
			b.WriteString("</p>\n")
		}
	}
}

// writeHTMLTable writes data table v as a <table>.
func writeHTMLTable(b *bufio.Writer, v *tables.View) {
	t := v.Table
	b.WriteString("<table>\n")
	if v.Caption != "" {
		b.WriteString("<caption>")
		escapeHTML(b, v.Caption)
		b.WriteString("</caption>\n")
	}
	head := headerRow(v)
	for y := 0; y < int(t.Rows); y++ {
		b.WriteString("<tr>")
		for x := 0; x < int(t.Cols); x++ {
			i := v.At(y, x)
			if i < 0 || int(t.Cells[i].Row) != y || int(t.Cells[i].Col) != x {
				continue
			}
			writeHTMLCell(b, v, i, y == head)
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</table>\n")
}

// writeHTMLCell writes cell i of v as a th or td; inHead says it is in the
// header row.
func writeHTMLCell(b *bufio.Writer, v *tables.View, i int, inHead bool) {
	c := &v.Table.Cells[i]
	tag := "td"
	switch r := v.Roles[i]; r {
	case tables.Header:
		tag = "th"
		if inHead {
			b.WriteString(`<th scope="col"`)
		} else {
			b.WriteString(`<th scope="row"`)
		}
	case tables.Neutral:
		b.WriteString("<td")
	default:
		b.WriteString(`<td class="`)
		b.WriteString(r.String())
		b.WriteByte('"')
	}
	if c.ColSpan > 1 {
		fmt.Fprintf(b, ` colspan="%d"`, c.ColSpan)
	}
	if c.RowSpan > 1 {
		fmt.Fprintf(b, ` rowspan="%d"`, c.RowSpan)
	}
	b.WriteByte('>')
	escapeHTML(b, v.Texts[i])
	b.WriteString("</")
	b.WriteString(tag)
	b.WriteString(">")
}

// escapeHTML writes s to b escaped exactly as html.EscapeString does
// (<, >, &, ' and "), without building the escaped string.
func escapeHTML(b *bufio.Writer, s string) {
	last := 0
	for i := 0; i < len(s); i++ {
		var esc string
		switch s[i] {
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '&':
			esc = "&amp;"
		case '\'':
			esc = "&#39;"
		case '"':
			esc = "&#34;"
		default:
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString(esc)
		last = i + 1
	}
	b.WriteString(s[last:])
}

var headingTags = [...]string{"", "h1", "h2", "h3", "h4", "h5", "h6"}
