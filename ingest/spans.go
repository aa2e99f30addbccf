package ingest

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"

	"github.com/sluice-project/sluice/dom"
	"github.com/sluice-project/sluice/htmltree"
	"github.com/sluice-project/sluice/page"
)

// ContentRoot returns the element whose subtree holds the page's content:
// <body>, or the <html> element (or the document) when there is none.
func ContentRoot(doc *html.Node) *html.Node {
	return dom.ContentRoot(dom.HTML(doc)).HTMLNode()
}

// textToken is one text token of the input: its raw byte span in the parsed
// text, and whether its raw bytes differ from its decoded text (entities,
// carriage returns, NUL bytes).
type textToken struct {
	start, end int
	escaped    bool
}

// locateText finds the byte span of every text node below ContentRoot(root),
// in document order, by walking the text tokens of the parsed bytes b (see
// scanText) alongside the tree. base is the offset of b in the decoded text. The tree
// builder may merge tokens (around ignored tags), split them (in tables),
// move them (foster parenting) or drop a leading newline; nodes that cannot
// be matched get a zero span.
func locateText(root dom.Node, b []byte, base int) []page.Span {
	if t, _ := root.Tree(); t != nil {
		return treeSpans(t, base)
	}
	toks := scanText(b, make([]textToken, 0, 256))
	m := matcher{b: b, toks: toks}
	var spans []page.Span
	var walk func(n dom.Node)
	walk = func(n dom.Node) {
		for c := n.FirstChild(); !c.Nil(); c = c.NextSibling() {
			switch c.Type() {
			case html.TextNode:
				s, e := m.match(c.Data())
				if e > s {
					s, e = s+base, e+base
				}
				spans = append(spans, page.Span{Start: s, End: e})
			case html.ElementNode:
				walk(c)
			}
		}
	}
	walk(dom.ContentRoot(root))
	return spans
}

// treeSpans returns the spans of the text nodes below the content root of
// t, which htmltree records (Tree.TextSpan), base added.
func treeSpans(t *htmltree.Tree, base int) []page.Span {
	spans := make([]page.Span, 0, t.Count(htmltree.TextNode)) // one allocation, not a dozen
	_, root := dom.ContentRoot(dom.Arena(t, t.Root())).Tree()
	for n := range t.All(root) {
		if t.Nodes[n].Type == htmltree.TextNode {
			var sp page.Span
			if r := t.TextSpan(n); r.End > r.Start {
				sp = page.Span{Start: int(r.Start) + base, End: int(r.End) + base}
			}
			spans = append(spans, sp)
		}
	}
	return spans
}

// matcher walks the text tokens with a cursor.
type matcher struct {
	b       []byte
	toks    []textToken
	k       int      // next token to consider
	decoded []string // decoded text of escaped tokens, filled on first use
}

// window is how many tokens ahead a node's text is looked for.
const window = 64

func (m *matcher) text(i int) string {
	t := m.toks[i]
	raw := m.b[t.start:t.end]
	if !t.escaped {
		return string(raw)
	}
	if m.decoded == nil {
		m.decoded = make([]string, len(m.toks))
	}
	if s := m.decoded[i]; s != "" {
		return s
	}
	s := html.UnescapeString(string(raw))
	if strings.IndexByte(s, '\r') >= 0 {
		s = strings.ReplaceAll(s, "\r\n", "\n")
		s = strings.ReplaceAll(s, "\r", "\n")
	}
	if strings.IndexByte(s, 0) >= 0 {
		s = strings.ReplaceAll(s, "\x00", "")
	}
	m.decoded[i] = s
	return s
}

// equalRaw reports whether token i's text is exactly s, without allocating
// for tokens that need no decoding.
func (m *matcher) equal(i int, s string) bool {
	t := m.toks[i]
	if !t.escaped {
		return string(m.b[t.start:t.end]) == s
	}
	return m.text(i) == s
}

func (m *matcher) hasPrefix(s string, i int) (rest string, ok bool) {
	t := m.toks[i]
	if !t.escaped {
		raw := m.b[t.start:t.end]
		if len(raw) <= len(s) && string(raw) == s[:len(raw)] {
			return s[len(raw):], true
		}
		return s, false
	}
	x := m.text(i)
	if strings.HasPrefix(s, x) {
		return s[len(x):], true
	}
	return s, false
}

func (m *matcher) match(data string) (int, int) {
	blankOnly := strings.TrimSpace(data) == ""
	limit := min(len(m.toks), m.k+window)
	if blankOnly {
		limit = min(len(m.toks), m.k+2)
	}
	for i := m.k; i < limit; i++ {
		if m.equal(i, data) {
			m.k = i + 1
			return m.toks[i].start, m.toks[i].end
		}
		// Merged tokens: the node's text is several tokens in a row.
		if rest, ok := m.hasPrefix(data, i); ok && len(rest) < len(data) {
			j := i + 1
			for rest != "" && j < len(m.toks) {
				r, ok := m.hasPrefix(rest, j)
				if !ok {
					break
				}
				rest = r
				j++
			}
			if rest == "" || strings.TrimSpace(rest) == "" {
				m.k = j
				return m.toks[i].start, m.toks[j-1].end
			}
		}
		if blankOnly {
			continue
		}
		// Split or trimmed tokens: the node's text is part of one token.
		t := m.toks[i]
		if !t.escaped {
			raw := m.b[t.start:t.end]
			if k := bytes.Index(raw, []byte(data)); k >= 0 {
				if k+len(data) == len(raw) {
					m.k = i + 1
				} else {
					m.k = i
				}
				return t.start + k, t.start + k + len(data)
			}
		} else if strings.Contains(m.text(i), data) {
			m.k = i + 1
			return t.start, t.end
		}
	}
	return 0, 0
}
