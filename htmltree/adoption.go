package htmltree

import "golang.org/x/net/html/atom"

// Outer and inner loop bounds of the adoption agency algorithm, as the
// spec has them.
const (
	adoptionOuter = 8
	adoptionInner = 3
)

// adoption runs the adoption agency algorithm (12.2.6.4.7) for the end tag
// of formatting element a: it closes the element even where blocks opened
// inside it are still open, moving those blocks out and giving them a clone
// of it. As html.Parse does, a node removed from the list past the inner
// bound stays on the stack.
func (b *Builder) adoption(a atom.Atom) {
	if cur := b.current(); b.tree.Nodes[cur].Atom == a && b.activeIndex(cur) < 0 && len(b.stack) > 0 {
		b.pop()
		return
	}
	for range adoptionOuter {
		fe := b.lastActive(a)
		if fe == Nil {
			b.endTagOther(a)
			return
		}
		feIndex := b.index(fe)
		if feIndex < 0 {
			b.removeActive(fe)
			return
		}
		if b.inScope(defaultScope, a) < 0 {
			return
		}
		furthest := Nil
		for _, e := range b.stack[feIndex:] {
			if b.special(e) {
				furthest = e
				break
			}
		}
		if furthest == Nil {
			b.popTo(feIndex)
			b.removeActive(fe)
			return
		}
		b.adopt(fe, feIndex, furthest)
	}
}

// adopt is one round of the outer loop: fe, at feIndex in the stack, is
// the formatting element; furthest the furthest block.
func (b *Builder) adopt(fe NodeID, feIndex int, furthest NodeID) {
	t := &b.tree
	common := b.stack[feIndex-1]
	bookmark := b.activeIndex(fe)
	last := furthest
	x := b.index(furthest)
	for j := 1; ; j++ {
		x--
		node := b.stack[x]
		if node == fe {
			break
		}
		ni := b.activeIndex(node)
		if j > adoptionInner && ni >= 0 {
			b.active = append(b.active[:ni], b.active[ni+1:]...)
			if ni <= bookmark {
				bookmark--
			}
			continue
		}
		if ni < 0 {
			b.removeOpen(node)
			continue
		}
		c := b.clone(node)
		b.active[ni] = c
		b.stack[x] = c
		t.Nodes[node].open, t.Nodes[c].open = false, true
		if last == furthest {
			bookmark = ni + 1
		}
		t.Remove(last)
		t.insertBefore(c, last, Nil)
		last = c
	}
	t.Remove(last)
	switch t.Nodes[common].Atom {
	case atom.Table, atom.Tbody, atom.Tfoot, atom.Thead, atom.Tr:
		parent, before := b.fosterPlace()
		t.insertBefore(parent, last, before)
	default:
		t.insertBefore(common, last, Nil)
	}
	c := b.clone(fe)
	t.moveChildren(c, furthest)
	t.insertBefore(furthest, c, Nil)
	if old := b.activeIndex(fe); old >= 0 && old < bookmark {
		bookmark--
	}
	b.removeActive(fe)
	bookmark = min(max(bookmark, 0), len(b.active))
	b.active = append(b.active, Nil)
	copy(b.active[bookmark+1:], b.active[bookmark:])
	b.active[bookmark] = c
	b.removeOpen(fe)
	b.insertOpen(b.index(furthest)+1, c)
}

// endTagOther closes the element of an end tag with no rule of its own
// ("any other end tag"): the nearest open element with its name, unless a
// special element comes first. As html.Parse, it does not generate implied
// end tags.
func (b *Builder) endTagOther(a atom.Atom) {
	for i := len(b.stack) - 1; i >= 0; i-- {
		nd := &b.tree.Nodes[b.stack[i]]
		if nd.Namespace == HTML && nd.Atom == a && (a != 0 || b.tree.string(nd.data) == b.tree.string(b.tok.name)) {
			b.popTo(i)
			return
		}
		if b.special(b.stack[i]) {
			return
		}
	}
}

// special reports whether element n is in the special category
// (12.2.4.2), as html.Parse lists it.
func (b *Builder) special(n NodeID) bool {
	nd := &b.tree.Nodes[n]
	switch nd.Namespace {
	case MathML:
		return mathTextPoint(nd.Atom) || nd.Atom == atom.AnnotationXml
	case SVG:
		return b.svgIntegration(nd)
	}
	switch nd.Atom {
	case atom.Address, atom.Applet, atom.Area, atom.Article, atom.Aside, atom.Base,
		atom.Basefont, atom.Bgsound, atom.Blockquote, atom.Body, atom.Br, atom.Button,
		atom.Caption, atom.Center, atom.Col, atom.Colgroup, atom.Dd, atom.Details,
		atom.Dir, atom.Div, atom.Dl, atom.Dt, atom.Embed, atom.Fieldset, atom.Figcaption,
		atom.Figure, atom.Footer, atom.Form, atom.Frame, atom.Frameset, atom.H1, atom.H2,
		atom.H3, atom.H4, atom.H5, atom.H6, atom.Head, atom.Header, atom.Hgroup, atom.Hr,
		atom.Html, atom.Iframe, atom.Img, atom.Input, atom.Keygen, atom.Li, atom.Link,
		atom.Listing, atom.Main, atom.Marquee, atom.Menu, atom.Meta, atom.Nav,
		atom.Noembed, atom.Noframes, atom.Noscript, atom.Object, atom.Ol, atom.P,
		atom.Param, atom.Plaintext, atom.Pre, atom.Script, atom.Section, atom.Select,
		atom.Source, atom.Style, atom.Summary, atom.Table, atom.Tbody, atom.Td,
		atom.Template, atom.Textarea, atom.Tfoot, atom.Th, atom.Thead, atom.Title,
		atom.Tr, atom.Track, atom.Ul, atom.Wbr, atom.Xmp:
		return true
	}
	return false
}
