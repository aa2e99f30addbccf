package htmltree

import (
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// The "in body" insertion mode (12.2.6.4.7), as html.Parse implements it
// (the 2025 rules for <select>, no "in select" mode).

func (b *Builder) inBody() bool {
	switch b.tok.typ {
	case html.TextToken:
		b.bodyText()
	case html.StartTagToken:
		return b.bodyStart()
	case html.EndTagToken:
		return b.bodyEnd()
	case html.CommentToken:
		b.addComment(Nil)
	case html.ErrorToken:
		if len(b.templateModes) > 0 {
			b.mode = inTemplateMode
			return false
		}
	}
	return true
}

func (b *Builder) bodyText() {
	d := b.tok.data
	if cur := b.current(); len(b.stack) > 0 {
		if nd := &b.tree.Nodes[cur]; (nd.Atom == atom.Pre || nd.Atom == atom.Listing) && nd.FirstChild == Nil {
			d = b.dropNewline(d)
		}
	}
	d = b.dropByte(d, 0, "")
	if d.n == 0 {
		return
	}
	b.reconstruct()
	raw := b.tok.raw
	if d.off&sideBit == 0 {
		raw.Start = int32(d.off)
	}
	b.addText(d, raw)
	if b.framesetOK && !b.allSpace(d) {
		b.framesetOK = false
	}
}

// bodyStart handles a start tag in body.
func (b *Builder) bodyStart() bool {
	a := b.tok.atom
	switch a {
	case atom.Html:
		if !b.contains(atom.Template) && len(b.stack) > 0 {
			b.mergeAttrs(b.stack[0])
		}
	case atom.Base, atom.Basefont, atom.Bgsound, atom.Link, atom.Meta, atom.Noframes,
		atom.Script, atom.Style, atom.Template, atom.Title:
		return b.inHead()
	case atom.Body:
		if !b.contains(atom.Template) && len(b.stack) >= 2 && b.tree.Nodes[b.stack[1]].Atom == atom.Body {
			b.framesetOK = false
			b.mergeAttrs(b.stack[1])
		}
	case atom.Frameset:
		return b.bodyFrameset()
	case atom.Address, atom.Article, atom.Aside, atom.Blockquote, atom.Center, atom.Details,
		atom.Dialog, atom.Dir, atom.Div, atom.Dl, atom.Fieldset, atom.Figcaption, atom.Figure,
		atom.Footer, atom.Header, atom.Hgroup, atom.Main, atom.Menu, atom.Nav, atom.Ol, atom.P,
		atom.Search, atom.Section, atom.Summary, atom.Ul, atom.Plaintext:
		b.closeP()
		b.addElement()
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		b.closeP()
		if heading(b.tree.Nodes[b.current()].Atom) && len(b.stack) > 0 {
			b.pop()
		}
		b.addElement()
	case atom.Pre, atom.Listing:
		b.closeP()
		b.addElement()
		b.framesetOK = false
	case atom.Form:
		b.bodyForm()
	case atom.Li, atom.Dd, atom.Dt:
		b.listItem(a)
	default:
		return b.bodyStartInline(a)
	}
	return true
}

// bodyStartInline handles the start tags of body that are not blocks.
func (b *Builder) bodyStartInline(a atom.Atom) bool {
	switch a {
	case atom.Button:
		if b.inScope(defaultScope, atom.Button) >= 0 {
			b.impliedEnd(0)
			b.popScope(defaultScope, atom.Button)
		}
		b.reconstruct()
		b.addElement()
		b.framesetOK = false
	case atom.A:
		if e := b.lastActive(atom.A); e != Nil {
			b.adoption(atom.A)
			b.removeOpen(e)
			b.removeActive(e)
		}
		b.reconstruct()
		b.addFormatting()
	case atom.B, atom.Big, atom.Code, atom.Em, atom.Font, atom.I, atom.S, atom.Small,
		atom.Strike, atom.Strong, atom.Tt, atom.U:
		b.reconstruct()
		b.addFormatting()
	case atom.Nobr:
		b.reconstruct()
		if b.inScope(defaultScope, atom.Nobr) >= 0 {
			b.adoption(atom.Nobr)
			b.reconstruct()
		}
		b.addFormatting()
	case atom.Applet, atom.Marquee, atom.Object:
		b.reconstruct()
		b.addElement()
		b.active = append(b.active, marker)
		b.framesetOK = false
	case atom.Table:
		if !b.quirks {
			b.closeP()
		}
		b.addElement()
		b.framesetOK = false
		b.mode = inTableMode
	case atom.Image:
		b.tok.atom = atom.Img
		return false
	default:
		return b.bodyStartOther(a)
	}
	return true
}

// bodyStartOther handles void, raw-text, form-control, ruby and foreign
// start tags in body, and any other.
func (b *Builder) bodyStartOther(a atom.Atom) bool {
	switch a {
	case atom.Area, atom.Br, atom.Embed, atom.Img, atom.Keygen, atom.Wbr:
		b.reconstruct()
		b.addVoid()
		b.framesetOK = false
	case atom.Input:
		b.popScope(defaultScope, atom.Select)
		b.reconstruct()
		b.addVoid()
		if v, ok := b.tokAttr(atom.Type); !ok || !equalFold(v, "hidden") {
			b.framesetOK = false
		}
	case atom.Param, atom.Source, atom.Track:
		b.addVoid()
	case atom.Hr:
		if b.inScope(buttonScope, atom.P) >= 0 {
			b.impliedEnd(atom.P)
			b.popScope(defaultScope, atom.P)
		}
		if b.inScope(defaultScope, atom.Select) >= 0 {
			b.impliedEnd(0)
		}
		b.addVoid()
		b.framesetOK = false
	case atom.Textarea:
		b.rawText()
		b.framesetOK = false
	case atom.Xmp:
		b.closeP()
		b.reconstruct()
		b.framesetOK = false
		b.rawText()
	case atom.Iframe:
		b.framesetOK = false
		b.rawText()
	case atom.Noembed:
		b.rawText()
	case atom.Noscript:
		b.reconstruct()
		b.addElement()
		b.notRawText()
	case atom.Math, atom.Svg:
		b.startForeign(a)
	case atom.Caption, atom.Col, atom.Colgroup, atom.Frame, atom.Head, atom.Tbody, atom.Td,
		atom.Tfoot, atom.Th, atom.Thead, atom.Tr:
	default:
		b.bodyStartSelect(a)
	}
	return true
}

// bodyStartSelect handles <select>, <option>, <optgroup>, ruby and any
// other start tag.
func (b *Builder) bodyStartSelect(a atom.Atom) {
	switch a {
	case atom.Select:
		if b.popScope(defaultScope, atom.Select) {
			return
		}
		b.reconstruct()
		b.addElement()
		b.framesetOK = false
	case atom.Option, atom.Optgroup:
		if b.inScope(defaultScope, atom.Select) >= 0 {
			except := atom.Atom(0)
			if a == atom.Option {
				except = atom.Optgroup
			}
			b.impliedEnd(except)
		} else if b.currentIs(atom.Option) {
			b.pop()
		}
		b.reconstruct()
		b.addElement()
	case atom.Rb, atom.Rtc, atom.Rp, atom.Rt:
		if b.inScope(defaultScope, atom.Ruby) >= 0 {
			except := atom.Atom(0)
			if a == atom.Rp || a == atom.Rt {
				except = atom.Rtc
			}
			b.impliedEnd(except)
		}
		b.addElement()
	default:
		b.reconstruct()
		b.addElement()
	}
}

func heading(a atom.Atom) bool {
	switch a {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		return true
	}
	return false
}

// bodyFrameset handles <frameset> in body: it replaces the body while
// nothing was shown yet.
func (b *Builder) bodyFrameset() bool {
	if !b.framesetOK || len(b.stack) < 2 || b.tree.Nodes[b.stack[1]].Atom != atom.Body {
		return true
	}
	b.tree.Remove(b.stack[1])
	b.popTo(1)
	b.addElement()
	b.mode = inFramesetMode
	return true
}

func (b *Builder) bodyForm() {
	tmpl := b.contains(atom.Template)
	if b.form != Nil && !tmpl {
		return
	}
	b.closeP()
	n := b.addElement()
	if !tmpl {
		b.form = n
	}
}

// listItem opens <li>, <dd> or <dt>, closing the open item it ends.
func (b *Builder) listItem(a atom.Atom) {
	b.framesetOK = false
	for i := len(b.stack) - 1; i >= 0; i-- {
		e := b.tree.Nodes[b.stack[i]].Atom
		if (a == atom.Li && e == atom.Li) || (a != atom.Li && (e == atom.Dd || e == atom.Dt)) {
			b.popTo(i)
			break
		}
		if e != atom.Address && e != atom.Div && e != atom.P && b.special(b.stack[i]) {
			break
		}
	}
	b.closeP()
	b.addElement()
}

// tokAttr returns the value of the current start tag's attribute key.
func (b *Builder) tokAttr(key atom.Atom) (string, bool) {
	t := &b.tree
	for _, a := range t.attrs[b.tok.attr : b.tok.attr+b.tok.nattr] {
		if a.atom == key {
			return t.string(a.val), true
		}
	}
	return "", false
}

// equalFold is strings.EqualFold for an ASCII lower-case t.
func equalFold(s, t string) bool {
	if len(s) != len(t) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != t[i] {
			return false
		}
	}
	return true
}
