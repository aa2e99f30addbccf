package htmltree

import (
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/sluice-project/sluice/internal/htmlscan"
)

// MaxDepth is the most elements the builder keeps open at once, as many as
// html.Parse accepts (it refuses deeper input). A start tag met with
// MaxDepth elements open is dropped with its matching end tag, so its
// content goes to the element below it, as ingest's flattening of deep
// nesting does; the tree records a warning.
const MaxDepth = 512

// maxActive bounds the list of active formatting elements (see
// addFormatting): html.Parse has no such bound, but refuses a page once
// reconstructing them opens more than 512 elements.
const maxActive = MaxDepth

// MaxInput is the longest input Build reads; the rest is cut, with a
// warning (strings are 32-bit spans of the input and side buffer).
const MaxInput = 1 << 30

// maxReprocess bounds how often one token is handed from insertion mode to
// insertion mode; the algorithm needs at most a handful.
const maxReprocess = 32

// Build parses src, HTML decoded to UTF-8, into a new Tree. It never fails:
// any input gives a tree.
func Build(src []byte) *Tree {
	var b Builder
	return b.Build(src)
}

// Builder builds trees, reusing its memory from one build to the next. The
// zero value is ready to use. A Builder is not safe for concurrent use; keep
// one per goroutine, or in a sync.Pool.
type Builder struct {
	tree Tree
	rd   htmlscan.Reader
	z    *html.Tokenizer
	pos  int // offset in the input of the current token
	// rawNext is false once the builder has told the tokenizer that the
	// current start tag does not open raw text (notRawText).
	rawNext bool
	// noRawSkip leaves all raw text to the tokenizer, and noFast all
	// tokens (tests compare).
	noRawSkip, noFast bool
	// drained is true when the tokenizer holds no input past b.pos and
	// is not about to read raw text, so that the builder may read the
	// next tokens itself (fast.go).
	drained bool
	scratch []byte // text with its CRs converted, to decode (fastText)
	tok     token

	mode, origMode mode
	templateModes  []mode
	stack          []NodeID // the stack of open elements
	active         []NodeID // the list of active formatting elements; marker for a marker
	head, form     NodeID
	quirks         bool
	framesetOK     bool
	fostering      bool
	skipped        []skippedTag // start tags dropped past MaxDepth
	pieces         []piece      // the parts of merged text nodes
	merged         []NodeID     // the text nodes with pieces
	noAttrs        []attribute  // scratch for attribute merging
	clones         int          // elements cloned so far (see cloneBudget)
}

// cloneBudget bounds the clones the reconstruction of active formatting
// elements makes in one build, for an input of n bytes: past it, text goes
// in without its formatting elements reopened. html.Parse has no such
// bound: a few hundred distinct unclosed <b> tags followed by many short
// paragraphs make it clone hundreds of elements per paragraph.
func cloneBudget(n int) int { return n + 4096 }

// marker is the scope marker in the list of active formatting elements.
const marker NodeID = -2

// skippedTag is a start tag dropped past MaxDepth, whose end tag is
// dropped too.
type skippedTag struct {
	atom atom.Atom
	name string
}

// Build parses src into the builder's tree and returns it. The tree (its
// nodes and strings) is valid until the next call to Build.
func (b *Builder) Build(src []byte) *Tree {
	b.reset(src)
	for {
		if b.drained {
			if n, ok := b.fastToken(); ok {
				b.pos += n
				b.rawNext = true
				b.process()
				continue
			}
			b.rd.Pos = b.pos // the tokenizer reads on from here
			b.rd.Passed(b.pos)
		}
		b.z.AllowCDATA(b.inForeignElement())
		tt := b.z.Next()
		n := len(b.z.Raw())
		b.readToken(tt, n)
		rawStart := b.tok.typ == html.StartTagToken && htmlscan.RawTextElement(b.tok.atom)
		b.pos += n
		b.rawNext = true
		b.process()
		if tt == html.ErrorToken {
			break
		}
		b.skipRaw(tt)
		// After a raw-text start tag the tokenizer reads the text (or,
		// when skipRaw took it, the end tag) unless told otherwise.
		b.drained = !b.noFast && b.rd.Pos == b.pos && !(rawStart && b.rawNext)
	}
	b.joinPieces()
	for _, n := range b.stack {
		b.tree.Nodes[n].open = false
	}
	b.stack = b.stack[:0]
	return &b.tree
}

// reset prepares the builder for a new input.
func (b *Builder) reset(src []byte) {
	t := &b.tree
	t.Warnings = t.Warnings[:0]
	if len(src) > MaxInput {
		src = src[:MaxInput]
		t.Warnings = append(t.Warnings, "input longer than MaxInput cut")
	}
	t.src = src
	t.Nodes = append(t.Nodes[:0], Node{Parent: Nil, FirstChild: Nil, LastChild: Nil, PrevSibling: Nil, NextSibling: Nil, Type: DocumentNode})
	t.side = t.side[:0]
	t.attrs = t.attrs[:0]
	b.rd.Reset(src)
	b.z = html.NewTokenizer(&b.rd)
	b.pos = 0
	b.drained = !b.noFast
	b.mode, b.origMode = initialMode, initialMode
	b.templateModes = b.templateModes[:0]
	b.stack = b.stack[:0]
	b.active = b.active[:0]
	b.head, b.form = Nil, Nil
	b.quirks, b.framesetOK, b.fostering = false, true, false
	b.skipped = b.skipped[:0]
	b.clones = 0
	b.pieces = b.pieces[:0]
	b.merged = b.merged[:0]
}

// process runs the current token through the insertion modes until one
// consumes it.
func (b *Builder) process() {
	if !b.dropDeep() {
		b.run()
	}
}

// run hands the current token from mode to mode until one consumes it,
// at most maxReprocess times.
func (b *Builder) run() {
	for range maxReprocess {
		var done bool
		if b.inForeignContent() {
			done = b.foreignContent()
		} else {
			done = b.step(b.mode)
		}
		if done {
			return
		}
	}
}

// implied processes a token the input did not hold (an implied <html>,
// <head>, <body>, <tbody>, </p>...), then restores the current token.
func (b *Builder) implied(tt html.TokenType, a atom.Atom) {
	saved := b.tok
	b.tok = token{typ: tt, atom: a}
	b.run()
	b.tok = saved
}

// dropDeep drops the start tags that would open more than MaxDepth
// elements, and their end tags, reporting whether it dropped the token.
func (b *Builder) dropDeep() bool {
	t := &b.tok
	switch t.typ {
	case html.StartTagToken:
		if len(b.stack) < MaxDepth || t.selfClosing || voidElement(t.atom) {
			return false
		}
		if len(b.skipped) == 0 {
			b.tree.Warnings = append(b.tree.Warnings, "nesting deeper than MaxDepth was flattened")
		}
		sk := skippedTag{atom: t.atom}
		if t.atom == 0 {
			sk.name = string(b.tree.bytes(t.name))
		}
		b.skipped = append(b.skipped, sk)
		return true
	case html.EndTagToken:
		if len(b.skipped) == 0 {
			return false
		}
		sk := b.skipped[len(b.skipped)-1]
		if sk.atom != t.atom || (t.atom == 0 && sk.name != b.tree.string(t.name)) {
			return false
		}
		b.skipped = b.skipped[:len(b.skipped)-1]
		return true
	}
	return false
}

// voidElement reports whether an element has no end tag.
func voidElement(a atom.Atom) bool {
	switch a {
	case atom.Area, atom.Base, atom.Br, atom.Col, atom.Embed, atom.Hr, atom.Img,
		atom.Input, atom.Link, atom.Meta, atom.Source, atom.Track, atom.Wbr,
		atom.Param, atom.Keygen, atom.Basefont, atom.Bgsound, atom.Frame:
		return true
	}
	return false
}

// Most a pooled Builder holds: the nodes, attributes and bytes of a large
// page. A Builder that grew past them (a page of millions of nodes) is
// better left to the garbage collector than kept for the next page.
const (
	pooledNodes = 1 << 16
	pooledBytes = 4 << 20
)

// Pooled reports whether b's memory is small enough to keep for the next
// page: a caller that keeps Builders in a free list puts back only those.
func (b *Builder) Pooled() bool {
	t := &b.tree
	return cap(t.Nodes) <= pooledNodes && cap(t.attrs) <= pooledNodes && cap(t.side) <= pooledBytes &&
		cap(b.scratch) <= pooledBytes && cap(b.pieces) <= pooledNodes && cap(b.stack) <= pooledNodes
}
