package render

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/page"
)

// benchPage is a page of 400 blocks: a quarter dropped, the rest headings,
// paragraphs with continuations and list items.
func benchPage() *page.Page {
	p := &page.Page{Nodes: []page.Node{node("body", -1), node("h2", 0), node("p", 0), node("li", 0)}}
	p.Meta = page.Meta{URL: "http://example.com/bench", Title: "Bench & co", Encoding: "utf-8"}
	text := strings.Repeat("Some ordinary words of running text, with a & or a * now and then. ", 3)
	labels := []page.Label{page.Heading, page.Paragraph, page.Continuation, page.Other, page.ListItem, page.ListItem, page.Other, page.Paragraph}
	nodes := []int32{1, 2, 2, 0, 3, 3, 0, 2}
	for i := range 400 {
		k := i % len(labels)
		p.Blocks = append(p.Blocks, page.Block{Text: text, Node: nodes[k], Label: labels[k], Score: 0.5})
	}
	return p
}

func BenchmarkRender(b *testing.B) {
	p := benchPage()
	size := 0
	for _, bl := range p.Blocks {
		size += len(bl.Text)
	}
	for _, f := range Formats() {
		b.Run(f, func(b *testing.B) {
			r, _ := Lookup(f, Options{CleanEvalHeader: true})
			benchRender(b, r, p, size)
		})
	}
}

// BenchmarkRenderTable renders a page holding a data table of 2,000 rows
// and 5 columns (a header row, a header column) in every format, in the
// format's default table mode and in TablesBlocks for comparison.
func BenchmarkRenderTable(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("<html><body><p>A table of measurements follows.</p><table><tr><th></th><th>Length</th><th>Width</th><th>Depth</th><th>Weight</th></tr>")
	for i := range 2000 {
		fmt.Fprintf(&sb, "<tr><th>Item %d</th><td>%d.0mm</td><td>%d.5mm</td><td>%d.1mm</td><td>%dg</td></tr>", i, i, i+1, i+2, i+3)
	}
	sb.WriteString("</table></body></html>")
	p := keepAll(b, sb.String())
	size := 0
	for _, bl := range p.Blocks {
		size += len(bl.Text)
	}
	for _, f := range Formats() {
		for _, m := range []Tables{TablesDefault, TablesBlocks} {
			b.Run(f+"/"+m.String(), func(b *testing.B) {
				r, _ := Lookup(f, Options{Tables: m})
				benchRender(b, r, p, size)
			})
		}
	}
}

// benchRender renders p with r in a loop and reports the text bytes and
// pages a second.
func benchRender(b *testing.B, r Renderer, p *page.Page, size int) {
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		if err := r.Render(io.Discard, p); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pages/s")
}
