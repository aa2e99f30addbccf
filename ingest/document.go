// Package ingest turns raw page bytes into a parsed, precleaned HTML tree:
// charset detection and decoding to UTF-8, the CleanEval <text> wrapper,
// HTML5 parsing that never fails on deep nesting, removal of non-content
// elements, and the byte spans of text nodes in the original input.
package ingest

import (
	"golang.org/x/net/html"

	"github.com/sluice-project/sluice/dom"
	"github.com/sluice-project/sluice/htmltree"

	"github.com/sluice-project/sluice/page"
)

// Document is a parsed page ready for segmentation.
type Document struct {
	// Root is the document node of the parsed tree, precleaned, when
	// html.Parse parsed it (Options.Parser "html"); nil otherwise.
	Root *html.Node
	// Tree is the precleaned tree when htmltree built it (Options.Parser
	// "arena"); nil otherwise. Its strings share the memory of Text and
	// of the tree: a Document's tree is never rebuilt, so they live as
	// long as anything refers to them.
	Tree *htmltree.Tree
	// Source is the original input, as given.
	Source []byte
	// Text is the input decoded to UTF-8 (it is Source itself when Source
	// was UTF-8 without a byte order mark).
	Text []byte
	// TextSpans holds, for the i-th text node of Root in document order
	// (after precleaning), its byte span in Text, or a zero span when it
	// could not be located. Original maps them back to Source.
	TextSpans []page.Span
	// Meta is what the input says about itself.
	Meta page.Meta
	// Warnings are problems that did not stop ingestion (a truncated input,
	// a nesting depth that had to be flattened).
	Warnings []string

	offsets *OffsetMap
}

// Node returns the document node of the tree, whichever parser built it.
func (d *Document) Node() dom.Node {
	if d.Tree != nil {
		return dom.Arena(d.Tree, d.Tree.Root())
	}
	return dom.HTML(d.Root)
}

// Original maps a byte offset in d.Text to the offset in d.Source.
func (d *Document) Original(off int) int {
	return d.offsets.Original(off)
}
