// Package render writes labelled pages out in the formats users ask for:
// CleanEval text, plain text, Markdown, JSON, HTML, text for parsers, and
// XML in trafilatura's shape and as TEI.
//
// Renderers never re-decide content. The decide stage has given every block
// a page.Label; a renderer groups the kept blocks into segments (see
// Segments) and writes them, one construct per format file:
//
//	cleaneval.go  CleanEval annotation format (<p>, <h>, <l> segments)
//	text.go       plain text, a blank line between segments
//	markdown.go   CommonMark with escaping
//	json.go       one JSON object per document (JSON Lines in a stream)
//	html.go       a minimal, clean HTML document
//	parser.go     one sentence a line for parsers (package parsertext)
//	xml.go        trafilatura's XML: <doc> with the metadata, <main>
//	tei.go        TEI P5 XML, its header from the metadata
//	table.go      how data tables are written (Tables: blocks, clauses,
//	              pipe tables, <table>, JSON cells with roles)
//	links.go      the links and images of a page that records them
//	              (page.Page.Links, Images) in markdown, html, xml and tei
//
// Use Lookup to get a Renderer by name and Stream to write several documents
// to one output with the separator each format defines.
package render

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/parsertext"
)

// Renderer writes one labelled page in one output format. Renderers hold no
// per-document state and are safe for concurrent use.
type Renderer interface {
	// Render writes page p to w. It returns the first write error. When w
	// is a *bufio.Writer the output is left in its buffer for the caller
	// to flush; otherwise Render buffers internally and flushes before it
	// returns.
	Render(w io.Writer, p *page.Page) error
}

// Options configures the renderers. The zero value is the default: bare
// CleanEval segments, only kept blocks in JSON.
type Options struct {
	// CleanEvalHeader makes the cleaneval format start with the line
	// "URL: <url>" followed by a blank line, as the CleanEval gold files
	// and Victor's --format cleaneval output do.
	CleanEvalHeader bool
	// CleanEvalWrapper makes the cleaneval format wrap each document in
	// the CleanEval input wrapper, <text id="URL" title="TITLE"> ... </text>,
	// with the attribute values escaped. The gold files have no wrapper, so
	// leave it off for output that is scored against them.
	CleanEvalWrapper bool
	// IncludeDropped makes the json format list every block, the dropped
	// ones (label "other") included, instead of only the kept blocks.
	IncludeDropped bool
	// Parser configures the parser format (package parsertext).
	Parser parsertext.Options
	// Tables says how every format writes data tables (see Tables). The
	// default, TablesDefault, is each format's own: blocks in cleaneval
	// and text, a pipe table in markdown, a <table> in html, a "tables"
	// array beside the blocks in json, one clause a line in parser.
	Tables Tables
	// BlockLanguages makes the json format give the language of each kept
	// block in another language than the page's (JSON.BlockLanguages).
	BlockLanguages bool
	// Metadata makes the text and markdown formats start each document
	// with its metadata as YAML front matter (sluice clean
	// --with-metadata); the json format has fields of its own.
	Metadata bool
}

// Segment is a run of kept blocks that forms one CleanEval segment: a
// heading, a paragraph or a list item.
type Segment struct {
	// Label is Heading, Paragraph or ListItem (or a later segment-opening
	// label); never Other or Continuation.
	Label page.Label
	// Text is the blocks' texts joined by a single space, or by a newline
	// before a block that is a preformatted line (Block.Pre).
	Text string
	// Blocks are the indices in Page.Blocks of the segment's blocks, in
	// order. The first one opened the segment.
	Blocks []int
	// Pre is true when the segment opens with a line of preformatted text.
	Pre bool
}

// Segments groups the kept blocks of p into segments:
//
//   - a block labelled Other is dropped and does not end the open segment;
//   - Heading, Paragraph and ListItem (and any other kept label) open a new
//     segment with that label;
//   - Continuation continues the open segment, joined with a single space,
//     or with a newline when the block is a preformatted line; with no open
//     segment it opens a Paragraph.
//
// Non-preformatted blocks with empty text add nothing to the text, and a
// segment whose text ends up empty is left out. All formats build on this.
func Segments(p *page.Page) []Segment {
	segs, _ := segmentsAround(p, nil, 0)
	return segs
}

// tableAt places the data table views[tab] of a page before segment at.
type tableAt struct{ at, tab int }

// segmentsAround is Segments leaving out the blocks whose owner is not
// -1 (the data tables written as tables, see tables.Views): the first kept
// block of each such table ends the open segment, and the table's place is
// returned instead. owner nil leaves out nothing; owners are below
// tabs.
func segmentsAround(p *page.Page, owner []int32, tabs int) ([]Segment, []tableAt) {
	var marks []tableAt
	var placed []bool
	if owner != nil {
		placed = make([]bool, tabs)
	}
	kept := 0
	for i := range p.Blocks {
		if p.Blocks[i].Label.Kept() {
			kept++
		}
	}
	if kept == 0 {
		return nil, nil
	}
	// One backing array for every segment's Blocks.
	idx := make([]int, 0, kept)
	segs := make([]Segment, 0, kept)
	var sb strings.Builder
	open := false   // a segment is open
	joined := false // the open segment's text is in sb, not a block's Text
	start := 0      // start in idx of the open segment's blocks
	var cur Segment
	finish := func() {
		if !open {
			return
		}
		if joined {
			cur.Text = sb.String()
		}
		cur.Blocks = idx[start:len(idx):len(idx)]
		if cur.Text != "" {
			segs = append(segs, cur)
		}
		open = false
	}
	for i := range p.Blocks {
		b := &p.Blocks[i]
		if !b.Label.Kept() {
			continue
		}
		if owner != nil && owner[i] >= 0 {
			if t := owner[i]; !placed[t] {
				placed[t] = true
				finish()
				marks = append(marks, tableAt{len(segs), int(t)})
			}
			continue
		}
		if b.Label == page.Continuation && open {
			idx = append(idx, i)
			if b.Text == "" && !b.Pre {
				continue
			}
			if !joined {
				sb.Reset()
				sb.WriteString(cur.Text)
				joined = true
			}
			if b.Pre {
				sb.WriteByte('\n')
			} else if sb.Len() > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(b.Text)
			continue
		}
		finish()
		l := b.Label
		if l == page.Continuation {
			l = page.Paragraph
		}
		cur = Segment{Label: l, Text: b.Text, Pre: b.Pre}
		open, joined, start = true, false, len(idx)
		idx = append(idx, i)
	}
	finish()
	return segs, marks
}

// headingLevel returns the level (1 to 6) of the innermost h1..h6 element
// containing block b, or 2 when there is none.
func headingLevel(p *page.Page, b int) int {
	level := 2
	if b < 0 || b >= len(p.Blocks) {
		return level
	}
	p.Ancestors(p.Blocks[b].Node, func(_ int32, nd *page.Node) bool {
		t := nd.Tag
		if len(t) == 2 && t[0] == 'h' && t[1] >= '1' && t[1] <= '6' {
			level = int(t[1] - '0')
			return false
		}
		return true
	})
	return level
}

// segmentLevel is headingLevel for the block that opened s.
func segmentLevel(p *page.Page, s *Segment) int {
	if len(s.Blocks) == 0 {
		return 2
	}
	return headingLevel(p, s.Blocks[0])
}

// docWriter is implemented by every built-in renderer: it writes documents
// one after the other, so that Stream can put the format's separator (or
// container) around them.
type docWriter interface {
	// writeDoc writes p as document number i of a stream (from 0), or as a
	// standalone document when i < 0.
	writeDoc(b *bufio.Writer, p *page.Page, i int) error
	// endStream ends a stream of n documents.
	endStream(b *bufio.Writer, n int) error
}

// format is one entry of the registry.
type format struct {
	name    string
	aliases []string
	about   string
	ext     string // the ending of its files, as Ext gives it
	make    func(Options) Renderer
}

// formats is the registry, in the order Formats reports it.
var formats = [...]format{
	{"cleaneval", []string{"ce"}, "CleanEval segments: <p>, <h>, <l>", ".txt", func(o Options) Renderer {
		return &CleanEval{Header: o.CleanEvalHeader, Wrapper: o.CleanEvalWrapper, Tables: o.Tables}
	}},
	{"text", []string{"txt", "plain"}, "plain text, a blank line between segments", ".txt", func(o Options) Renderer { return Text{Tables: o.Tables, Metadata: o.Metadata} }},
	{"markdown", []string{"md"}, "CommonMark", ".md", func(o Options) Renderer { return Markdown{Tables: o.Tables, Metadata: o.Metadata} }},
	{"json", nil, "one JSON object per document", ".json", func(o Options) Renderer {
		return &JSON{IncludeDropped: o.IncludeDropped, Tables: o.Tables, BlockLanguages: o.BlockLanguages}
	}},
	{"html", []string{"htm"}, "minimal HTML document", ".html", func(o Options) Renderer { return HTML{Tables: o.Tables} }},
	{"parser", nil, "one sentence a line, lists flattened, for parsers", ".txt", func(o Options) Renderer { return Parser{Options: o.Parser, Tables: o.Tables} }},
	{"xml", nil, "trafilatura's XML: <doc> with metadata, <main>", ".xml", func(o Options) Renderer { return XML{Tables: o.Tables} }},
	{"tei", []string{"xmltei"}, "TEI P5 XML document", ".xml", func(o Options) Renderer { return TEI{Tables: o.Tables} }},
}

// Formats returns the names of the output formats, in a fixed order.
func Formats() []string {
	names := make([]string, len(formats))
	for i := range formats {
		names[i] = formats[i].name
	}
	return names
}

// Ext returns the file name ending of the format called name (as Lookup
// reads it: ".txt", ".md", ".json", ".html"...), or ".txt" for an unknown
// name.
func Ext(name string) string {
	if f := lookup(name); f != nil {
		return f.ext
	}
	return ".txt"
}

// lookup returns the registry entry of the format called name, or nil.
func lookup(name string) *format {
	n := strings.ToLower(strings.TrimSpace(name))
	for i := range formats {
		f := &formats[i]
		if n == f.name || slices.Contains(f.aliases, n) {
			return f
		}
	}
	return nil
}

// Lookup returns the renderer for the format called name (case-insensitive;
// the short names ce, txt, plain, md, htm and xmltei are accepted too), configured
// by opts. The error for an unknown name lists the formats.
func Lookup(name string, opts Options) (Renderer, error) {
	if f := lookup(name); f != nil {
		return f.make(opts), nil
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "render: unknown output format %q; the formats are:", name)
	for i := range formats {
		fmt.Fprintf(&sb, "\n\t%-10s %s", formats[i].name, formats[i].about)
	}
	return nil, errors.New(sb.String())
}

// bufPool holds the buffered writers that Render uses when its writer is
// not already a *bufio.Writer.
var bufPool = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 16<<10) }}

// renderDoc writes p standalone through a buffer and flushes it. When w is
// already a *bufio.Writer it is written to directly and not flushed.
func renderDoc(w io.Writer, p *page.Page, d docWriter) error {
	if bw, ok := w.(*bufio.Writer); ok {
		return d.writeDoc(bw, p, -1)
	}
	bw := bufPool.Get().(*bufio.Writer)
	bw.Reset(w)
	err := d.writeDoc(bw, p, -1)
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	bw.Reset(nil)
	bufPool.Put(bw)
	return err
}

// Stream writes several documents to one writer in one format, with the
// separator that format defines between them:
//
//   - cleaneval: a line "<doc>" before each document, as WC Cleaner's
//     --clave option does, so that the output splits on "<doc>" lines;
//   - text: a line holding a single form feed (U+000C) between documents;
//   - markdown: a thematic break "* * *" between documents, with a blank
//     line on each side (the renderer escapes a leading "*" in text, so it
//     only appears as a separator outside code blocks);
//   - json: JSON Lines, one object per line and nothing else;
//   - html: one HTML document whose body holds an
//     <article data-url="..." data-title="..."> per input document;
//   - xml: one XML document whose root <docs> holds a <doc> per input
//     document;
//   - tei: one <teiCorpus> with a corpus header and a <TEI> per input
//     document.
//
// A Renderer that is not one of this package's is called for each document
// with nothing between them. Stream buffers its output: call Close (or
// Flush) at the end. A Stream is not safe for concurrent use.
type Stream struct {
	bw  *bufio.Writer
	r   Renderer
	d   docWriter // nil for a foreign Renderer
	n   int
	err error
}

// NewStream returns a Stream writing documents rendered by r to w.
func NewStream(w io.Writer, r Renderer) *Stream {
	s := &Stream{bw: bufio.NewWriterSize(w, 64<<10), r: r}
	s.d, _ = r.(docWriter)
	return s
}

// WritePage writes p as the next document of the stream.
func (s *Stream) WritePage(p *page.Page) error {
	if s.err != nil {
		return s.err
	}
	if s.d != nil {
		s.err = s.d.writeDoc(s.bw, p, s.n)
	} else {
		s.err = s.r.Render(s.bw, p)
	}
	s.n++
	return s.err
}

// Count returns the number of documents written so far.
func (s *Stream) Count() int { return s.n }

// Flush writes buffered output to the underlying writer.
func (s *Stream) Flush() error {
	if s.err != nil {
		return s.err
	}
	s.err = s.bw.Flush()
	return s.err
}

// Close ends the stream (the html, xml and tei formats close their
// document here) and flushes it. It does not close the underlying writer.
// Writing after Close is an error.
func (s *Stream) Close() error {
	if s.err != nil {
		return s.err
	}
	if s.d != nil {
		s.err = s.d.endStream(s.bw, s.n)
	}
	if s.err == nil {
		s.err = s.bw.Flush()
	}
	if s.err == nil {
		s.err = errClosed
		return nil
	}
	return s.err
}

// bufErr returns the sticky error of b, if any write failed.
func bufErr(b *bufio.Writer) error {
	_, err := b.Write(nil)
	return err
}

var errClosed = errors.New("render: write to a closed Stream")
