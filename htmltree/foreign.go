package htmltree

import (
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/sluice-project/sluice/internal/htmlscan"
)

// Foreign content (12.2.6.5): <svg> and <math> subtrees. Their elements get
// the namespace SVG or MathML and keep their lower-case names (no SVG
// camel-case adjustment, no attribute adjustment); HTML tags that break
// out of foreign content close it, and the integration points (svg desc,
// foreignObject, title; MathML text elements and annotation-xml for HTML)
// hold HTML content.

// startForeign opens <svg> or <math> from body.
func (b *Builder) startForeign(a atom.Atom) {
	b.reconstruct()
	n := b.addElement()
	b.tree.Nodes[n].Namespace = SVG
	if a == atom.Math {
		b.tree.Nodes[n].Namespace = MathML
	}
	if b.tok.selfClosing {
		b.pop()
	}
}

// inForeignElement reports whether the current node is foreign (where the
// tokenizer allows CDATA sections).
func (b *Builder) inForeignElement() bool {
	return len(b.stack) > 0 && b.tree.Nodes[b.current()].Namespace != HTML
}

// inForeignContent reports whether the current token is processed by the
// rules for foreign content.
func (b *Builder) inForeignContent() bool {
	if len(b.stack) == 0 || b.tok.typ == html.ErrorToken {
		return false
	}
	nd := &b.tree.Nodes[b.current()]
	if nd.Namespace == HTML {
		return false
	}
	start, text := b.tok.typ == html.StartTagToken, b.tok.typ == html.TextToken
	if nd.Namespace == MathML && mathTextPoint(nd.Atom) {
		if (start && b.tok.atom != atom.Mglyph && b.tok.atom != atom.Malignmark) || text {
			return false
		}
	}
	if nd.Namespace == MathML && nd.Atom == atom.AnnotationXml && start && b.tok.atom == atom.Svg {
		return false
	}
	return !(b.htmlIntegration(nd) && (start || text))
}

func (b *Builder) foreignContent() bool {
	switch b.tok.typ {
	case html.TextToken:
		if b.framesetOK {
			b.framesetOK = b.allSpaceOrNUL(b.tok.data)
		}
		b.addText(b.dropByte(b.tok.data, 0, "\ufffd"), b.tok.raw)
	case html.CommentToken:
		b.addComment(Nil)
	case html.StartTagToken:
		if b.breakout() {
			for i := len(b.stack) - 1; i >= 0; i-- {
				nd := &b.tree.Nodes[b.stack[i]]
				if nd.Namespace == HTML || b.htmlIntegration(nd) || (nd.Namespace == MathML && mathTextPoint(nd.Atom)) {
					b.popTo(i + 1)
					break
				}
			}
			return b.step(b.mode)
		}
		ns := b.tree.Nodes[b.current()].Namespace
		n := b.addElement()
		b.tree.Nodes[n].Namespace = ns
		b.tree.Nodes[n].data = b.tok.name
		b.notRawText()
		if b.tok.selfClosing {
			b.pop()
		}
	case html.EndTagToken:
		return b.foreignEnd()
	}
	return true
}

// foreignEnd closes the foreign element of an end tag, if one is open
// above the nearest HTML element, else hands the tag to the insertion mode.
func (b *Builder) foreignEnd() bool {
	name := b.tree.string(b.tok.name)
	for i := len(b.stack) - 1; i >= 0; i-- {
		if b.tree.Name(b.stack[i]) == name {
			b.popTo(i)
			return true
		}
		if i > 0 && b.tree.Nodes[b.stack[i-1]].Namespace == HTML {
			break
		}
	}
	return b.step(b.mode)
}

// breakout reports whether the current start tag ends foreign content.
func (b *Builder) breakout() bool {
	switch b.tok.atom {
	case atom.B, atom.Big, atom.Blockquote, atom.Body, atom.Br, atom.Center, atom.Code,
		atom.Dd, atom.Div, atom.Dl, atom.Dt, atom.Em, atom.Embed, atom.H1, atom.H2, atom.H3,
		atom.H4, atom.H5, atom.H6, atom.Head, atom.Hr, atom.I, atom.Img, atom.Li,
		atom.Listing, atom.Menu, atom.Meta, atom.Nobr, atom.Ol, atom.P, atom.Pre, atom.Ruby,
		atom.S, atom.Small, atom.Span, atom.Strong, atom.Strike, atom.Sub, atom.Sup,
		atom.Table, atom.Tt, atom.U, atom.Ul, atom.Var:
		return true
	case atom.Font:
		for _, k := range [...]atom.Atom{atom.Color, atom.Face, atom.Size} {
			if _, ok := b.tokAttr(k); ok {
				return true
			}
		}
	}
	return false
}

// mathTextPoint reports whether a MathML element is a text integration
// point.
func mathTextPoint(a atom.Atom) bool {
	switch a {
	case atom.Mi, atom.Mo, atom.Mn, atom.Ms, atom.Mtext:
		return true
	}
	return false
}

// svgIntegration reports whether a foreign element is one of the SVG
// elements that hold HTML (desc, foreignObject, title).
func (b *Builder) svgIntegration(nd *Node) bool {
	if nd.Namespace != SVG {
		return false
	}
	switch b.tree.string(nd.data) {
	case "desc", "foreignobject", "title":
		return true
	}
	return false
}

// htmlIntegration reports whether a foreign element is an HTML integration
// point.
func (b *Builder) htmlIntegration(nd *Node) bool {
	if nd.Namespace == MathML && nd.Atom == atom.AnnotationXml {
		t := &b.tree
		for _, a := range t.attrs[nd.attr : nd.attr+nd.nattr] {
			if t.string(a.key) == "encoding" {
				v := t.string(a.val)
				return equalFold(v, "text/html") || equalFold(v, "application/xhtml+xml")
			}
		}
		return false
	}
	return b.svgIntegration(nd)
}

func (b *Builder) allSpaceOrNUL(s str) bool {
	for _, c := range b.tree.bytes(s) {
		if !htmlscan.IsSpace(c) && c != 0 {
			return false
		}
	}
	return true
}
