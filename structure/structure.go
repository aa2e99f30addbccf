// Package structure gives the kept blocks of a scored page their CleanEval
// labels from HTML semantics (WC Cleaner, section 2.5): blocks in h1-h6 are
// headings, blocks in li, dt and dd list items, other blocks paragraphs, and
// a block that is not separated from the previous kept block by a block
// boundary or a double line break continues its segment.
package structure

import (
	"golang.org/x/net/html/atom"

	"github.com/sluice-project/sluice/page"
)

// Threshold is the score at or above which a block is kept.
const Threshold = 0.5

// Label sets the Label of every block of p: Other for blocks scoring below
// threshold, else the label its markup implies.
func Label(p *page.Page, threshold float64) {
	prevKept := false
	for i := range p.Blocks {
		b := &p.Blocks[i]
		if b.Score < threshold {
			b.Label = page.Other
			prevKept = false
			continue
		}
		if prevKept && Continues(b) {
			b.Label = page.Continuation
		} else {
			b.Label = Kind(p, b.Node)
		}
		prevKept = true
	}
}

// Continues reports whether the split evidence before b says it goes on
// with the previous block: only inline tags and at most one <br> crossed.
func Continues(b *page.Block) bool {
	return b.Split.Block == 0 && b.Split.BR < 2 && b.Split.HR == 0 && !b.Pre
}

// Kind returns the label of a block that starts a segment in element node:
// heading within h1-h6, list item within li, dt or dd (looking up to the
// enclosing cell or section), else paragraph.
func Kind(p *page.Page, node int32) page.Label {
	l := page.Paragraph
	p.Ancestors(node, func(_ int32, nd *page.Node) bool {
		switch nd.Atom {
		case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
			l = page.Heading
			return false
		case atom.Li, atom.Dt, atom.Dd:
			l = page.ListItem
			return false
		case atom.Td, atom.Th, atom.Table, atom.Div, atom.Section, atom.Article,
			atom.Body, atom.Blockquote, atom.Ul, atom.Ol, atom.Dl, atom.Main:
			return false
		}
		return true
	})
	return l
}
