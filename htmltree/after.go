package htmltree

import (
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// The template, after-body and frameset insertion modes (12.2.6.4.18 to
// 12.2.6.4.23).

func (b *Builder) inTemplate() bool {
	switch b.tok.typ {
	case html.TextToken, html.CommentToken, html.DoctypeToken:
		return b.inBody()
	case html.StartTagToken:
		switch b.tok.atom {
		case atom.Base, atom.Basefont, atom.Bgsound, atom.Link, atom.Meta, atom.Noframes,
			atom.Script, atom.Style, atom.Template, atom.Title:
			return b.inHead()
		case atom.Caption, atom.Colgroup, atom.Tbody, atom.Tfoot, atom.Thead:
			b.switchTemplate(inTableMode)
		case atom.Col:
			b.switchTemplate(inColumnGroupMode)
		case atom.Tr:
			b.switchTemplate(inTableBodyMode)
		case atom.Td, atom.Th:
			b.switchTemplate(inRowMode)
		default:
			b.switchTemplate(inBodyMode)
		}
		return false
	case html.EndTagToken:
		if b.tok.atom == atom.Template {
			return b.inHead()
		}
		return true
	case html.ErrorToken:
		if !b.contains(atom.Template) {
			return true
		}
		b.endTemplate()
		return false
	}
	return false
}

// switchTemplate replaces the current template insertion mode by m.
func (b *Builder) switchTemplate(m mode) {
	if k := len(b.templateModes); k > 0 {
		b.templateModes[k-1] = m
	} else {
		b.templateModes = append(b.templateModes, m)
	}
	b.mode = m
}

// afterBody is "after body" and "after after body": what comes after
// </body> or </html> goes back into the body, comments aside.
func (b *Builder) afterBody(m mode) bool {
	switch b.tok.typ {
	case html.ErrorToken:
		return true
	case html.TextToken:
		if b.allSpace(b.tok.data) {
			return b.inBody()
		}
	case html.StartTagToken:
		if b.tok.atom == atom.Html {
			return b.inBody()
		}
	case html.EndTagToken:
		if b.tok.atom == atom.Html && m == afterBodyMode {
			b.mode = afterAfterBodyMode
			return true
		}
	case html.CommentToken:
		if m == afterAfterBodyMode {
			b.addComment(0)
		} else if len(b.stack) > 0 {
			b.addComment(b.stack[0])
		}
		return true
	case html.DoctypeToken:
		if m == afterAfterBodyMode {
			return b.inBody()
		}
	}
	b.mode = inBodyMode
	return false
}

// frameset is "in frameset", "after frameset" and "after after
// frameset": only frames, and the white space of text, are kept.
func (b *Builder) frameset(m mode) bool {
	switch b.tok.typ {
	case html.CommentToken:
		if m == afterAfterFramesetMode {
			b.addComment(0)
		} else {
			b.addComment(Nil)
		}
	case html.TextToken:
		if s := b.onlySpace(b.tok.data); s.n > 0 {
			if m == afterAfterFramesetMode {
				b.tok.data = s
				return b.inBody()
			}
			b.addText(s, b.tok.raw)
		}
	case html.StartTagToken:
		return b.framesetStart(m)
	case html.EndTagToken:
		b.framesetEnd(m)
	case html.DoctypeToken:
		if m == afterAfterFramesetMode {
			return b.inBody()
		}
	}
	return true
}

func (b *Builder) framesetStart(m mode) bool {
	switch b.tok.atom {
	case atom.Html:
		return b.inBody()
	case atom.Noframes:
		return b.inHead()
	case atom.Frameset:
		if m == inFramesetMode {
			b.addElement()
		}
	case atom.Frame:
		if m == inFramesetMode {
			b.addVoid()
		}
	}
	return true
}

func (b *Builder) framesetEnd(m mode) {
	switch {
	case m == inFramesetMode && b.tok.atom == atom.Frameset:
		if !b.currentIs(atom.Html) {
			b.pop()
			if !b.currentIs(atom.Frameset) {
				b.mode = afterFramesetMode
			}
		}
	case m == afterFramesetMode && b.tok.atom == atom.Html:
		b.mode = afterAfterFramesetMode
	}
}
