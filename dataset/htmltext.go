package dataset

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/sluice-project/sluice/page"
)

// parseHTML parses gold HTML (an L3S annotated page, a Readability
// fragment) with scripting off, so that <noscript> content is markup and
// its annotations are seen.
func parseHTML(s string) (*html.Node, error) {
	return html.ParseWithOptions(strings.NewReader(s), html.ParseOptionEnableScripting(false))
}

// blockElements are the elements that start and end a text block, as
// rendered by a browser (plus table cells, each its own block, as the
// CleanEval annotators segmented them).
var blockElements = map[atom.Atom]bool{
	atom.Address: true, atom.Article: true, atom.Aside: true, atom.Blockquote: true,
	atom.Body: true, atom.Br: true, atom.Caption: true, atom.Center: true, atom.Dd: true,
	atom.Details: true, atom.Dialog: true, atom.Dir: true, atom.Div: true, atom.Dl: true,
	atom.Dt: true, atom.Fieldset: true, atom.Figcaption: true, atom.Figure: true,
	atom.Footer: true, atom.Form: true, atom.Frameset: true, atom.H1: true, atom.H2: true,
	atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true, atom.Header: true,
	atom.Hgroup: true, atom.Hr: true, atom.Html: true, atom.Iframe: true, atom.Legend: true,
	atom.Li: true, atom.Listing: true, atom.Main: true, atom.Menu: true, atom.Nav: true,
	atom.Ol: true, atom.Option: true, atom.P: true, atom.Plaintext: true, atom.Pre: true,
	atom.Section: true, atom.Select: true, atom.Summary: true, atom.Table: true,
	atom.Tbody: true, atom.Td: true, atom.Textarea: true, atom.Tfoot: true, atom.Th: true,
	atom.Thead: true, atom.Tr: true, atom.Ul: true, atom.Xmp: true,
}

// skippedElements hold no visible text.
var skippedElements = map[atom.Atom]bool{
	atom.Head: true, atom.Script: true, atom.Style: true, atom.Template: true,
	atom.Title: true, atom.Object: true, atom.Embed: true, atom.Applet: true,
}

// textWalker visits the text nodes of a document in order and numbers the
// text blocks they fall in: a block ends at every block-level element's
// start and end, at <br>, and at every line break inside <pre>. Blocks
// that receive no text other than white space are not numbered, so block
// numbers run 0, 1, 2... over the blocks that have text.
type textWalker struct {
	// visit is called for every text node piece, with the block it is in
	// and the label its innermost heading or list item gives
	// (page.Paragraph otherwise). White-space-only pieces are passed too
	// (they separate words) with the block of the text before them.
	visit func(n *html.Node, text string, block int, label page.Label)

	block   int  // the current block's number
	pending bool // a block boundary was crossed since the last text
	started bool // some text has been seen
	pre     int  // depth of <pre> elements
}

func (w *textWalker) walk(doc *html.Node) {
	w.block = 0
	w.pending, w.started, w.pre = false, false, 0
	w.node(doc, page.Paragraph)
}

func (w *textWalker) node(n *html.Node, label page.Label) {
	switch n.Type {
	case html.TextNode:
		w.text(n, label)
		return
	case html.ElementNode:
		if skippedElements[n.DataAtom] {
			return
		}
		switch n.DataAtom {
		case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
			label = page.Heading
		case atom.Li:
			label = page.ListItem
		}
	case html.DocumentNode:
	default:
		return
	}
	block := n.Type == html.ElementNode && blockElements[n.DataAtom]
	isPre := n.DataAtom == atom.Pre || n.DataAtom == atom.Listing || n.DataAtom == atom.Xmp
	if block {
		w.pending = true
	}
	if isPre {
		w.pre++
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.node(c, label)
	}
	if isPre {
		w.pre--
	}
	if block {
		w.pending = true
	}
}

func (w *textWalker) text(n *html.Node, label page.Label) {
	s := n.Data
	if w.pre == 0 {
		w.emit(n, s, label)
		return
	}
	for {
		line, rest, more := strings.Cut(s, "\n")
		w.emit(n, line, label)
		if !more {
			return
		}
		w.pending = true
		s = rest
	}
}

func (w *textWalker) emit(n *html.Node, s string, label page.Label) {
	if s == "" {
		return
	}
	if strings.TrimFunc(s, isSpace) == "" {
		w.visit(n, s, w.block, label)
		return
	}
	if w.pending && w.started {
		w.block++
	}
	w.pending, w.started = false, true
	w.visit(n, s, w.block, label)
}

// htmlSegments returns the text blocks of an HTML document or fragment
// as segments: a block inside a heading is a Heading, one inside a list
// item a ListItem, any other a Paragraph.
func htmlSegments(doc *html.Node) []Segment {
	var segs []Segment
	var cur strings.Builder
	curBlock, curLabel := -1, page.Paragraph
	flush := func() {
		if t := collapse(cur.String()); t != "" {
			segs = append(segs, Segment{Label: curLabel, Text: t})
		}
		cur.Reset()
	}
	w := textWalker{visit: func(_ *html.Node, text string, block int, label page.Label) {
		if strings.TrimFunc(text, isSpace) == "" {
			// White space only: it separates words within the current
			// block, and never opens one (it carries the label of
			// whatever encloses it).
			if cur.Len() > 0 {
				cur.WriteString(text)
			}
			return
		}
		if block != curBlock {
			flush()
			curBlock, curLabel = block, label
		}
		cur.WriteString(text)
	}}
	w.walk(doc)
	flush()
	return segs
}

// hasClass reports whether the element n has the class c.
func hasClass(n *html.Node, c string) bool {
	for _, a := range n.Attr {
		if a.Key == "class" && a.Namespace == "" {
			for _, f := range strings.Fields(a.Val) {
				if f == c {
					return true
				}
			}
		}
	}
	return false
}
