package render

import (
	"bufio"
	"cmp"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/tables"
	"github.com/sluice-project/sluice/xhtml"
)

// XML writes each page as a <doc> element in the shape of trafilatura's
// XML output, for the tools that read it:
//
//	<?xml version="1.0" encoding="UTF-8"?>
//	<doc title="Mills" author="Ann Miller" date="2024-03-05" url="http://example.com/mills" hostname="example.com" language="en">
//	<main>
//	<head rend="h1">Mills</head>
//	<p>Walk from <ref target="/upper">the mill</ref> to <graphic src="/weir.jpg" alt="the weir"/>.</p>
//	<list rend="ul">
//	<item>an item</item>
//	</list>
//	<code>if a &lt; b {
//	}</code>
//	<table>
//	<head>Prices</head>
//	<row><cell role="head">Tea</cell><cell role="head">Price</cell></row>
//	<row><cell>Green</cell><cell>2.00</cell></row>
//	</table>
//	</main>
//	</doc>
//
// The attributes of <doc> are the page's metadata (page.Meta), each only
// when known, in this order: title (the headline, else the document's
// title), author, date (published, YYYY-MM-DD), modified, sitename, url
// (the page's address, else its canonical one), hostname (the url's
// host), description, categories and tags (each joined by ";"), license,
// image and language. There is no fingerprint, id or <comments>.
//
// <main> holds the kept segments in order: a heading is a <head> whose
// rend names the h1..h6 element holding its first block (h2 when none),
// as in the markdown and html formats; a paragraph is a <p>; a run of
// list items is one <list> with an <item> each, rend="ol" when its first
// item is inside an <ol>, else "ul" (a change of kind starts a new
// list); a run of preformatted segments is one <code>, its lines as
// they were.
//
// Data tables (see Tables; default TablesGrid) are written as a <table>:
// the caption as a <head>, one <row> per grid row, each cell at its
// top-left slot with cols and rows for its spans and role="head" for a
// header cell, and an empty <cell/> for a slot no cell covers; a row
// whose every slot a cell above it covers is left out, and not counted
// in the spans. A cell the cleaner dropped is an empty cell. With
// TablesLinear each data row is a <p> holding its clause; with
// TablesBlocks the cells are ordinary segments.
//
// A page that records its links and images (page.Page.Links, Images)
// has them in its headings, paragraphs and items: <ref target="...">
// around the anchor text, <graphic src="..." alt="..."/> in the place of
// the alt text or at the end of its block, with the same refusals as the
// html format's (javascript: and other schemes, data: but small images:
// their text is written alone).
//
// Every text and attribute value is escaped (&, < and >; in attributes ",
// tab and line feed too; a carriage return everywhere) and kept to the
// characters XML 1.0 allows: the control characters it forbids, U+FFFE
// and U+FFFF are left out, and bytes that are not UTF-8 become U+FFFD. In
// addresses (target, src) spaces, control characters and bytes that are
// not UTF-8 are percent-encoded.
//
// Render writes a standalone document: the XML declaration and one <doc>.
// A Stream writes one document whose root, <docs>, holds a <doc> per input
// document, so that the output stays well-formed; an empty stream is an
// empty <docs>.
type XML struct {
	Tables Tables // how data tables are written; default TablesGrid
}

// xmlDecl is the XML declaration that starts every xml and tei document.
const xmlDecl = `<?xml version="1.0" encoding="UTF-8"?>` + "\n"

// Render writes p as an XML document with one <doc>.
func (x XML) Render(w io.Writer, p *page.Page) error { return renderDoc(w, p, x) }

func (x XML) writeDoc(b *bufio.Writer, p *page.Page, i int) error {
	switch {
	case i < 0:
		b.WriteString(xmlDecl)
	case i == 0:
		b.WriteString(xmlDecl + "<docs>\n")
	}
	b.WriteString("<doc")
	docAttrs(b, &p.Meta)
	b.WriteString(">\n<main>\n")
	w := xmlBody{b: b, p: p}
	w.write(x.Tables)
	b.WriteString("</main>\n</doc>\n")
	return bufErr(b)
}

func (XML) endStream(b *bufio.Writer, n int) error {
	if n == 0 {
		b.WriteString(xmlDecl + "<docs>\n")
	}
	b.WriteString("</docs>\n")
	return bufErr(b)
}

// docAttrs writes the metadata of m as the attributes of <doc>.
func docAttrs(b *bufio.Writer, m *page.Meta) {
	u := cmp.Or(m.URL, m.Canonical)
	for _, a := range [...]struct{ key, val string }{
		{"title", cmp.Or(m.Headline, m.Title)}, {"author", m.Author}, {"date", m.Published},
		{"modified", m.Modified}, {"sitename", m.SiteName}, {"url", u}, {"hostname", hostOf(u)},
		{"description", m.Description}, {"categories", strings.Join(m.Categories, ";")},
		{"tags", strings.Join(m.Tags, ";")}, {"license", m.License}, {"image", m.Image}, {"language", m.Lang},
	} {
		if a.val != "" {
			xmlAttr(b, a.key, a.val)
		}
	}
}

// hostOf returns the host of address u in lower case, "" without one.
func hostOf(u string) string {
	m := page.Meta{URL: u}
	return m.Host()
}

// xmlAttr writes ` key="val"`, val escaped.
func xmlAttr(b *bufio.Writer, key, val string) {
	b.WriteByte(' ')
	b.WriteString(key)
	b.WriteString(`="`)
	xmlEscape(b, val, true)
	b.WriteByte('"')
}

// xmlBody writes the kept content of a page as the elements the xml and
// tei formats share. In tei it puts them in <div> elements, a new one at
// each heading, since TEI allows a <head> only at the start of a
// division.
type xmlBody struct {
	b    *bufio.Writer
	p    *page.Page
	tei  bool
	open bool // tei: a <div> is open
}

// write writes the segments and data tables of the page, data tables as
// mode m says (TablesDefault is TablesGrid).
func (w *xmlBody) write(m Tables) {
	b, p := w.b, w.p
	f := pageFlow(p, m.or(TablesGrid))
	segs := f.segs
	mk := 0
	for k := 0; k <= len(segs); k++ {
		f.tablesAt(k, &mk, w.table)
		if k == len(segs) {
			break
		}
		s := &segs[k]
		switch {
		case s.Pre:
			w.div(false)
			if w.tei {
				b.WriteString(`<ab type="code">`)
			}
			b.WriteString("<code>")
			end := f.runEnd(k, mk, func(s *Segment) bool { return s.Pre })
			for j := k; j < end; j++ {
				if j > k {
					b.WriteByte('\n')
				}
				xmlEscape(b, segs[j].Text, false)
			}
			k = end - 1
			b.WriteString("</code>")
			if w.tei {
				b.WriteString("</ab>")
			}
			b.WriteByte('\n')
		case s.Label == page.Heading:
			w.div(true)
			b.WriteString(`<head rend="h`)
			b.WriteByte(byte('0' + segmentLevel(p, s)))
			b.WriteString(`">`)
			w.inline(s)
			b.WriteString("</head>\n")
		case s.Label == page.ListItem:
			w.div(false)
			kind := listKind(p, s)
			b.WriteString(`<list rend="` + kind + "\">\n")
			end := f.runEnd(k, mk, func(s *Segment) bool { return s.Label == page.ListItem && !s.Pre && listKind(p, s) == kind })
			for ; k < end; k++ {
				b.WriteString("<item>")
				w.inline(&segs[k])
				b.WriteString("</item>\n")
			}
			k--
			b.WriteString("</list>\n")
		default:
			w.div(false)
			b.WriteString("<p>")
			w.inline(s)
			b.WriteString("</p>\n")
		}
	}
	if w.tei {
		if w.open {
			b.WriteString("</div>\n")
		} else {
			b.WriteString("<div/>\n") // a TEI body holds at least one division
		}
	}
}

// div makes sure a <div> is open in tei: a new one for a heading, else the
// open one.
func (w *xmlBody) div(heading bool) {
	if !w.tei || w.open && !heading {
		return
	}
	if w.open {
		w.b.WriteString("</div>\n")
	}
	w.b.WriteString("<div>\n")
	w.open = true
}

// listKind returns "ol" when the first block of s is inside an <ol>
// (its nearest ol or ul), else "ul".
func listKind(p *page.Page, s *Segment) string {
	kind := "ul"
	if len(s.Blocks) == 0 || s.Blocks[0] < 0 || s.Blocks[0] >= len(p.Blocks) {
		return kind
	}
	p.Ancestors(p.Blocks[s.Blocks[0]].Node, func(_ int32, nd *page.Node) bool {
		switch nd.Tag {
		case "ol":
			kind = "ol"
			return false
		case "ul":
			return false
		}
		return true
	})
	return kind
}

// inline writes the text of segment s with its links and images.
func (w *xmlBody) inline(s *Segment) {
	ms := segmentMarks(w.p, s)
	if ms == nil {
		xmlEscape(w.b, s.Text, false)
		return
	}
	writeMarked(&xmlInline{b: w.b, tei: w.tei}, s.Text, 0, len(s.Text), ms)
}

// table writes data table v as a <table> (see XML).
func (w *xmlBody) table(v *tables.View) {
	b := w.b
	w.div(false)
	t := v.Table
	rows := int(t.Rows)
	// kept[y] is the number of rows written before row y: a row is left
	// out when every slot of it is covered by a cell starting above it.
	kept := make([]int32, rows+1)
	for y := range rows {
		kept[y+1] = kept[y]
		for x := range int(t.Cols) {
			if i := v.At(y, x); i < 0 || int(t.Cells[i].Row) == y {
				kept[y+1]++
				break
			}
		}
	}
	head := ` role="head"`
	if w.tei {
		head = ` role="label"`
	}
	b.WriteString("<table>\n")
	if v.Caption != "" {
		b.WriteString("<head>")
		xmlEscape(b, v.Caption, false)
		b.WriteString("</head>\n")
	}
	for y := range rows {
		if kept[y+1] == kept[y] {
			continue
		}
		b.WriteString("<row>")
		for x := range int(t.Cols) {
			i := v.At(y, x)
			if i < 0 {
				b.WriteString("<cell/>")
				continue
			}
			c := &t.Cells[i]
			if int(c.Row) != y || int(c.Col) != x {
				continue
			}
			b.WriteString("<cell")
			if v.Roles[i] == tables.Header {
				b.WriteString(head)
			}
			if c.ColSpan > 1 {
				xmlAttr(b, "cols", strconv.Itoa(int(c.ColSpan)))
			}
			if n := kept[min(y+int(c.RowSpan), rows)] - kept[y]; n > 1 {
				xmlAttr(b, "rows", strconv.Itoa(int(n)))
			}
			b.WriteByte('>')
			xmlEscape(b, v.Texts[i], false)
			b.WriteString("</cell>")
		}
		b.WriteString("</row>\n")
	}
	b.WriteString("</table>\n")
}

// xmlInline writes XML text with links as <ref target="..."> and images
// as <graphic>: src and alt attributes in xml, a url attribute and the
// alt text as its <desc> in tei.
type xmlInline struct {
	b       *bufio.Writer
	tei     bool
	started bool // something was written
}

func (w *xmlInline) text(s string, from, to int, _, _ bool) {
	if from < to {
		w.started = true
		xmlEscape(w.b, s[from:to], false)
	}
}

func (w *xmlInline) openLink(l *page.Link) bool {
	if !linkAllowed(l.Href) {
		return false
	}
	w.started = true
	w.b.WriteString(`<ref target="`)
	xmlURL(w.b, l.Href)
	w.b.WriteString(`">`)
	return true
}

func (w *xmlInline) closeLink(*page.Link) { w.b.WriteString("</ref>") }

func (w *xmlInline) image(im *page.Image, alone bool) bool {
	if !imageAllowed(im.Src) {
		return false
	}
	if alone && w.started {
		w.b.WriteByte(' ')
	}
	w.started = true
	switch {
	case !w.tei:
		w.b.WriteString(`<graphic src="`)
		xmlURL(w.b, im.Src)
		w.b.WriteByte('"')
		xmlAttr(w.b, "alt", im.Alt)
		w.b.WriteString("/>")
	case im.Alt == "":
		w.b.WriteString(`<graphic url="`)
		xmlURL(w.b, im.Src)
		w.b.WriteString(`"/>`)
	default:
		w.b.WriteString(`<graphic url="`)
		xmlURL(w.b, im.Src)
		w.b.WriteString(`"><desc>`)
		xmlEscape(w.b, im.Alt, false)
		w.b.WriteString("</desc></graphic>")
	}
	return true
}

// xmlEscape writes s as XML character data, or as an attribute value
// when attr is set: xhtml.Escape, which the xhtml format writes with too.
func xmlEscape(b *bufio.Writer, s string, attr bool) { xhtml.Escape(b, s, attr) }

// xmlURL writes address u as an attribute value: spaces, control
// characters, U+FFFE, U+FFFF and bytes that are not UTF-8
// percent-encoded (a TEI pointer attribute is a list separated by
// spaces), the rest escaped by xmlEscape.
func xmlURL(b *bufio.Writer, u string) {
	last := 0
	for i := 0; i < len(u); {
		c := u[i]
		n := 1
		if c > ' ' && c != 0x7f {
			if c < utf8.RuneSelf {
				i++
				continue
			}
			r, size := utf8.DecodeRuneInString(u[i:])
			if !(r == utf8.RuneError && size == 1) && r != 0xFFFE && r != 0xFFFF {
				i += size
				continue
			}
			n = size
		}
		xmlEscape(b, u[last:i], true)
		for _, c := range []byte(u[i : i+n]) {
			b.WriteByte('%')
			b.WriteByte(upperHex[c>>4])
			b.WriteByte(upperHex[c&0xf])
		}
		i += n
		last = i
	}
	xmlEscape(b, u[last:], true)
}
