// Package dom is a node of either parsed tree sluice builds: x/net/html's
// (*html.Node, the old path) or htmltree's arena (a Tree and a NodeID).
// ingest, segment and metadata read and preclean the page through it, so
// that one walk serves both parsers while the old one is kept behind
// ingest.Options.Parser (issue 24, for one release).
//
// A Node is a small value: a pointer to an html.Node, or a tree and an
// index. Its methods branch on which it holds; they allocate nothing.
// Strings read from an arena node share the tree's memory (see
// htmltree.Tree): they live as long as the tree is not rebuilt.
package dom

import (
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/sluice-project/sluice/htmltree"
)

// Node is a node of an html.Node tree or of an htmltree.Tree; the zero
// value is no node.
type Node struct {
	h  *html.Node
	t  *htmltree.Tree
	id htmltree.NodeID
}

// HTML returns the Node of n (no node when n is nil).
func HTML(n *html.Node) Node { return Node{h: n} }

// Arena returns the Node of node id of t (no node when id is Nil).
func Arena(t *htmltree.Tree, id htmltree.NodeID) Node {
	if id == htmltree.Nil {
		return Node{}
	}
	return Node{t: t, id: id}
}

// Nil reports whether n is no node.
func (n Node) Nil() bool { return n.h == nil && n.t == nil }

// HTMLNode returns the html.Node n holds, or nil for an arena node.
func (n Node) HTMLNode() *html.Node { return n.h }

// Tree returns the tree and index of an arena node (nil, Nil otherwise).
func (n Node) Tree() (*htmltree.Tree, htmltree.NodeID) {
	if n.t == nil {
		return nil, htmltree.Nil
	}
	return n.t, n.id
}

func (n Node) arena() *htmltree.Node { return &n.t.Nodes[n.id] }

// FirstChild returns n's first child.
func (n Node) FirstChild() Node {
	if n.t != nil {
		return Arena(n.t, n.arena().FirstChild)
	}
	return Node{h: n.h.FirstChild}
}

// NextSibling returns n's next sibling.
func (n Node) NextSibling() Node {
	if n.t != nil {
		return Arena(n.t, n.arena().NextSibling)
	}
	return Node{h: n.h.NextSibling}
}

// Parent returns n's parent.
func (n Node) Parent() Node {
	if n.t != nil {
		return Arena(n.t, n.arena().Parent)
	}
	return Node{h: n.h.Parent}
}

// arenaTypes maps htmltree's node types to html's.
var arenaTypes = [...]html.NodeType{
	htmltree.DocumentNode: html.DocumentNode,
	htmltree.ElementNode:  html.ElementNode,
	htmltree.TextNode:     html.TextNode,
	htmltree.CommentNode:  html.CommentNode,
	htmltree.DoctypeNode:  html.DoctypeNode,
}

// Type returns n's type, as html.NodeType.
func (n Node) Type() html.NodeType {
	if n.t != nil {
		return arenaTypes[n.arena().Type]
	}
	return n.h.Type
}

// Atom returns an element's atom (0 for a name without one).
func (n Node) Atom() atom.Atom {
	if n.t != nil {
		return n.arena().Atom
	}
	return n.h.DataAtom
}

// Data returns an element's tag name or a text, comment or doctype node's
// text, as html.Node.Data (but for the deviations of htmltree: foreign
// names in lower case, a doctype's whole text).
func (n Node) Data() string {
	if n.t != nil {
		if n.arena().Type == htmltree.ElementNode {
			return n.t.Name(n.id)
		}
		return n.t.Text(n.id)
	}
	return n.h.Data
}

// Attr returns the value of n's attribute key (lower case), or "".
func (n Node) Attr(key string) string {
	if n.t != nil {
		return n.t.AttrValue(n.id, key)
	}
	for _, a := range n.h.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// NumAttr returns the number of n's attributes.
func (n Node) NumAttr() int {
	if n.t != nil {
		return n.t.NumAttr(n.id)
	}
	return len(n.h.Attr)
}

// AttrAt returns n's i-th attribute in source order; foreign is true for
// an attribute with a namespace (xlink:href on the html.Node path only).
func (n Node) AttrAt(i int) (key, val string, foreign bool) {
	if n.t != nil {
		a := n.t.AttrAt(n.id, i)
		return a.Key, a.Val, false
	}
	a := &n.h.Attr[i]
	return a.Key, a.Val, a.Namespace != ""
}

// Remove unlinks n, with its subtree, from its parent.
func (n Node) Remove() {
	if n.t != nil {
		n.t.Remove(n.id)
		return
	}
	if n.h.Parent != nil {
		n.h.Parent.RemoveChild(n.h)
	}
}

// ContentRoot returns the element whose subtree holds the page's content:
// <body> (or <frameset>), else the <html> element, else the document.
func ContentRoot(doc Node) Node {
	var htmlEl Node
	for c := doc.FirstChild(); !c.Nil(); c = c.NextSibling() {
		if c.Type() == html.ElementNode && c.Atom() == atom.Html {
			htmlEl = c
		}
	}
	if htmlEl.Nil() {
		return doc
	}
	for c := htmlEl.FirstChild(); !c.Nil(); c = c.NextSibling() {
		if a := c.Atom(); c.Type() == html.ElementNode && (a == atom.Body || a == atom.Frameset) {
			return c
		}
	}
	return htmlEl
}
