// Package segment turns a parsed document into a page.Page: the text blocks
// in reading order, as Victor's text blocks (seed, chapter 3.3), with their
// container, the tags crossed before them, group ids, link text and byte
// spans. It is the only stage that walks the DOM for text.
package segment

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/sluice-project/sluice/dom"
	"github.com/sluice-project/sluice/ingest"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/textunit"
)

// Options configures segmentation.
type Options struct {
	// ImageAlt keeps the alt text of images as inline text.
	ImageAlt bool
	// AbbrTitles appends the title of <abbr> and <acronym> elements in
	// parentheses after their text.
	AbbrTitles bool
	// FreeTree unlinks each part of the document's tree from it once
	// segmented, so that the garbage collector frees the tree (some 20
	// bytes per input byte) while the page is built instead of after;
	// doc.Root is left without children. For callers that need the
	// document no more.
	FreeTree bool
	// Links records the links of the blocks in Page.Links: the text and
	// href of each <a href> element (page.Link), within the bounds of
	// page.MaxHref and page.MaxBlockLinks. Off, Page.Links is nil and
	// recording costs nothing.
	Links bool
	// Images records the images of the blocks in Page.Images: the src
	// and alt of each <img src> in a block that has text (page.Image),
	// within the same bounds. Off, Page.Images is nil.
	Images bool
	// Description makes the page's description (Meta.Description) its
	// one block when its body has no text at all (a page cut short, or
	// one that scripts fill in). Off, such a page has no blocks: the
	// description is a summary written for search engines, not the
	// page's content, and the pages of WCXB whose HTML holds no text
	// have no main content in their gold.
	Description bool
}

// DefaultOptions returns the default segmentation options: image alt text
// kept, abbreviation titles not added.
func DefaultOptions() Options { return Options{ImageAlt: true} }

// Segment builds the page of a parsed document.
func Segment(doc *ingest.Document, opts Options) *page.Page {
	p := &page.Page{Meta: doc.Meta}
	b := builder{doc: doc, orig: doc.Cursor(), p: p, opts: opts, container: -1, start: -1, refs: refs{open: -1}}
	if doc.Tree != nil {
		// The tree's memory goes back to its Builder: copy what the
		// page keeps.
		p.Meta = doc.Meta.Clone()
		b.keep.copy = true
	}
	root := dom.ContentRoot(doc.Node())
	nodes, blocks := sizes(root, opts)
	b.blocks, b.nodes = newChunked[page.Block](blocks), newChunked[page.Node](nodes)
	b.element(root, -1, 0)
	b.flush()
	if opts.Description && b.blocks.len() == 0 && p.Meta.Description != "" && b.nodes.len() > 0 {
		b.add(p.Meta.Description, 0, page.Span{})
		b.flush()
		b.nodes.at(0).End = b.blocks.len()
	}
	p.Blocks, p.Nodes = b.blocks.slice(), b.nodes.slice()
	return p
}

// builder holds the state of one segmentation run.
type builder struct {
	doc    *ingest.Document
	orig   ingest.Cursor // maps the blocks' spans to the source, in order
	p      *page.Page
	opts   Options
	blocks chunked[page.Block] // the page's, until it is built
	nodes  chunked[page.Node]

	text int // index of the next text node in doc.TextSpans

	// The block being built.
	buf, scratch  []byte
	has           bool  // buf holds non-space text
	container     int32 // deepest element holding all of buf's text
	start, end    int   // span of buf's text in doc.Text; start -1 if unknown
	inner, innerA int32
	linkChars     int32
	split         page.Split

	inLink, inPre int
	structs       int32     // structural elements opened so far
	alts          []altSpan // the alt texts in buf (see alt.go)

	tables []*tableState // the tables open around the current element
	refs   refs          // the open block's links and images, when recorded
	keep   keeper        // copies of the tree's strings the page keeps
	texts  keeper        // the blocks' texts
}

func (b *builder) element(n dom.Node, parent int32, depth int32) {
	a := n.Atom()
	nd := newNode(n, parent, depth, b.blocks.len())
	if b.keep.copy {
		if nd.Atom == 0 {
			nd.Tag = b.keep.keep(nd.Tag)
		}
		nd.ID, nd.Class = b.keep.keep(nd.ID), b.keep.keep(nd.Class)
	}
	idx := b.nodes.add(nd)
	b.tableStart(n, idx)
	s0 := b.structs
	if structural(a) {
		b.structs++
	}
	isInline := inline(a)
	link := false
	switch a {
	case atom.Br:
		b.flush()
		b.split.Tags++
		b.split.BR++
	case atom.Img:
		b.inlineTag(false)
		if b.opts.ImageAlt {
			if alt := attr(n, "alt"); strings.TrimSpace(alt) != "" && !fileName(alt) {
				b.alt(alt, idx)
			}
		}
		if b.opts.Images {
			b.image(n)
		}
	default:
		link = isInline && a == atom.A && attr(n, "href") != ""
		b.tagBoundary(a, depth, isInline)
	}
	if link {
		b.inLink++
		if b.opts.Links && b.inLink == 1 {
			b.startLink(n)
		}
	}
	pre := a == atom.Pre || a == atom.Listing || a == atom.Plaintext || a == atom.Xmp
	if pre {
		b.inPre++
	}
	b.children(n, idx, depth)
	if b.opts.AbbrTitles && (a == atom.Abbr || a == atom.Acronym) {
		if t := attr(n, "title"); strings.TrimSpace(t) != "" && b.has {
			b.add(" ("+t+")", idx, page.Span{})
		}
	}
	if link {
		b.inLink--
		if b.inLink == 0 && b.opts.Links {
			b.endLink()
		}
	}
	if !ingest.VoidElement(a) {
		b.tagBoundary(a, depth, isInline)
	}
	b.closeNode(idx, s0)
	b.tableEnd(a, idx)
	if pre {
		b.inPre--
	}
}

// newNode returns the page node of n, whose first block is first.
func newNode(n dom.Node, parent, depth, first int32) page.Node {
	nd := page.Node{Tag: n.Data(), Atom: n.Atom(), Parent: parent, Depth: depth, First: first}
	if n.Type() != html.ElementNode {
		nd.Tag = "#document"
		return nd
	}
	for i := range n.NumAttr() {
		switch key, val, _ := n.AttrAt(i); key {
		case "id":
			nd.ID = val
		case "class":
			nd.Class = val
		}
	}
	return nd
}

// tagBoundary records a start or end tag of element a between the text:
// an inline tag, or a block tag below the root.
func (b *builder) tagBoundary(a atom.Atom, depth int32, isInline bool) {
	switch {
	case isInline:
		b.inlineTag(a == atom.A)
	case depth > 0:
		b.blockTag(a)
	}
}

// children segments the text and elements inside n, the page node idx.
func (b *builder) children(n dom.Node, idx, depth int32) {
	for c, next := n.FirstChild(), (dom.Node{}); !c.Nil(); c = next {
		next = c.NextSibling()
		if b.opts.FreeTree {
			unlinkFirst(n.HTMLNode())
		}
		switch c.Type() {
		case html.TextNode:
			var sp page.Span
			if b.text < len(b.doc.TextSpans) {
				sp = b.doc.TextSpans[b.text]
			}
			b.text++
			if b.inPre > 0 {
				b.pre(c.Data(), idx, sp)
			} else {
				b.add(c.Data(), idx, sp)
			}
		case html.ElementNode:
			b.element(c, idx, depth+1)
		}
	}
}

// unlinkFirst unlinks the first child of n, an html.Node (Options.FreeTree);
// an arena node (n nil) is freed with its tree.
func unlinkFirst(n *html.Node) {
	if n == nil {
		return
	}
	c := n.FirstChild
	next := c.NextSibling
	n.FirstChild = next
	if next == nil {
		n.LastChild = nil
	} else {
		next.PrevSibling = nil
	}
	c.Parent, c.NextSibling = nil, nil
}

// closeNode completes page node idx when its element ends: the blocks it
// spans, its elements and the structural elements among them (s0 opened
// before it).
func (b *builder) closeNode(idx, s0 int32) {
	nn := b.nodes.at(idx)
	nn.End = b.blocks.len()
	if b.has && nn.First <= nn.End {
		nn.End++ // the open block holds text of this element
	}
	nn.Elements = b.nodes.len() - idx
	nn.Structural = b.structs - s0
}

func (b *builder) inlineTag(isA bool) {
	if b.has {
		b.inner++
		if isA {
			b.innerA++
		}
		return
	}
	b.split.Tags++
	b.split.Inline++
	if isA {
		b.split.Links++
	}
}

func (b *builder) blockTag(a atom.Atom) {
	b.flush()
	b.split.Tags++
	b.split.Block++
	switch a {
	case atom.P:
		b.split.P++
	case atom.Hr:
		b.split.HR++
	}
}

// add appends text s of element el to the open block.
func (b *builder) add(s string, el int32, sp page.Span) {
	if !hasNonSpace(s) {
		if b.has && s != "" {
			b.buf = append(b.buf, ' ')
		}
		return
	}
	if !b.has {
		b.has = true
		b.container = el
	} else {
		b.container = b.lca(b.container, el)
	}
	b.buf = append(b.buf, s...)
	if b.inLink > 0 {
		b.linkChars += countChars(s)
	}
	if sp.End > sp.Start {
		if b.start < 0 {
			b.start = sp.Start
		}
		b.end = sp.End
	}
}

// pre adds preformatted text line by line: each line is a block of its own.
func (b *builder) pre(s string, el int32, sp page.Span) {
	for {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			b.add(s, el, lineSpan(sp, s))
			return
		}
		line := s[:i]
		b.add(line, el, lineSpan(sp, line))
		b.flush()
		b.split.Tags++
		b.split.BR++
		if sp.End > sp.Start && sp.End-sp.Start == len(s) {
			sp.Start += i + 1
		}
		s = s[i+1:]
	}
}

// lineSpan returns the span of the first len(line) bytes of a text node
// whose span is sp, when the node's bytes are its text (no entities).
func lineSpan(sp page.Span, line string) page.Span {
	if sp.End <= sp.Start {
		return page.Span{}
	}
	end := min(sp.Start+len(line), sp.End)
	return page.Span{Start: sp.Start, End: end}
}

// flush closes the open block, if it holds text.
func (b *builder) flush() {
	if !b.has {
		b.buf, b.alts = b.buf[:0], b.alts[:0]
		if b.opts.Links || b.opts.Images {
			b.flushRefs(nil, 0)
		}
		return
	}
	blk := page.Block{
		Node:          b.container,
		Split:         b.split,
		InnerTags:     b.inner,
		InnerLinkTags: b.innerA,
		Pre:           b.inPre > 0,
		DivGroup:      -1,
		TdGroup:       -1,
	}
	b.dropRepeatedAlts() // before the link characters are read
	blk.LinkChars = b.linkChars
	b.scratch, blk.Chars = normalize(b.scratch[:0], b.buf, blk.Pre)
	blk.Text = keepCopy(&b.texts, b.scratch)
	if b.opts.Links || b.opts.Images {
		b.flushRefs(&blk, b.blocks.len())
	}
	blk.Units = float32(textunit.WordEquivalents(blk.Text))
	blk.Words = page.RoundUnits(blk.Units)
	blk.LinkChars = min(blk.LinkChars, blk.Chars)
	if b.start >= 0 && b.end > b.start {
		blk.Source = page.Span{Start: b.orig.Original(b.start), End: b.orig.Original(b.end)}
	}
	b.groups(&blk)
	b.blocks.add(blk)

	b.buf = b.buf[:0]
	b.has = false
	b.container, b.start, b.end = -1, -1, 0
	b.inner, b.innerA, b.linkChars = 0, 0, 0
	b.split = page.Split{}
	b.alts = b.alts[:0]
}

// groups sets the div and td group of a block from its ancestors.
func (b *builder) groups(blk *page.Block) {
	for i := blk.Node; i >= 0 && i < b.nodes.len() && blk.DivGroup < 0; i = b.nodes.at(i).Parent {
		a := b.nodes.at(i).Atom
		if blk.TdGroup < 0 && (a == atom.Td || a == atom.Th) {
			blk.TdGroup = i
		}
		if divGroup(a) || i == 0 {
			blk.DivGroup = i
		}
	}
}

// lca returns the deepest common ancestor of elements x and y.
func (b *builder) lca(x, y int32) int32 {
	for x != y && x >= 0 && y >= 0 {
		if nx, ny := b.nodes.at(x), b.nodes.at(y); nx.Depth >= ny.Depth {
			x = nx.Parent
		} else {
			y = ny.Parent
		}
	}
	if x < 0 {
		return y
	}
	return x
}

// normalize appends buf to out with white space (Unicode spaces, the
// non-breaking ones included, and control characters) collapsed to single
// spaces and the ends trimmed; for preformatted text it keeps the leading
// indentation. It also counts non-space runes.
func normalize(out, buf []byte, pre bool) (text []byte, chars int32) {
	space, lead := false, pre
	for i := 0; i < len(buf); {
		if j := asciiWord(buf, i); j > i {
			// A run of ASCII characters that are no space, at once.
			lead = false
			if space {
				out = append(out, ' ')
				space = false
			}
			out = append(out, buf[i:j]...)
			chars += int32(j - i)
			i = j
			continue
		}
		// An ASCII byte asciiWord stopped at is a space or a control
		// character, which isSpace counts as space.
		r, size := rune(buf[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(buf[i:])
		}
		if size == 1 && r < utf8.RuneSelf || isSpace(r) {
			if lead && (r == ' ' || r == '\t') {
				out = append(out, byte(r))
			} else {
				space = len(out) > 0
			}
			i += size
			continue
		}
		lead = false
		if space {
			out = append(out, ' ')
			space = false
		}
		out = append(out, buf[i:i+size]...)
		i += size
		chars++
	}
	if pre && chars == 0 {
		out = out[:0]
	}
	return out, chars
}

// asciiWord returns the end of the run of ASCII bytes from buf[i] that
// isSpace does not count as space (i when buf[i] is none).
func asciiWord(buf []byte, i int) int {
	for i < len(buf) && buf[i] > ' ' && buf[i] < 0x7F {
		i++
	}
	return i
}

func isSpace(r rune) bool {
	switch {
	case r <= ' ' || r == 0x7F || r == 0xA0 || r == 0x200B || r == 0xFEFF:
		return true
	case r < 0x100:
		return false
	}
	return unicode.IsSpace(r)
}

func hasNonSpace(s string) bool {
	for _, r := range s {
		if !isSpace(r) {
			return true
		}
	}
	return false
}

func countChars(s string) int32 {
	var n int32
	for _, r := range s {
		if !isSpace(r) {
			n++
		}
	}
	return n
}

// attr returns the value of n's attribute key, or "".
func attr(n dom.Node, key string) string { return n.Attr(key) }
