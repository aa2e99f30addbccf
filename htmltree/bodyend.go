package htmltree

import (
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// bodyEnd handles an end tag in body.
func (b *Builder) bodyEnd() bool {
	a := b.tok.atom
	switch a {
	case atom.Body:
		if b.inScope(defaultScope, atom.Body) >= 0 {
			b.mode = afterBodyMode
		}
	case atom.Html:
		if b.inScope(defaultScope, atom.Body) >= 0 {
			b.implied(html.EndTagToken, atom.Body)
			return false
		}
	case atom.Address, atom.Article, atom.Aside, atom.Blockquote, atom.Button, atom.Center,
		atom.Details, atom.Dialog, atom.Dir, atom.Div, atom.Dl, atom.Fieldset, atom.Figcaption,
		atom.Figure, atom.Footer, atom.Header, atom.Hgroup, atom.Listing, atom.Main, atom.Menu,
		atom.Nav, atom.Ol, atom.Pre, atom.Search, atom.Section, atom.Select, atom.Summary, atom.Ul:
		if b.inScope(defaultScope, a) >= 0 {
			b.impliedEnd(0)
			b.popScope(defaultScope, a)
		}
	case atom.Form:
		b.endForm()
	case atom.P:
		if b.inScope(buttonScope, atom.P) < 0 {
			b.implied(html.StartTagToken, atom.P)
		}
		b.popScope(buttonScope, atom.P)
	case atom.Li:
		b.popScope(listItemScope, atom.Li)
	case atom.Dd, atom.Dt:
		b.popScope(defaultScope, a)
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		b.popScope(defaultScope, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6)
	case atom.A, atom.B, atom.Big, atom.Code, atom.Em, atom.Font, atom.I, atom.Nobr, atom.S,
		atom.Small, atom.Strike, atom.Strong, atom.Tt, atom.U:
		b.adoption(a)
	case atom.Applet, atom.Marquee, atom.Object:
		if b.popScope(defaultScope, a) {
			b.clearActive()
		}
	case atom.Br:
		b.tok.typ = html.StartTagToken
		b.tok.attr, b.tok.nattr = 0, 0
		return false
	case atom.Template:
		return b.inHead()
	default:
		b.endTagOther(a)
	}
	return true
}

// endForm handles </form>.
func (b *Builder) endForm() {
	if b.contains(atom.Template) {
		i := b.inScope(defaultScope, atom.Form)
		if i < 0 {
			return
		}
		b.impliedEnd(0)
		if b.tree.Nodes[b.stack[i]].Atom != atom.Form {
			return
		}
		b.popScope(defaultScope, atom.Form)
		return
	}
	node := b.form
	b.form = Nil
	i := b.inScope(defaultScope, atom.Form)
	if node == Nil || i < 0 || b.stack[i] != node {
		return
	}
	b.impliedEnd(0)
	b.removeOpen(node)
}
