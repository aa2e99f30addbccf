// Package xhtml writes a whole web page as normalised XHTML 1.0: UTF-8,
// well-formed, accepted by a strict XML parser, as Kitten's first stage
// makes it (section 2 of ../shared/seeds/kitten-html-normalization-extraction.txt)
// so that later tools can read the page as a tree.
//
// The page is decoded and parsed as ingest does it (charset detection,
// HTML5 parsing that repairs tags left open or misnested), and the tree is
// written with: lower-case element names, every element closed, void
// elements as <br />, attributes quoted, escaped and deduplicated, invalid
// attribute names dropped, named and numeric references as characters (the
// references &#128;-&#159; as the windows-1252 characters they stand for),
// script and style content in CDATA sections, comments without "--",
// characters XML 1.0 forbids dropped, the XHTML 1.0 doctype and namespace,
// and no indentation added inside text.
package xhtml

import (
	"bufio"
	"io"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/sluice-project/sluice/ingest"
	"github.com/sluice-project/sluice/page"
)

// Options configures Normalize. The zero value is ready to use.
type Options struct {
	// ContentType is the HTTP Content-Type of the input, when known (its
	// charset parameter helps decoding).
	ContentType string
	// MaxBytes caps the input size as ingest.Options.MaxBytes does; 0
	// means ingest's default of 16 MB.
	MaxBytes int
	// Content, when not nil, is the same page cleaned (a sluice.Result's
	// Page), and only its content is written: the text whose span in the
	// input overlaps a kept block's Source span, with the elements around
	// it in their original markup (headings, lists, tables, links,
	// emphasis), in a body after a head holding the title.
	Content *page.Page
}

// Namespaces written on the elements that start them.
const (
	nsXHTML = "http://www.w3.org/1999/xhtml"
	nsSVG   = "http://www.w3.org/2000/svg"
	nsMath  = "http://www.w3.org/1998/Math/MathML"
	nsXLink = "http://www.w3.org/1999/xlink"
)

// Header is what every output starts with: the XML declaration and the
// XHTML 1.0 Transitional doctype (transitional because pages use the
// presentational elements and attributes Strict forbids).
const Header = `<?xml version="1.0" encoding="UTF-8"?>` + "\n" +
	`<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">` + "\n"

// Normalize decodes and parses the page src and writes it to w as
// normalised XHTML. It returns ingest's warnings (an input cut at
// MaxBytes, nesting flattened); it fails for empty and binary input, for
// input the HTML parser refuses, and when w fails.
func Normalize(w io.Writer, src []byte, opts Options) ([]string, error) {
	in := ingest.Options{ContentType: opts.ContentType, MaxBytes: opts.MaxBytes}
	if in.MaxBytes == 0 {
		in.MaxBytes = ingest.DefaultOptions().MaxBytes
	}
	doc, err := ingest.Parse(src, in)
	if err != nil {
		return nil, err
	}
	if opts.Content == nil {
		return doc.Warnings, Write(w, doc.Root)
	}
	x := &writer{b: bufio.NewWriterSize(w, 32<<10), keep: markContent(doc, keptSpans(opts.Content))}
	x.b.WriteString(Header)
	x.writeContent(doc)
	return doc.Warnings, x.b.Flush()
}

// Write writes the tree under the document node root (as html.Parse
// returns it) as normalised XHTML: the header, the comments around the
// root element, and the root element, an <html> one.
func Write(w io.Writer, root *html.Node) error {
	x := &writer{b: bufio.NewWriterSize(w, 32<<10)}
	x.b.WriteString(Header)
	wrote := false
	for c := root.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.CommentNode:
			x.comment(c.Data)
			x.b.WriteByte('\n')
		case c.Type == html.ElementNode && !wrote:
			wrote = true
			x.element(c, "")
			x.b.WriteByte('\n')
		}
	}
	if !wrote {
		x.b.WriteString(`<html xmlns="` + nsXHTML + `"><head><title></title></head><body></body></html>` + "\n")
	}
	return x.b.Flush()
}

// writer writes one tree; the bufio.Writer keeps the first error.
type writer struct {
	b     *bufio.Writer
	names []string // scratch: the attribute names written on an element
	keep  keepSet  // the nodes a content-only output writes; nil: all
}

// namespaceURI maps x/net/html's namespace names to their URIs.
func namespaceURI(ns string) string {
	switch ns {
	case "svg":
		return nsSVG
	case "math":
		return nsMath
	}
	return nsXHTML
}

// element writes n and its subtree; parentNS is the namespace of the
// element it is written in ("" at the root). An element whose name is not
// a valid XML name is left out, its content kept.
func (x *writer) element(n *html.Node, parentNS string) {
	ns := namespaceURI(n.Namespace)
	if !validName(n.Data) {
		x.children(n, parentNS)
		return
	}
	x.b.WriteByte('<')
	x.b.WriteString(n.Data)
	if ns != parentNS {
		x.attr("xmlns", ns)
		if ns != nsXHTML { // svg and math: xlink:href may come inside
			x.attr("xmlns:xlink", nsXLink)
		}
	}
	x.attributes(n)
	if n.FirstChild == nil && (n.Namespace != "" || ingest.VoidElement(n.DataAtom)) {
		x.b.WriteString(" />")
		return
	}
	x.b.WriteByte('>')
	if n.Namespace == "" && (n.DataAtom == atom.Script || n.DataAtom == atom.Style) {
		x.cdata(n)
	} else {
		x.children(n, ns)
	}
	x.b.WriteString("</")
	x.b.WriteString(n.Data)
	x.b.WriteByte('>')
}

// children writes the content of n.
func (x *writer) children(n *html.Node, ns string) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if x.skip(c) {
			continue
		}
		switch c.Type {
		case html.ElementNode:
			x.element(c, ns)
		case html.TextNode:
			x.escape(c.Data, false)
		case html.CommentNode:
			x.comment(c.Data)
		}
	}
}

// attributes writes the attributes of n: the first of each name (as
// HTML5 does), valid XML names only, namespace declarations left out (the
// writer declares the namespaces it uses), and a declared charset replaced
// by UTF-8, the output's.
func (x *writer) attributes(n *html.Node) {
	x.names = x.names[:0]
	charsetMeta := n.DataAtom == atom.Meta && n.Namespace == "" && isContentType(n)
	for _, a := range n.Attr {
		name, ok := attrName(a)
		if !ok || seen(x.names, name) {
			continue
		}
		x.names = append(x.names, name)
		val := a.Val
		switch {
		case n.DataAtom == atom.Meta && name == "charset":
			val = "utf-8"
		case charsetMeta && name == "content":
			val = "text/html; charset=utf-8"
		}
		x.attr(name, val)
	}
}

// isContentType reports whether the meta element n is an http-equiv
// Content-Type declaration.
func isContentType(n *html.Node) bool {
	for _, a := range n.Attr {
		if a.Key == "http-equiv" && strings.EqualFold(strings.TrimSpace(a.Val), "content-type") {
			return true
		}
	}
	return false
}

func seen(names []string, name string) bool {
	for _, s := range names {
		if s == name {
			return true
		}
	}
	return false
}

// attrName is the name an attribute is written under, and whether it is
// written at all: foreign attributes keep their xlink: or xml: prefix;
// xmlns declarations and names that are not XML names are dropped.
func attrName(a html.Attribute) (string, bool) {
	switch a.Namespace {
	case "xlink", "xml":
		return a.Namespace + ":" + a.Key, validName(a.Key)
	case "":
	default:
		return "", false
	}
	if a.Key == "xml:lang" || a.Key == "xml:space" {
		return a.Key, true
	}
	if strings.HasPrefix(a.Key, "xmlns") {
		return "", false
	}
	return a.Key, validName(a.Key)
}

// attr writes ` name="value"`.
func (x *writer) attr(name, val string) {
	x.b.WriteByte(' ')
	x.b.WriteString(name)
	x.b.WriteString(`="`)
	x.escape(val, true)
	x.b.WriteByte('"')
}

// validName reports whether s is a name every XML parser accepts: ASCII
// letters, digits, '_', '-' and '.', starting with a letter or '_' (no
// colon: a prefix would need a namespace declaration), and not starting
// with "xml", which XML reserves (an element named xmlns reads as a
// namespace declaration to some parsers).
func validName(s string) bool {
	if s == "" || len(s) >= 3 && strings.EqualFold(s[:3], "xml") {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
		case i > 0 && (c >= '0' && c <= '9' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return true
}

// cdata writes the text of a script or style element in a CDATA section,
// each "]]>" in it split across two sections.
func (x *writer) cdata(n *html.Node) {
	var sb strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			sb.WriteString(c.Data)
		}
	}
	s := xmlChars(sb.String())
	if s == "" {
		return
	}
	x.b.WriteString("<![CDATA[")
	x.b.WriteString(strings.ReplaceAll(s, "]]>", "]]]]><![CDATA[>"))
	x.b.WriteString("]]>")
}

// comment writes a comment, its text made valid: no "--" inside and no
// '-' at the end.
func (x *writer) comment(s string) {
	s = xmlChars(s)
	for strings.Contains(s, "--") {
		s = strings.ReplaceAll(s, "--", "- -")
	}
	if strings.HasSuffix(s, "-") {
		s += " "
	}
	x.b.WriteString("<!--")
	x.b.WriteString(s)
	x.b.WriteString("-->")
}
