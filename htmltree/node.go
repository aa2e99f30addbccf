package htmltree

import (
	"unsafe"

	"golang.org/x/net/html/atom"
)

// NodeID is the index of a node in Tree.Nodes. The document node is 0;
// Nil stands for no node.
type NodeID int32

// Nil is the NodeID of no node (the parent of the document, the next
// sibling of a last child).
const Nil NodeID = -1

// NodeType is the kind of a node, as html.NodeType.
type NodeType uint8

// The node types.
const (
	DocumentNode NodeType = iota
	ElementNode
	TextNode
	CommentNode
	DoctypeNode
)

// Namespace is the namespace of an element: HTML, or foreign content.
type Namespace uint8

// The namespaces.
const (
	HTML Namespace = iota
	SVG
	MathML
)

// Span is a range of bytes [Start, End) of the input.
type Span struct{ Start, End int32 }

// Node is one node of a Tree. Its links are indices into Tree.Nodes.
type Node struct {
	// The node's links: its parent, first and last child, previous and
	// next sibling, Nil where there is none.
	Parent, FirstChild, LastChild, PrevSibling, NextSibling NodeID
	// Atom is the element's tag (0 for an element whose name has no
	// atom, and for other node types; Tree.Name gives the name then).
	Atom atom.Atom
	Type NodeType
	// Namespace is HTML, or SVG/MathML for foreign content.
	Namespace Namespace
	open      bool // on the stack of open elements, during a build
	// Raw is, for a text node, the span of its token in the input (of
	// all its tokens, first to last, when the builder merged several,
	// the bytes between included); for an element, the span of its start
	// tag; zero for an implied element or a clone made by the adoption
	// agency or the reconstruction of formatting elements.
	Raw Span

	data  str   // text, comment or doctype data; the name of an element without an atom
	attr  int32 // first attribute in Tree.attrs; for text nodes during a build, the first piece
	nattr int32 // number of attributes; for text nodes during a build, the last piece + 1
}

// str is a string held by a Tree: bytes [off, off+n) of the input, or of the
// side buffer when off has sideBit set.
type str struct{ off, n uint32 }

const sideBit = 1 << 31

// Tree is a parsed HTML document: its nodes in one slice, the document
// node first, and its attributes in another. Text and attribute values
// point into the input where their decoded value is the input's bytes,
// and into a side buffer of the tree otherwise.
//
// The strings a Tree returns are built without copying (unsafe.String)
// over the input and the side buffer; neither is changed while the tree
// lives, so the strings stay valid until the Tree is built again (by
// Builder.Build) or the caller changes the input. A caller that keeps a
// string longer copies it (strings.Clone).
type Tree struct {
	// Nodes holds every node; Nodes[0] is the document.
	Nodes []Node
	// Warnings are problems met while building that changed the tree
	// (nesting deeper than MaxDepth flattened).
	Warnings []string

	src   []byte
	side  []byte
	attrs []attribute
}

// Input returns the bytes the tree was built from.
func (t *Tree) Input() []byte { return t.src }

// Node returns a pointer to node n.
func (t *Tree) Node(n NodeID) *Node { return &t.Nodes[n] }

// Root returns the document node.
func (t *Tree) Root() NodeID { return 0 }

// string returns s as a string sharing the tree's memory.
func (t *Tree) string(s str) string {
	if s.n == 0 {
		return ""
	}
	b := t.src
	off := s.off
	if off&sideBit != 0 {
		b, off = t.side, off&^sideBit
	}
	return unsafe.String(&b[off], int(s.n))
}

// bytes returns s as a slice of the tree's memory.
func (t *Tree) bytes(s str) []byte {
	b := t.src
	off := s.off
	if off&sideBit != 0 {
		b, off = t.side, off&^sideBit
	}
	return b[off : off+s.n : off+s.n]
}

// Text returns the data of a text, comment or doctype node (the doctype's
// name, public and system identifiers as the tokenizer gives them), or ""
// for other nodes. See Tree for how long the string stays valid.
func (t *Tree) Text(n NodeID) string {
	nd := &t.Nodes[n]
	if nd.Type == ElementNode || nd.Type == DocumentNode {
		return ""
	}
	return t.string(nd.data)
}

// TextBytes is Text as a slice of the tree's memory, which the caller
// must not change.
func (t *Tree) TextBytes(n NodeID) []byte {
	nd := &t.Nodes[n]
	if nd.Type == ElementNode || nd.Type == DocumentNode {
		return nil
	}
	return t.bytes(nd.data)
}

// TextSpan returns the span in the input of a text node's text: the bytes
// it is, when its text is the input's bytes (no entity, CR LF or NUL,
// not merged from tokens apart), else its Raw span (its token or tokens,
// from first to last).
func (t *Tree) TextSpan(n NodeID) Span {
	nd := &t.Nodes[n]
	if nd.Type == TextNode && nd.data.n > 0 && nd.data.off&sideBit == 0 {
		return Span{Start: int32(nd.data.off), End: int32(nd.data.off + nd.data.n)}
	}
	return nd.Raw
}

// Name returns an element's tag name, lower case, or "" for other nodes.
func (t *Tree) Name(n NodeID) string {
	nd := &t.Nodes[n]
	if nd.Type != ElementNode {
		return ""
	}
	if nd.Atom != 0 {
		return nd.Atom.String()
	}
	return t.string(nd.data)
}

// Is reports whether n is an HTML element with the tag a.
func (t *Tree) Is(n NodeID, a atom.Atom) bool {
	nd := &t.Nodes[n]
	return nd.Type == ElementNode && nd.Atom == a && nd.Namespace == HTML
}

// Len returns the number of nodes.
func (t *Tree) Len() int { return len(t.Nodes) }

// Count returns the number of nodes of type typ, those removed from the
// tree (Remove) included: a bound for a slice of them.
func (t *Tree) Count(typ NodeType) int {
	n := 0
	for i := range t.Nodes {
		if t.Nodes[i].Type == typ {
			n++
		}
	}
	return n
}

// Sizes returns the sizes of the tree's arenas: nodes, attributes, and
// bytes of the side buffer (decoded strings that are not spans of the
// input).
func (t *Tree) Sizes() (nodes, attrs, side int) {
	return len(t.Nodes), len(t.attrs), len(t.side)
}
