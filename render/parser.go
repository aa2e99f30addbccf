package render

import (
	"bufio"
	"io"

	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/parsertext"
)

// Parser writes text for syntactic parsers: the kept content with lists
// flattened, bullets stripped, full stops added and <br>-cut sentences
// joined (package parsertext, after Kitten), one sentence a line, UTF-8.
//
// Data tables (see Tables) are written as one clause a line by default
// (parsertext.Options.Tables, whatever Options says); with TablesBlocks as
// their cells' blocks.
//
// In a Stream, documents are separated by a blank line.
type Parser struct {
	// Options configures package parsertext: the language of the word
	// lists and a callback for the link-list items removed.
	Options parsertext.Options
	// Tables says how data tables are written; default TablesLinear.
	Tables Tables
}

// Render writes p as one sentence a line.
func (r Parser) Render(w io.Writer, p *page.Page) error { return renderDoc(w, p, r) }

func (r Parser) writeDoc(b *bufio.Writer, p *page.Page, i int) error {
	if i > 0 {
		b.WriteByte('\n')
	}
	opts := r.Options
	opts.Tables = r.Tables.or(TablesLinear) != TablesBlocks
	for _, s := range parsertext.Sentences(p, opts) {
		b.WriteString(s)
		b.WriteByte('\n')
	}
	return bufErr(b)
}

func (Parser) endStream(*bufio.Writer, int) error { return nil }
