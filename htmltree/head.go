package htmltree

import (
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/sluice-project/sluice/internal/htmlscan"
)

// The insertion modes before <body> (12.2.6.4.1 to 12.2.6.4.6).

func (b *Builder) initial() bool {
	switch b.tok.typ {
	case html.TextToken:
		_, rest := b.splitSpace(b.tok.data)
		if rest.n == 0 {
			return true
		}
		b.setText(rest)
	case html.CommentToken:
		b.addComment(0)
		return true
	case html.DoctypeToken:
		n := b.newNode(DoctypeNode)
		b.tree.Nodes[n].data = b.tok.data
		b.tree.Nodes[n].Raw = b.tok.raw
		b.tree.insertBefore(0, n, Nil)
		b.quirks = htmlscan.QuirksDoctype(b.tree.bytes(b.tok.data))
		b.mode = beforeHTMLMode
		return true
	}
	b.quirks = true
	b.mode = beforeHTMLMode
	return false
}

func (b *Builder) beforeHTML() bool {
	switch b.tok.typ {
	case html.DoctypeToken:
		return true
	case html.TextToken:
		_, rest := b.splitSpace(b.tok.data)
		if rest.n == 0 {
			return true
		}
		b.setText(rest)
	case html.StartTagToken:
		if b.tok.atom == atom.Html {
			b.addElement()
			b.mode = beforeHeadMode
			return true
		}
	case html.EndTagToken:
		switch b.tok.atom {
		case atom.Head, atom.Body, atom.Html, atom.Br:
		default:
			return true
		}
	case html.CommentToken:
		b.addComment(0)
		return true
	}
	b.implied(html.StartTagToken, atom.Html)
	return false
}

func (b *Builder) beforeHead() bool {
	if b.minor() {
		return true
	}
	switch b.tok.typ {
	case html.TextToken:
		_, rest := b.splitSpace(b.tok.data)
		if rest.n == 0 {
			return true
		}
		b.setText(rest)
	case html.StartTagToken:
		switch b.tok.atom {
		case atom.Head:
			b.head = b.addElement()
			b.mode = inHeadMode
			return true
		case atom.Html:
			return b.inBody()
		}
	case html.EndTagToken:
		switch b.tok.atom {
		case atom.Head, atom.Body, atom.Html, atom.Br:
		default:
			return true
		}
	}
	b.implied(html.StartTagToken, atom.Head)
	return false
}

// leadingSpace inserts the white space that opens a text token and keeps
// the rest as the token, reporting whether nothing is left.
func (b *Builder) leadingSpace() bool {
	lead, rest := b.splitSpace(b.tok.data)
	if lead.n == 0 {
		return false
	}
	raw := b.tok.raw
	if lead.off&sideBit == 0 {
		raw = Span{int32(lead.off), int32(lead.off + lead.n)}
	}
	b.addText(lead, raw)
	if rest.n == 0 {
		return true
	}
	b.setText(rest)
	return false
}

func (b *Builder) inHead() bool {
	if b.minorOrSpace() {
		return true
	}
	switch b.tok.typ {
	case html.StartTagToken:
		if done, ok := b.inHeadStart(); ok {
			return done
		}
	case html.EndTagToken:
		switch b.tok.atom {
		case atom.Head:
			b.pop()
			b.mode = afterHeadMode
			return true
		case atom.Body, atom.Html, atom.Br:
		case atom.Template:
			b.endTemplate()
			return true
		default:
			return true
		}
	}
	b.implied(html.EndTagToken, atom.Head)
	return false
}

// inHeadStart handles a start tag in head; ok is false for the tags that
// close the head.
func (b *Builder) inHeadStart() (done, ok bool) {
	switch b.tok.atom {
	case atom.Html:
		return b.inBody(), true
	case atom.Base, atom.Basefont, atom.Bgsound, atom.Link, atom.Meta:
		b.addVoid()
		return true, true
	case atom.Noscript:
		b.addElement()
		b.mode = inHeadNoscriptMode
		b.notRawText()
		return true, true
	case atom.Script, atom.Title, atom.Noframes, atom.Style:
		b.rawText()
		return true, true
	case atom.Head:
		return true, true
	case atom.Template:
		b.startTemplate()
		return true, true
	}
	return false, false
}

func (b *Builder) inHeadNoscript() bool {
	switch b.tok.typ {
	case html.DoctypeToken:
		return true
	case html.StartTagToken:
		switch b.tok.atom {
		case atom.Html:
			return b.inBody()
		case atom.Basefont, atom.Bgsound, atom.Link, atom.Meta, atom.Noframes, atom.Style:
			return b.inHead()
		case atom.Head:
			return true
		case atom.Noscript:
			b.notRawText()
			return true
		}
	case html.EndTagToken:
		switch b.tok.atom {
		case atom.Noscript, atom.Br:
		default:
			return true
		}
	case html.TextToken:
		if b.allSpace(b.tok.data) {
			return b.inHead()
		}
	case html.CommentToken:
		return b.inHead()
	}
	b.pop()
	b.mode = inHeadMode
	return b.tok.typ == html.EndTagToken && b.tok.atom == atom.Noscript
}

func (b *Builder) afterHead() bool {
	if b.minorOrSpace() {
		return true
	}
	switch b.tok.typ {
	case html.StartTagToken:
		switch b.tok.atom {
		case atom.Html:
			return b.inBody()
		case atom.Body:
			b.addElement()
			b.framesetOK = false
			b.mode = inBodyMode
			return true
		case atom.Frameset:
			b.addElement()
			b.mode = inFramesetMode
			return true
		case atom.Base, atom.Basefont, atom.Bgsound, atom.Link, atom.Meta, atom.Noframes,
			atom.Script, atom.Style, atom.Template, atom.Title:
			return b.headAgain()
		case atom.Head:
			return true
		}
	case html.EndTagToken:
		switch b.tok.atom {
		case atom.Body, atom.Html, atom.Br:
		case atom.Template:
			return b.inHead()
		default:
			return true
		}
	}
	b.implied(html.StartTagToken, atom.Body)
	b.framesetOK = true
	return b.tok.typ == html.ErrorToken
}

// headAgain processes a head element met after </head>: inside the head,
// reopened for it.
func (b *Builder) headAgain() bool {
	if b.head == Nil {
		return b.inHead()
	}
	b.push(b.head)
	done := b.inHead()
	b.removeOpen(b.head)
	return done
}

// startTemplate opens a <template>. Its content is parsed into the element
// itself (there is no separate template contents fragment).
func (b *Builder) startTemplate() {
	for _, n := range b.stack {
		if b.tree.Nodes[n].Namespace != HTML {
			b.mode = ignoreRestMode
			return
		}
	}
	b.addElement()
	b.active = append(b.active, marker)
	b.framesetOK = false
	b.mode = inTemplateMode
	b.templateModes = append(b.templateModes, inTemplateMode)
}

// endTemplate closes the innermost <template>, if one is open.
func (b *Builder) endTemplate() {
	if !b.contains(atom.Template) {
		return
	}
	b.impliedEnd(0)
	for i := len(b.stack) - 1; i >= 0; i-- {
		if nd := &b.tree.Nodes[b.stack[i]]; nd.Namespace == HTML && nd.Atom == atom.Template {
			b.popTo(i)
			break
		}
	}
	b.clearActive()
	if k := len(b.templateModes); k > 0 {
		b.templateModes = b.templateModes[:k-1]
	}
	b.resetMode()
}
