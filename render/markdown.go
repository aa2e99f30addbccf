package render

import (
	"bufio"
	"io"
	"strings"

	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/tables"
)

// Markdown writes CommonMark:
//
//   - a heading as an ATX heading, "## text", at the level of the h1..h6
//     element holding its first block, or level 2 when there is none;
//   - a list item as "- text"; consecutive list items form one tight list;
//   - a paragraph as plain text;
//   - consecutive preformatted segments as one fenced code block, written
//     verbatim, with a fence longer than any run of backticks inside.
//
// Segments are separated by a blank line (list items by a newline). Outside
// code blocks the text is escaped where it would otherwise change meaning:
// "\", "`", "*", "[" and "~" always; "_" at a word boundary; "<" before a
// letter, "/", "!" or "?"; "&" where it starts an entity such as "&amp;"
// or "&#32;"; and at the
// start of a line "-", "+", "=", ">", an ATX heading opener ("#" to
// "######" then a space) and an ordered-list marker ("1. ", "1) ").
// Line-leading and trailing white space is dropped (it would make indented
// code or a hard break). In headings a "#" after a
// space is escaped too, so that it cannot close the heading.
//
// Data tables (see Tables; default TablesGrid) are GFM pipe tables: the
// caption and thema cells first as a paragraph, then the table, its
// header row the first row of header cells (an empty header row when
// there is none), every other row of the grid a row of the table except
// rows holding only thema and legend cells, a spanning cell's text in its
// first slot and the others empty; then the legend (finalImportant
// cells) as a paragraph. In cells "|" is escaped as "\|" and line breaks
// become spaces, besides the escapes above.
//
// A page that records its links and images (page.Page.Links, Images)
// has them in its headings, paragraphs and list items (not in code blocks
// or tables): a link as [anchor](href), an image as ![alt](src) in the
// place of its alt text, or at the end of its block. Anchor and alt texts
// are escaped as other text, "]" too; a destination is bare with "(" and
// ")" escaped, or in <...> when it holds a space. A link to anything but
// a relative, http, https or mailto address is written as its text, and
// so is an image from anything but a relative, http or https address or a
// small data: PNG, GIF, JPEG or WebP.
//
// In a Stream, documents are separated by a thematic break "* * *" with a
// blank line on each side.
type Markdown struct {
	Tables Tables // how data tables are written; default TablesGrid
	// Metadata starts each document with its metadata as YAML front
	// matter, as Text's does.
	Metadata bool
}

// Render writes p as Markdown.
func (m Markdown) Render(w io.Writer, p *page.Page) error { return renderDoc(w, p, m) }

func (m Markdown) writeDoc(b *bufio.Writer, p *page.Page, i int) error {
	if i > 0 {
		b.WriteString("\n* * *\n\n")
	}
	if m.Metadata {
		writeFrontMatter(b, p)
	}
	f := pageFlow(p, m.Tables.or(TablesGrid))
	segs := f.segs
	mk := 0
	wrote := false // something was written
	for k := 0; k <= len(segs); k++ {
		table := f.tablesAt(k, &mk, func(v *tables.View) {
			if wrote {
				b.WriteByte('\n')
			}
			writeMDTable(b, v)
			wrote = true
		})
		if k == len(segs) {
			break
		}
		s := &segs[k]
		if wrote && (table || !(s.Label == page.ListItem && segs[k-1].Label == page.ListItem && !s.Pre && !segs[k-1].Pre)) {
			b.WriteByte('\n')
		}
		wrote = true
		switch {
		case s.Pre:
			// Merge the run of preformatted segments into one block.
			end := f.runEnd(k, mk, func(s *Segment) bool { return s.Pre })
			writeFenced(b, segs[k:end])
			k = end - 1
		case s.Label == page.Heading:
			lvl := segmentLevel(p, s)
			b.WriteString("######"[:lvl])
			b.WriteByte(' ')
			mdLineMarked(b, strings.ReplaceAll(s.Text, "\n", " "), true, segmentMarks(p, s))
			b.WriteByte('\n')
		case s.Label == page.ListItem:
			b.WriteString("- ")
			mdLines(b, s.Text, "  ", segmentMarks(p, s))
		default:
			mdLines(b, s.Text, "", segmentMarks(p, s))
		}
	}
	return bufErr(b)
}

func (Markdown) endStream(*bufio.Writer, int) error { return nil }

// writeMDTable writes data table v as a GFM pipe table, with its thema
// before it and its legend after it as paragraphs.
func writeMDTable(b *bufio.Writer, v *tables.View) {
	if s := themaText(v, tables.Thema); s != "" {
		mdLine(b, s, false)
		b.WriteString("\n\n")
	}
	cols := int(v.Table.Cols)
	head := headerRow(v)
	mdRow(b, v, head)
	for x := 0; x < cols; x++ {
		b.WriteString("| --- ")
	}
	b.WriteString("|\n")
	for y := 0; y < int(v.Table.Rows); y++ {
		if y != head && !themaRow(v, y) {
			mdRow(b, v, y)
		}
	}
	if s := themaText(v, tables.FinalImportant); s != "" {
		b.WriteByte('\n')
		mdLine(b, s, false)
		b.WriteByte('\n')
	}
}

// mdRow writes row y of v as a row of a pipe table; y < 0 writes an empty
// row.
func mdRow(b *bufio.Writer, v *tables.View, y int) {
	for x := 0; x < int(v.Table.Cols); x++ {
		b.WriteString("| ")
		if i := v.At(y, x); i >= 0 && int(v.Table.Cells[i].Row) == y && int(v.Table.Cells[i].Col) == x {
			mdCell(b, v.Texts[i])
			b.WriteByte(' ')
		}
	}
	b.WriteString("|\n")
}

// mdCell writes the text of a table cell, one line with single spaces
// (tables.View's texts), with the Markdown escapes of mdLine, and "|"
// escaped as "\|".
func mdCell(b *bufio.Writer, s string) {
	if !strings.Contains(s, "|") {
		mdLine(b, s, false)
		return
	}
	for k, part := range strings.Split(s, "|") {
		if k > 0 {
			b.WriteString("\\|")
		}
		if strings.HasPrefix(part, " ") && k > 0 {
			b.WriteByte(' ')
		}
		mdLine(b, part, false)
		if strings.HasSuffix(part, " ") {
			b.WriteByte(' ')
		}
	}
}

// writeFenced writes the texts of segs, one after the other, as one fenced
// code block.
func writeFenced(b *bufio.Writer, segs []Segment) {
	longest := 0
	for k := range segs {
		run := 0
		for _, c := range []byte(segs[k].Text) {
			if c == '`' {
				run++
				longest = max(longest, run)
			} else {
				run = 0
			}
		}
	}
	fence := strings.Repeat("`", max(3, longest+1))
	b.WriteString(fence)
	b.WriteByte('\n')
	for k := range segs {
		b.WriteString(segs[k].Text)
		b.WriteByte('\n')
	}
	b.WriteString(fence)
	b.WriteByte('\n')
}

// mdLines writes text, which may span several lines, as the lines of one
// paragraph, with the links and images ms in it; lines after the first
// are prefixed by indent. Empty lines are left out: they would end the
// paragraph.
func mdLines(b *bufio.Writer, text, indent string, ms []mark) {
	if ms != nil {
		mdMarkedLines(b, text, indent, ms)
		return
	}
	first := true
	for line := range strings.Lines(text) {
		line = strings.Trim(line, " \t\n\r\f\v")
		if line == "" {
			continue
		}
		if !first {
			b.WriteString(indent)
		}
		first = false
		mdLine(b, line, false)
		b.WriteByte('\n')
	}
	if first {
		b.WriteByte('\n')
	}
}

// mdLine writes one line of text with the Markdown escapes (see Markdown).
func mdLine(b *bufio.Writer, s string, heading bool) {
	s = strings.Trim(s, " \t\r\f\v")
	if s == "" {
		return
	}
	mdEscape(b, s, mdLineStart(b, s), len(s), heading, false, false)
}

// mdLineStart writes the start of line s with the escapes of the
// constructs that open a line, and returns how many bytes of s it wrote.
func mdLineStart(b *bufio.Writer, s string) int {
	switch s[0] {
	case '-', '+', '=', '>':
		b.WriteByte('\\')
		b.WriteByte(s[0])
		return 1
	case '#':
		n := 0
		for n < len(s) && n < 7 && s[n] == '#' {
			n++
		}
		if n <= 6 && endOrSpace(s, n) {
			b.WriteByte('\\')
			b.WriteByte('#')
			return 1
		}
	case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		n := 0
		for n < len(s) && n < 10 && s[n] >= '0' && s[n] <= '9' {
			n++
		}
		if n <= 9 && n < len(s) && (s[n] == '.' || s[n] == ')') && endOrSpace(s, n+1) {
			b.WriteString(s[:n])
			b.WriteByte('\\')
			b.WriteByte(s[n])
			return n + 1
		}
	}
	return 0
}

// mdEscape writes s[from:to] with the escapes of text inside a line (see
// Markdown). What follows a character is read in s, what comes before it
// only from from on (s[from-1] may be written as something else, the end
// of a link). In a link's or an image's text (bracket) "]" is escaped
// too, and with bang a "!" that ends the range, which would make the link
// after it an image.
func mdEscape(b *bufio.Writer, s string, from, to int, heading, bracket, bang bool) {
	last := from // s[last:i] is pending, unescaped text
	for i := from; i < to; i++ {
		c := s[i]
		esc := false
		switch c {
		case '\\', '`', '*', '[', '~':
			esc = true
		case '_':
			esc = !(i > from && wordByte(s[i-1]) && i+1 < to && wordByte(s[i+1]))
		case '<':
			esc = i+1 < len(s) && (isLetter(s[i+1]) || s[i+1] == '/' || s[i+1] == '!' || s[i+1] == '?')
		case '&':
			esc = looksLikeEntity(s[i+1:])
		case '#':
			esc = heading && i > from && (s[i-1] == ' ' || s[i-1] == '\t')
		case ']':
			esc = bracket
		case '!':
			esc = bang && i == to-1
		}
		if esc {
			b.WriteString(s[last:i])
			b.WriteByte('\\')
			last = i
		}
	}
	b.WriteString(s[last:to])
}

// looksLikeEntity reports whether s, the text after a "&", starts like an
// entity or character reference: "amp;", "#32;", "#x20;".
func looksLikeEntity(s string) bool {
	for i := 0; i < len(s) && i < 32; i++ {
		c := s[i]
		switch {
		case c == ';':
			return i > 0
		case isLetter(c) || isDigit(c) || (i == 0 && c == '#'):
		default:
			return false
		}
	}
	return false
}

// endOrSpace reports whether s ends at i or has a space or tab there.
func endOrSpace(s string, i int) bool { return i >= len(s) || s[i] == ' ' || s[i] == '\t' }

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// wordByte reports whether c is part of a word for intraword "_": ASCII
// letters and digits, and every byte of a multi-byte UTF-8 sequence.
func wordByte(c byte) bool { return isLetter(c) || isDigit(c) || c >= 0x80 }
