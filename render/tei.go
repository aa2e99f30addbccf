package render

import (
	"bufio"
	"cmp"
	"io"
	"strings"

	"github.com/sluice-project/sluice/page"
)

// TEI writes each page as a TEI P5 document (https://tei-c.org/guidelines/p5/),
// for TEI tooling:
//
//	<?xml version="1.0" encoding="UTF-8"?>
//	<TEI xmlns="http://www.tei-c.org/ns/1.0">
//	<teiHeader>
//	<fileDesc>
//	<titleStmt>
//	<title>Mills</title>
//	<author>Ann Miller</author>
//	</titleStmt>
//	<publicationStmt>
//	<publisher>Valley News</publisher>
//	<availability><p>CC BY 4.0</p></availability>
//	</publicationStmt>
//	<sourceDesc>
//	<bibl><title>Mills</title><author>Ann Miller</author><publisher>Valley News</publisher><date type="published" when="2024-03-05">2024-03-05</date><ptr type="URL" target="http://example.com/mills"/></bibl>
//	</sourceDesc>
//	</fileDesc>
//	<profileDesc>
//	<abstract><p>The mills of the valley.</p></abstract>
//	<langUsage><language ident="en"/></langUsage>
//	<textClass><keywords><term type="category">Local</term><term type="tag">mills</term></keywords></textClass>
//	</profileDesc>
//	</teiHeader>
//	<text>
//	<body>
//	<div>
//	<head rend="h1">Mills</head>
//	<p>Walk from <ref target="/upper">the mill</ref> to <graphic url="/weir.jpg"><desc>the weir</desc></graphic>.</p>
//	<list rend="ul">
//	<item>an item</item>
//	</list>
//	<ab type="code"><code>if a &lt; b {
//	}</code></ab>
//	<table>
//	<row><cell role="label">Tea</cell><cell role="label">Price</cell></row>
//	<row><cell>Green</cell><cell>2.00</cell></row>
//	</table>
//	</div>
//	</body>
//	</text>
//	</TEI>
//
// The header holds the page's metadata (page.Meta): the title (the
// headline, else the document's title; an empty <title/> when there is
// none) and author in the titleStmt; the site's name (else the url's
// host; empty when neither is known) as publisher and the licence as
// availability in the publicationStmt; in the sourceDesc a <bibl> of the
// web page: its title, author, publisher, dates (type "published" and
// "modified", with a when attribute when in the YYYY-MM-DD form) and
// address (the page's, else its canonical one) as a <ptr type="URL">. A
// profileDesc, written when there is something to say, holds the
// description as an <abstract>, the language (when it reads as a BCP 47
// tag; "_" becomes "-") as <langUsage>, and the categories and tags as
// <term type="category"> and <term type="tag"> keywords.
//
// The body holds the same elements as the xml format's <main> (see XML),
// in <div> elements: TEI allows a <head> only at the start of a division,
// so each heading starts a new <div>; the kept content before the first
// heading is in a <div> of its own, and a page with none has an empty
// <div/>. The differences: a run of preformatted segments is an
// <ab type="code"> holding the <code>, a header cell of a table has
// role="label" (TEI's value for it), and an image is
// <graphic url="..."> with the alt text as its <desc>. Escaping is the
// xml format's.
//
// Render writes a standalone document: the XML declaration and a <TEI>
// element. A Stream writes one document whose root is a <teiCorpus>: a
// corpus header (title "sluice"), then a <TEI> per input document. An
// empty stream is a <teiCorpus> with its header alone, well-formed but,
// as TEI wants at least one <TEI> in a corpus, not valid.
type TEI struct {
	Tables Tables // how data tables are written; default TablesGrid
}

const teiNS = "http://www.tei-c.org/ns/1.0"

// teiCorpusStart opens a stream's <teiCorpus> and writes its header.
const teiCorpusStart = xmlDecl + `<teiCorpus xmlns="` + teiNS + `">
<teiHeader>
<fileDesc>
<titleStmt>
<title>sluice</title>
</titleStmt>
<publicationStmt>
<p>Unpublished.</p>
</publicationStmt>
<sourceDesc>
<p>Web pages cleaned by sluice.</p>
</sourceDesc>
</fileDesc>
</teiHeader>
`

// Render writes p as a TEI document.
func (t TEI) Render(w io.Writer, p *page.Page) error { return renderDoc(w, p, t) }

func (t TEI) writeDoc(b *bufio.Writer, p *page.Page, i int) error {
	switch {
	case i < 0:
		b.WriteString(xmlDecl + `<TEI xmlns="` + teiNS + "\">\n")
	case i == 0:
		b.WriteString(teiCorpusStart + "<TEI>\n")
	default:
		b.WriteString("<TEI>\n")
	}
	teiHeader(b, &p.Meta)
	b.WriteString("<text>\n<body>\n")
	w := xmlBody{b: b, p: p, tei: true}
	w.write(t.Tables)
	b.WriteString("</body>\n</text>\n</TEI>\n")
	return bufErr(b)
}

func (TEI) endStream(b *bufio.Writer, n int) error {
	if n == 0 {
		b.WriteString(teiCorpusStart)
	}
	b.WriteString("</teiCorpus>\n")
	return bufErr(b)
}

// teiHeader writes the <teiHeader> of a page with metadata m (see TEI).
func teiHeader(b *bufio.Writer, m *page.Meta) {
	title := cmp.Or(m.Headline, m.Title)
	u := cmp.Or(m.URL, m.Canonical)
	publisher := cmp.Or(m.SiteName, hostOf(u))
	b.WriteString("<teiHeader>\n<fileDesc>\n<titleStmt>\n")
	teiElem(b, "title", "", title, true)
	b.WriteByte('\n')
	if m.Author != "" {
		teiElem(b, "author", "", m.Author, false)
		b.WriteByte('\n')
	}
	b.WriteString("</titleStmt>\n<publicationStmt>\n")
	teiElem(b, "publisher", "", publisher, true)
	b.WriteByte('\n')
	if m.License != "" {
		b.WriteString("<availability>")
		teiElem(b, "p", "", m.License, false)
		b.WriteString("</availability>\n")
	}
	b.WriteString("</publicationStmt>\n<sourceDesc>\n<bibl>")
	teiElem(b, "title", "", title, false)
	teiElem(b, "author", "", m.Author, false)
	teiElem(b, "publisher", "", publisher, false)
	teiDate(b, "published", m.Published)
	teiDate(b, "modified", m.Modified)
	if u != "" {
		b.WriteString(`<ptr type="URL" target="`)
		xmlURL(b, u)
		b.WriteString(`"/>`)
	}
	b.WriteString("</bibl>\n</sourceDesc>\n</fileDesc>\n")
	teiProfile(b, m)
	b.WriteString("</teiHeader>\n")
}

// teiProfile writes the <profileDesc> of a page with metadata m, when
// there is something to say.
func teiProfile(b *bufio.Writer, m *page.Meta) {
	lang := langTag(m.Lang)
	if m.Description == "" && lang == "" && len(m.Categories) == 0 && len(m.Tags) == 0 {
		return
	}
	b.WriteString("<profileDesc>\n")
	if m.Description != "" {
		b.WriteString("<abstract>")
		teiElem(b, "p", "", m.Description, false)
		b.WriteString("</abstract>\n")
	}
	if lang != "" {
		b.WriteString(`<langUsage><language ident="`)
		xmlEscape(b, lang, true)
		b.WriteString("\"/></langUsage>\n")
	}
	if len(m.Categories) > 0 || len(m.Tags) > 0 {
		b.WriteString("<textClass><keywords>")
		for _, c := range m.Categories {
			teiElem(b, "term", "category", c, true)
		}
		for _, t := range m.Tags {
			teiElem(b, "term", "tag", t, true)
		}
		b.WriteString("</keywords></textClass>\n")
	}
	b.WriteString("</profileDesc>\n")
}

// teiElem writes <name type="typ">text</name> (no type attribute when typ
// is ""), or nothing when text is empty unless always is set.
func teiElem(b *bufio.Writer, name, typ, text string, always bool) {
	if text == "" && !always {
		return
	}
	b.WriteByte('<')
	b.WriteString(name)
	if typ != "" {
		xmlAttr(b, "type", typ)
	}
	if text == "" {
		b.WriteString("/>")
		return
	}
	b.WriteByte('>')
	xmlEscape(b, text, false)
	b.WriteString("</")
	b.WriteString(name)
	b.WriteByte('>')
}

// teiDate writes date d as <date type="typ">, with a when attribute when
// d is a W3C date (YYYY, YYYY-MM or YYYY-MM-DD); nothing when d is empty.
func teiDate(b *bufio.Writer, typ, d string) {
	if d == "" {
		return
	}
	b.WriteString("<date")
	xmlAttr(b, "type", typ)
	if isoDate(d) {
		xmlAttr(b, "when", d)
	}
	b.WriteByte('>')
	xmlEscape(b, d, false)
	b.WriteString("</date>")
}

// isoDate reports whether d has the form YYYY, YYYY-MM or YYYY-MM-DD.
func isoDate(d string) bool {
	if len(d) != 4 && len(d) != 7 && len(d) != 10 {
		return false
	}
	for i := 0; i < len(d); i++ {
		if i == 4 || i == 7 {
			if d[i] != '-' {
				return false
			}
		} else if !isDigit(d[i]) {
			return false
		}
	}
	return true
}

// langTag returns language s as a BCP 47 tag for TEI's ident ("_" read
// as "-"), or "" when it does not have the form of one: subtags of 1 to 8
// ASCII letters or digits, the first letters only.
func langTag(s string) string {
	s = strings.ReplaceAll(strings.TrimSpace(s), "_", "-")
	if s == "" {
		return ""
	}
	for k, sub := range strings.Split(s, "-") {
		if len(sub) == 0 || len(sub) > 8 {
			return ""
		}
		for i := 0; i < len(sub); i++ {
			if c := sub[i]; !isLetter(c) && (k == 0 || !isDigit(c)) {
				return ""
			}
		}
	}
	return s
}
