package features

import (
	"golang.org/x/net/html/atom"

	"github.com/sluice-project/sluice/page"
)

// tagSet is a set of indices into containerTable, plus Victor's classes.
type tagSet [2]uint64

func (t *tagSet) add(i int) { t[i/64] |= 1 << (i % 64) }

// has reports whether i is in t.
func (t tagSet) has(i int) bool { return t[i/64]&(1<<(i%64)) != 0 }

// containerTable lists the elements that give a container attribute, then
// Victor's classes of similar elements.
var containerTable = []atom.Atom{
	atom.P, atom.A, atom.U, atom.Img, atom.Li, atom.Ul, atom.Ol, atom.Dl, atom.Dt, atom.Dd,
	atom.Td, atom.Th, atom.Tr, atom.Table, atom.Thead, atom.Tbody, atom.Tfoot, atom.Caption,
	atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6,
	atom.Div, atom.Span, atom.B, atom.Strong, atom.I, atom.Em, atom.Small, atom.Big, atom.Font,
	atom.Sup, atom.Sub, atom.Code, atom.Tt, atom.Kbd, atom.Var, atom.Samp, atom.Cite, atom.Q,
	atom.Abbr, atom.Mark, atom.Del, atom.Ins, atom.S, atom.Strike, atom.Time, atom.Label,
	atom.Form, atom.Fieldset, atom.Legend, atom.Button, atom.Select, atom.Option, atom.Textarea,
	atom.Pre, atom.Blockquote, atom.Address, atom.Center,
	atom.Header, atom.Footer, atom.Nav, atom.Aside, atom.Article, atom.Main, atom.Section,
	atom.Figure, atom.Figcaption, atom.Details, atom.Summary, atom.Menu,
}

const (
	classHeader = iota + 96 // bits after the table (which has fewer than 96 entries)
	classBold
	classItalic
	classList
	classForm
	numContainerBits
)

var (
	containerIndex = func() map[atom.Atom]int {
		m := make(map[atom.Atom]int, len(containerTable))
		for i, a := range containerTable {
			m[a] = i
		}
		return m
	}()
	containerNames = func() []string {
		names := make([]string, 128)
		for i, a := range containerTable {
			names[i] = "container=" + a.String()
		}
		names[classHeader] = "container=class-header"
		names[classBold] = "container=class-bold"
		names[classItalic] = "container=class-italic"
		names[classList] = "container=class-list"
		names[classForm] = "container=class-form"
		return names
	}()
	innerNames = func() []string {
		names := make([]string, len(containerTable))
		for i, a := range containerTable {
			names[i] = "inner=" + a.String()
		}
		return names
	}()
)

// tagBits returns the container bits one element contributes.
func tagBits(a atom.Atom) tagSet {
	var t tagSet
	i, ok := containerIndex[a]
	if !ok {
		return t
	}
	t.add(i)
	switch a {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		t.add(classHeader)
	case atom.B, atom.Strong:
		t.add(classBold)
	case atom.I, atom.Em, atom.Cite, atom.Var:
		t.add(classItalic)
	case atom.Ul, atom.Ol, atom.Li, atom.Dl, atom.Dt, atom.Dd, atom.Menu:
		t.add(classList)
	case atom.Form, atom.Fieldset, atom.Legend, atom.Label, atom.Button, atom.Select, atom.Option, atom.Textarea:
		t.add(classForm)
	}
	return t
}

// containerTags returns the container set of node n: its own bits and its
// ancestors', memoised per node.
func (s *scratch) containerTags(p *page.Page, n int32) tagSet {
	if n < 0 || int(n) >= len(s.nodes) {
		return tagSet{}
	}
	s.path = s.path[:0]
	var base tagSet
	for m := n; m >= 0 && int(m) < len(s.nodes); {
		if s.nodes[m].done&doneTags != 0 {
			base = s.nodes[m].tags
			break
		}
		s.path = append(s.path, m)
		if next := p.Nodes[m].Parent; next < m {
			m = next
		} else {
			break // not a tree in pre-order: stop rather than loop
		}
	}
	for k := len(s.path) - 1; k >= 0; k-- {
		m := s.path[k]
		t := tagBits(p.Nodes[m].Atom)
		base[0] |= t[0]
		base[1] |= t[1]
		s.nodes[m].tags = base
		s.nodes[m].done |= doneTags
	}
	return s.nodes[n].tags
}

func innerName(p *page.Page, n int32) string {
	if n < 0 || int(n) >= len(p.Nodes) {
		return "inner=other"
	}
	a := p.Nodes[n].Atom
	if i, ok := containerIndex[a]; ok {
		return innerNames[i]
	}
	if a == atom.Body || a == atom.Html || a == atom.Frameset || n == p.Body {
		return "inner=body"
	}
	return "inner=other"
}
