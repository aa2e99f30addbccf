package htmltree

import (
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// mode is an insertion mode (12.2.4.1).
type mode uint8

const (
	initialMode mode = iota
	beforeHTMLMode
	beforeHeadMode
	inHeadMode
	inHeadNoscriptMode
	afterHeadMode
	inBodyMode
	textMode
	inTableMode
	inCaptionMode
	inColumnGroupMode
	inTableBodyMode
	inRowMode
	inCellMode
	inTemplateMode
	afterBodyMode
	inFramesetMode
	afterFramesetMode
	afterAfterBodyMode
	afterAfterFramesetMode
	ignoreRestMode
)

// step hands the current token to insertion mode m, reporting whether it
// was consumed (false: process it again, in the mode now current).
func (b *Builder) step(m mode) bool {
	switch m {
	case initialMode:
		return b.initial()
	case beforeHTMLMode:
		return b.beforeHTML()
	case beforeHeadMode:
		return b.beforeHead()
	case inHeadMode:
		return b.inHead()
	case inHeadNoscriptMode:
		return b.inHeadNoscript()
	case afterHeadMode:
		return b.afterHead()
	case inBodyMode:
		return b.inBody()
	case textMode:
		return b.text()
	case inTableMode:
		return b.inTable()
	case inCaptionMode:
		return b.inCaption()
	case inColumnGroupMode:
		return b.inColumnGroup()
	case inTableBodyMode:
		return b.inTableBody()
	case inRowMode:
		return b.inRow()
	case inCellMode:
		return b.inCell()
	case inTemplateMode:
		return b.inTemplate()
	case afterBodyMode, afterAfterBodyMode:
		return b.afterBody(m)
	case inFramesetMode, afterFramesetMode, afterAfterFramesetMode:
		return b.frameset(m)
	}
	return true
}

// setText sets the current token's text, trimmed to s, moving the start
// of its raw span when s is a span of the input.
func (b *Builder) setText(s str) {
	if s.off&sideBit == 0 && s.n > 0 {
		b.tok.raw.Start = int32(s.off)
	}
	b.tok.data = s
}

// rawText opens an element whose content the tokenizer reads as text
// (script, style, title, textarea, xmp, iframe, noembed, noframes).
func (b *Builder) rawText() {
	b.addElement()
	b.origMode = b.mode
	b.mode = textMode
}

// text is the "text" insertion mode, inside a raw-text element.
func (b *Builder) text() bool {
	switch b.tok.typ {
	case html.ErrorToken:
		b.pop()
	case html.TextToken:
		d := b.tok.data
		if cur := b.current(); b.tree.Nodes[cur].Atom == atom.Textarea && b.tree.Nodes[cur].FirstChild == Nil {
			d = b.dropNewline(d)
		}
		if d.n > 0 {
			b.addText(d, b.tok.raw)
		}
		return true
	case html.EndTagToken:
		b.pop()
	}
	b.mode = b.origMode
	return b.tok.typ == html.EndTagToken
}

// dropNewline drops a leading "\r", then "\n", from s: the newline that
// follows <pre>, <listing> and <textarea>.
func (b *Builder) dropNewline(s str) str {
	bs := b.tree.bytes(s)
	if len(bs) > 0 && bs[0] == '\r' {
		s.off, s.n, bs = s.off+1, s.n-1, bs[1:]
	}
	if len(bs) > 0 && bs[0] == '\n' {
		s.off, s.n = s.off+1, s.n-1
	}
	return s
}

// resetMode resets the insertion mode from the stack of open elements, as
// html.Parse does (cells and head as their own modes).
func (b *Builder) resetMode() {
	for i := len(b.stack) - 1; i >= 0; i-- {
		nd := &b.tree.Nodes[b.stack[i]]
		switch nd.Atom {
		case atom.Td, atom.Th:
			b.mode = inCellMode
		case atom.Tr:
			b.mode = inRowMode
		case atom.Tbody, atom.Thead, atom.Tfoot:
			b.mode = inTableBodyMode
		case atom.Caption:
			b.mode = inCaptionMode
		case atom.Colgroup:
			b.mode = inColumnGroupMode
		case atom.Table:
			b.mode = inTableMode
		case atom.Template:
			if nd.Namespace != HTML {
				continue
			}
			b.mode = inTemplateMode
			if k := len(b.templateModes); k > 0 {
				b.mode = b.templateModes[k-1]
			}
		case atom.Head:
			b.mode = inHeadMode
		case atom.Body:
			b.mode = inBodyMode
		case atom.Frameset:
			b.mode = inFramesetMode
		case atom.Html:
			b.mode = afterHeadMode
			if b.head == Nil {
				b.mode = beforeHeadMode
			}
		default:
			if i == 0 {
				b.mode = inBodyMode
				return
			}
			continue
		}
		return
	}
}

// minor consumes a comment (inserted at the appropriate place) or a
// doctype (dropped), reporting whether the token was one: what most
// insertion modes do with them.
func (b *Builder) minor() bool {
	switch b.tok.typ {
	case html.CommentToken:
		b.addComment(Nil)
		return true
	case html.DoctypeToken:
		return true
	}
	return false
}

// minorOrSpace is minor, and for a text token inserts its leading white
// space (see leadingSpace), reporting whether nothing is left of the
// token: what the modes around the head and "in column group" do first.
func (b *Builder) minorOrSpace() bool {
	return b.minor() || (b.tok.typ == html.TextToken && b.leadingSpace())
}
