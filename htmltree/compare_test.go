package htmltree_test

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/sluice-project/sluice/htmltree"
)

// blockLevel are the elements the parity comparison keeps in paths and in
// the block structure.
func blockLevel(a atom.Atom) bool {
	switch a {
	case atom.P, atom.Div, atom.Li, atom.Ul, atom.Ol, atom.Dl, atom.Dt, atom.Dd, atom.Table,
		atom.Tr, atom.Td, atom.Th, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6,
		atom.Pre, atom.Blockquote, atom.Section, atom.Article, atom.Header, atom.Footer,
		atom.Nav, atom.Aside, atom.Main, atom.Form, atom.Option, atom.Select, atom.Br, atom.Hr:
		return true
	}
	return false
}

// textNode is one text node of a tree: its text and the path of its
// block-level ancestors.
type textNode struct {
	text, path string
}

// refParse parses with html.Parse as ingest does (scripting off).
func refParse(src []byte) (*html.Node, error) {
	return html.ParseWithOptions(bytes.NewReader(src), html.ParseOptionEnableScripting(false))
}

// refTexts lists the text nodes of an html.Node tree in document order.
func refTexts(doc *html.Node) []textNode {
	var out []textNode
	var path []string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch c.Type {
			case html.TextNode:
				out = append(out, textNode{c.Data, strings.Join(path, "/")})
			case html.ElementNode:
				block := c.Namespace == "" && blockLevel(c.DataAtom)
				if block {
					path = append(path, c.Data)
				}
				walk(c)
				if block {
					path = path[:len(path)-1]
				}
			}
		}
	}
	walk(doc)
	return out
}

// treeTexts lists the text nodes of a Tree in document order.
func treeTexts(t *htmltree.Tree) []textNode {
	var out []textNode
	var path []string
	t.Walk(t.Root(), func(n htmltree.NodeID, entering bool) bool {
		nd := t.Node(n)
		switch nd.Type {
		case htmltree.TextNode:
			out = append(out, textNode{t.Text(n), strings.Join(path, "/")})
		case htmltree.ElementNode:
			if nd.Namespace == htmltree.HTML && blockLevel(nd.Atom) {
				if entering {
					path = append(path, t.Name(n))
				} else {
					path = path[:len(path)-1]
				}
			}
		}
		return true
	})
	return out
}

// refBlocks writes the block-level element tree of an html.Node tree:
// "div(p()ul(li()))".
func refBlocks(doc *html.Node) string {
	var sb strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			block := c.Namespace == "" && blockLevel(c.DataAtom)
			if block {
				sb.WriteString(c.Data)
				sb.WriteByte('(')
			}
			walk(c)
			if block {
				sb.WriteByte(')')
			}
		}
	}
	walk(doc)
	return sb.String()
}

// treeBlocks is refBlocks for a Tree.
func treeBlocks(t *htmltree.Tree) string {
	var sb strings.Builder
	t.Walk(t.Root(), func(n htmltree.NodeID, entering bool) bool {
		nd := t.Node(n)
		if nd.Type == htmltree.ElementNode && nd.Namespace == htmltree.HTML && blockLevel(nd.Atom) {
			if entering {
				sb.WriteString(t.Name(n))
				sb.WriteByte('(')
			} else {
				sb.WriteByte(')')
			}
		}
		return true
	})
	return sb.String()
}

// firstTextDiff returns the index of the first differing text node, or -1.
func firstTextDiff(a, b []textNode) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

// firstByteDiff returns the offset of the first differing byte, or -1.
func firstByteDiff(a, b string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

// refFull writes the whole tree of an html.Node: every element with its
// attributes (sorted), text and comment; doctypes left out (htmltree
// keeps the doctype's text, html.Parse its parts), foreign names lower
// case.
func refFull(doc *html.Node) string {
	var sb strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch c.Type {
			case html.TextNode:
				fmt.Fprintf(&sb, "%q", c.Data)
			case html.CommentNode:
				fmt.Fprintf(&sb, "<!--%q-->", c.Data)
			case html.ElementNode:
				var attrs []string
				for _, a := range c.Attr {
					k := a.Key
					if a.Namespace != "" {
						k = a.Namespace + ":" + k
					}
					if c.Namespace != "" {
						k = strings.ToLower(k) // SVG's camel case (viewBox) is not restored
					}
					attrs = append(attrs, k+"="+strconv.Quote(a.Val))
				}
				slices.Sort(attrs)
				fmt.Fprintf(&sb, "<%s%s", strings.ToLower(c.Data), strings.Join(attrs, " "))
				sb.WriteString(">")
				walk(c)
				sb.WriteString("</>")
			}
		}
	}
	walk(doc)
	return sb.String()
}

// treeFull is refFull for a Tree.
func treeFull(t *htmltree.Tree) string {
	var sb strings.Builder
	t.Walk(t.Root(), func(n htmltree.NodeID, entering bool) bool {
		switch t.Node(n).Type {
		case htmltree.TextNode:
			fmt.Fprintf(&sb, "%q", t.Text(n))
		case htmltree.CommentNode:
			fmt.Fprintf(&sb, "<!--%q-->", t.Text(n))
		case htmltree.ElementNode:
			if !entering {
				sb.WriteString("</>")
				break
			}
			var attrs []string
			for i := range t.NumAttr(n) {
				a := t.AttrAt(n, i)
				attrs = append(attrs, a.Key+"="+strconv.Quote(a.Val))
			}
			slices.Sort(attrs)
			fmt.Fprintf(&sb, "<%s%s>", t.Name(n), strings.Join(attrs, " "))
		}
		return true
	})
	return sb.String()
}

// rawShare returns the number of text nodes of t and how many of them have
// a raw span that decodes (entities, CR LF, NUL) to their text; it fails
// the test for a span outside the input.
func rawShare(tb testing.TB, t *htmltree.Tree) (nodes, exact int) {
	src := t.Input()
	for n := range t.All(t.Root()) {
		nd := t.Node(n)
		if nd.Type != htmltree.TextNode {
			continue
		}
		nodes++
		r := nd.Raw
		if r.Start < 0 || r.End < r.Start || int(r.End) > len(src) {
			tb.Fatalf("text node %d: raw span %v outside the input (%d bytes)", n, r, len(src))
		}
		raw := string(src[r.Start:r.End])
		text := t.Text(n)
		if raw == text || decodeRaw(raw) == text {
			exact++
		}
	}
	return nodes, exact
}

// decodeRaw decodes text as the tokenizer and tree builder do.
func decodeRaw(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	s = strings.ReplaceAll(s, "\x00", "")
	return html.UnescapeString(s)
}
