package htmltree

import (
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// The table insertion modes (12.2.6.4.9 to 12.2.6.4.15). Text and
// elements misplaced in a table go before it ("foster parenting"), as
// html.Parse does it: a token that no table mode takes goes to "in body"
// with fostering on.

func (b *Builder) inTable() bool {
	if b.minor() {
		return true
	}
	switch b.tok.typ {
	case html.TextToken:
		b.tok.data = b.dropByte(b.tok.data, 0, "")
		switch b.tree.Nodes[b.current()].Atom {
		case atom.Table, atom.Tbody, atom.Tfoot, atom.Thead, atom.Tr:
			if b.allSpace(b.tok.data) {
				b.addText(b.tok.data, b.tok.raw)
				return true
			}
		}
	case html.StartTagToken:
		if done, ok := b.tableStart(); ok {
			return done
		}
	case html.EndTagToken:
		switch b.tok.atom {
		case atom.Table:
			if b.popScope(tableScope, atom.Table) {
				b.resetMode()
			}
			return true
		case atom.Body, atom.Caption, atom.Col, atom.Colgroup, atom.Html, atom.Tbody,
			atom.Td, atom.Tfoot, atom.Th, atom.Thead, atom.Tr:
			return true
		case atom.Template:
			return b.inHead()
		}
	case html.ErrorToken:
		return b.inBody()
	}
	b.fostering = true
	done := b.inBody()
	b.fostering = false
	return done
}

// tableStart handles a start tag in table; ok is false for the tags that
// are foster parented.
func (b *Builder) tableStart() (done, ok bool) {
	switch b.tok.atom {
	case atom.Caption:
		b.clearTo(atom.Table)
		b.active = append(b.active, marker)
		b.addElement()
		b.mode = inCaptionMode
	case atom.Colgroup:
		b.clearTo(atom.Table)
		b.addElement()
		b.mode = inColumnGroupMode
	case atom.Col:
		b.implied(html.StartTagToken, atom.Colgroup)
		return false, true
	case atom.Tbody, atom.Tfoot, atom.Thead:
		b.clearTo(atom.Table)
		b.addElement()
		b.mode = inTableBodyMode
	case atom.Td, atom.Th, atom.Tr:
		b.implied(html.StartTagToken, atom.Tbody)
		return false, true
	case atom.Table:
		if b.popScope(tableScope, atom.Table) {
			b.resetMode()
			return false, true
		}
	case atom.Style, atom.Script, atom.Template:
		return b.inHead(), true
	case atom.Input:
		if v, ok := b.tokAttr(atom.Type); !ok || !equalFold(v, "hidden") {
			return false, false
		}
		b.addVoid()
	case atom.Form:
		if b.contains(atom.Template) || b.form != Nil {
			return true, true
		}
		b.form = b.addElement()
		b.pop()
	default:
		return false, false
	}
	return true, true
}

func (b *Builder) inCaption() bool {
	switch b.tok.typ {
	case html.StartTagToken:
		switch b.tok.atom {
		case atom.Caption, atom.Col, atom.Colgroup, atom.Tbody, atom.Td, atom.Tfoot, atom.Thead, atom.Tr:
			return b.closeCaption(false)
		}
	case html.EndTagToken:
		switch b.tok.atom {
		case atom.Caption:
			b.closeCaption(true)
			return true
		case atom.Table:
			return b.closeCaption(false)
		case atom.Body, atom.Col, atom.Colgroup, atom.Html, atom.Tbody, atom.Td, atom.Tfoot,
			atom.Th, atom.Thead, atom.Tr:
			return true
		}
	}
	return b.inBody()
}

// closeCaption closes an open caption; the token is consumed if it was
// </caption> (done) or if no caption was open.
func (b *Builder) closeCaption(done bool) bool {
	if !b.popScope(tableScope, atom.Caption) {
		return true
	}
	b.clearActive()
	b.mode = inTableMode
	return done
}

func (b *Builder) inColumnGroup() bool {
	if b.minorOrSpace() {
		return true
	}
	switch b.tok.typ {
	case html.StartTagToken:
		switch b.tok.atom {
		case atom.Html:
			return b.inBody()
		case atom.Col:
			b.addVoid()
			return true
		case atom.Template:
			return b.inHead()
		}
	case html.EndTagToken:
		switch b.tok.atom {
		case atom.Colgroup:
			if b.currentIs(atom.Colgroup) {
				b.pop()
				b.mode = inTableMode
			}
			return true
		case atom.Col:
			return true
		case atom.Template:
			return b.inHead()
		}
	case html.ErrorToken:
		return b.inBody()
	}
	if !b.currentIs(atom.Colgroup) {
		return true
	}
	b.pop()
	b.mode = inTableMode
	return false
}

func (b *Builder) inTableBody() bool {
	switch b.tok.typ {
	case html.StartTagToken:
		switch b.tok.atom {
		case atom.Tr:
			b.clearTo(atom.Tbody, atom.Tfoot, atom.Thead)
			b.addElement()
			b.mode = inRowMode
			return true
		case atom.Td, atom.Th:
			b.implied(html.StartTagToken, atom.Tr)
			return false
		case atom.Caption, atom.Col, atom.Colgroup, atom.Tbody, atom.Tfoot, atom.Thead:
			return b.closeTableBody()
		}
	case html.EndTagToken:
		switch b.tok.atom {
		case atom.Tbody, atom.Tfoot, atom.Thead:
			if b.inScope(tableScope, b.tok.atom) >= 0 {
				b.clearTo(atom.Tbody, atom.Tfoot, atom.Thead)
				b.pop()
				b.mode = inTableMode
			}
			return true
		case atom.Table:
			return b.closeTableBody()
		case atom.Body, atom.Caption, atom.Col, atom.Colgroup, atom.Html, atom.Td, atom.Th, atom.Tr:
			return true
		}
	case html.CommentToken:
		b.addComment(Nil)
		return true
	}
	return b.inTable()
}

// closeTableBody closes the open tbody, thead or tfoot so that the token
// is processed again in table; without one it is dropped.
func (b *Builder) closeTableBody() bool {
	if b.popScope(tableScope, atom.Tbody, atom.Thead, atom.Tfoot) {
		b.mode = inTableMode
		return false
	}
	return true
}

func (b *Builder) inRow() bool {
	switch b.tok.typ {
	case html.StartTagToken:
		switch b.tok.atom {
		case atom.Td, atom.Th:
			b.clearTo(atom.Tr)
			b.addElement()
			b.active = append(b.active, marker)
			b.mode = inCellMode
			return true
		case atom.Caption, atom.Col, atom.Colgroup, atom.Tbody, atom.Tfoot, atom.Thead, atom.Tr:
			return b.closeRow(false)
		}
	case html.EndTagToken:
		switch b.tok.atom {
		case atom.Tr:
			return b.closeRow(true)
		case atom.Table:
			return b.closeRow(false)
		case atom.Tbody, atom.Tfoot, atom.Thead:
			if b.inScope(tableScope, b.tok.atom) < 0 {
				return true
			}
			return b.closeRow(false)
		case atom.Body, atom.Caption, atom.Col, atom.Colgroup, atom.Html, atom.Td, atom.Th:
			return true
		}
	}
	return b.inTable()
}

// closeRow closes the open row, if any; the token is consumed if it was
// </tr> (done) or if no row was open.
func (b *Builder) closeRow(done bool) bool {
	if b.inScope(tableScope, atom.Tr) < 0 {
		return true
	}
	b.clearTo(atom.Tr)
	b.pop()
	b.mode = inTableBodyMode
	return done
}

func (b *Builder) inCell() bool {
	switch b.tok.typ {
	case html.StartTagToken:
		switch b.tok.atom {
		case atom.Caption, atom.Col, atom.Colgroup, atom.Tbody, atom.Td, atom.Tfoot, atom.Th, atom.Thead, atom.Tr:
			if b.popScope(tableScope, atom.Td, atom.Th) {
				b.clearActive()
				b.mode = inRowMode
				return false
			}
			return true
		}
	case html.EndTagToken:
		switch b.tok.atom {
		case atom.Td, atom.Th:
			if b.popScope(tableScope, b.tok.atom) {
				b.clearActive()
				b.mode = inRowMode
			}
			return true
		case atom.Body, atom.Caption, atom.Col, atom.Colgroup, atom.Html:
			return true
		case atom.Table, atom.Tbody, atom.Tfoot, atom.Thead, atom.Tr:
			if b.inScope(tableScope, b.tok.atom) < 0 {
				return true
			}
			if b.popScope(tableScope, atom.Td, atom.Th) {
				b.clearActive()
			}
			b.mode = inRowMode
			return false
		}
	}
	return b.inBody()
}
