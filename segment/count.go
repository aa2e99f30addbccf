package segment

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/sluice-project/sluice/dom"
)

// sizes counts, before a page is built, the elements under root (the
// page's nodes, exactly) and about how many blocks their text makes (at
// least as many as there are, but for pages whose blocks come from alt or
// title text), so that the page's arrays are allocated once at their size:
// grown by appending, a page of a million tiny blocks held its old and new
// arrays at once, some 40 bytes per input byte at its peak.
func sizes(root dom.Node, opts Options) (nodes, blocks int) {
	c := counter{}
	c.walk(root, 0, opts)
	if c.open {
		c.blocks++
	}
	return c.nodes, c.blocks + 1
}

// counter is the state of sizes' walk: open is whether text came since
// the last block boundary.
type counter struct {
	nodes, blocks int
	open          bool
	inPre         int
}

func (c *counter) boundary() {
	if c.open {
		c.blocks++
		c.open = false
	}
}

func (c *counter) walk(n dom.Node, depth int, opts Options) {
	c.nodes++
	a := n.Atom()
	pre := a == atom.Pre || a == atom.Listing || a == atom.Plaintext || a == atom.Xmp
	if pre {
		c.inPre++
	}
	isBoundary := a == atom.Br || !inline(a) && depth > 0
	if isBoundary {
		c.boundary()
	}
	if a == atom.Img && opts.ImageAlt {
		c.open = true
	}
	for k := n.FirstChild(); !k.Nil(); k = k.NextSibling() {
		switch k.Type() {
		case html.TextNode:
			data := k.Data()
			if !hasNonSpace(data) {
				continue
			}
			if c.inPre > 0 {
				c.blocks += strings.Count(data, "\n") // a block per line
			}
			c.open = true
		case html.ElementNode:
			c.walk(k, depth+1, opts)
		}
	}
	if isBoundary && a != atom.Br {
		c.boundary()
	}
	if pre {
		c.inPre--
	}
}
