package htmltree

import "golang.org/x/net/html/atom"

// The stack of open elements (12.2.4.2). Every change goes through these
// methods, which keep Node.open, so that "is it open" costs nothing.

func (b *Builder) push(n NodeID) {
	b.stack = append(b.stack, n)
	b.tree.Nodes[n].open = true
}

func (b *Builder) pop() NodeID {
	if len(b.stack) == 0 {
		return Nil
	}
	n := b.stack[len(b.stack)-1]
	b.popTo(len(b.stack) - 1)
	return n
}

// popTo pops the elements at index i and above.
func (b *Builder) popTo(i int) {
	for _, n := range b.stack[i:] {
		b.tree.Nodes[n].open = false
	}
	b.stack = b.stack[:i]
}

// current returns the current node: the top of the stack, or the document.
func (b *Builder) current() NodeID {
	if len(b.stack) == 0 {
		return 0
	}
	return b.stack[len(b.stack)-1]
}

// currentIs reports whether the current node is the HTML element a.
func (b *Builder) currentIs(a atom.Atom) bool {
	return len(b.stack) > 0 && b.tree.Nodes[b.current()].Atom == a
}

func (b *Builder) index(n NodeID) int { return lastIndex(b.stack, n) }

// lastIndex returns the index of the last n in s, or -1.
func lastIndex(s []NodeID, n NodeID) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == n {
			return i
		}
	}
	return -1
}

func (b *Builder) removeOpen(n NodeID) {
	if i := b.index(n); i >= 0 {
		copy(b.stack[i:], b.stack[i+1:])
		b.stack = b.stack[:len(b.stack)-1]
		b.tree.Nodes[n].open = false
	}
}

func (b *Builder) insertOpen(i int, n NodeID) {
	b.stack = append(b.stack, Nil)
	copy(b.stack[i+1:], b.stack[i:])
	b.stack[i] = n
	b.tree.Nodes[n].open = true
}

// contains reports whether an element with the tag a is open.
func (b *Builder) contains(a atom.Atom) bool {
	for _, n := range b.stack {
		if b.tree.Nodes[n].Atom == a {
			return true
		}
	}
	return false
}

// scope is a kind of element scope (12.2.4.2).
type scope uint8

const (
	defaultScope scope = iota
	listItemScope
	buttonScope
	tableScope
)

// inScope returns the index in the stack of the highest open HTML element
// with one of the tags, provided no element that ends scope s is above it,
// or -1.
func (b *Builder) inScope(s scope, tags ...atom.Atom) int {
	for i := len(b.stack) - 1; i >= 0; i-- {
		nd := &b.tree.Nodes[b.stack[i]]
		if nd.Namespace == HTML {
			for _, t := range tags {
				if nd.Atom == t {
					return i
				}
			}
			if scopeEnds(s, nd.Atom) {
				return -1
			}
		}
		if s != tableScope && b.scopeStop(nd) {
			return -1
		}
	}
	return -1
}

// scopeEnds reports whether an HTML element a ends scope s beyond the
// default scope's elements.
func scopeEnds(s scope, a atom.Atom) bool {
	switch s {
	case listItemScope:
		return a == atom.Ol || a == atom.Ul
	case buttonScope:
		return a == atom.Button
	case tableScope:
		return a == atom.Html || a == atom.Table || a == atom.Template
	}
	return false
}

// scopeStop reports whether an element ends the default scope (as
// html.Parse has it, <select> included).
func (b *Builder) scopeStop(nd *Node) bool {
	switch nd.Namespace {
	case HTML:
		switch nd.Atom {
		case atom.Applet, atom.Caption, atom.Html, atom.Table, atom.Td, atom.Th,
			atom.Marquee, atom.Object, atom.Template, atom.Select:
			return true
		}
	case MathML:
		return mathTextPoint(nd.Atom) || nd.Atom == atom.AnnotationXml
	case SVG:
		return b.svgIntegration(nd)
	}
	return false
}

// popScope pops up to and including the highest element with one of the
// tags in scope s, reporting whether there was one.
func (b *Builder) popScope(s scope, tags ...atom.Atom) bool {
	if i := b.inScope(s, tags...); i >= 0 {
		b.popTo(i)
		return true
	}
	return false
}

// clearTo pops elements until one of the tags (or <html>, <template>) is
// the current node: "clear the stack back to a table context" and its
// kin.
func (b *Builder) clearTo(tags ...atom.Atom) {
	for i := len(b.stack) - 1; i >= 0; i-- {
		a := b.tree.Nodes[b.stack[i]].Atom
		if a == atom.Html || a == atom.Template {
			b.popTo(i + 1)
			return
		}
		for _, t := range tags {
			if a == t {
				b.popTo(i + 1)
				return
			}
		}
	}
}

// impliedEnd pops the elements whose end tag is implied (dd, dt, li,
// optgroup, option, p, rb, rp, rt, rtc), except the tag except.
func (b *Builder) impliedEnd(except atom.Atom) {
	for len(b.stack) > 0 {
		a := b.tree.Nodes[b.current()].Atom
		if a == except {
			return
		}
		switch a {
		case atom.Dd, atom.Dt, atom.Li, atom.Optgroup, atom.Option, atom.P,
			atom.Rb, atom.Rp, atom.Rt, atom.Rtc:
			b.pop()
		default:
			return
		}
	}
}

// closeP closes a <p> element in button scope, if there is one.
func (b *Builder) closeP() {
	b.popScope(buttonScope, atom.P)
}
