package render_test

import (
	"fmt"
	"os"

	"github.com/sluice-project/sluice/ingest"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/render"
	"github.com/sluice-project/sluice/segment"
)

func ExampleLookup() {
	p := &page.Page{
		Nodes: []page.Node{{Tag: "body", Parent: -1}},
		Meta:  page.Meta{URL: "http://example.com/"},
		Blocks: []page.Block{
			{Text: "Home | News", Label: page.Other},
			{Text: "Eutrophication", Label: page.Heading},
			{Text: "Concentrations of the main plant nutrients", Label: page.Paragraph},
			{Text: "are generally low.", Label: page.Continuation},
			{Text: "phosphate", Label: page.ListItem},
			{Text: "nitrate", Label: page.ListItem},
		},
	}
	r, err := render.Lookup("cleaneval", render.Options{CleanEvalHeader: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := r.Render(os.Stdout, p); err != nil {
		fmt.Println(err)
	}
	// Output:
	// URL: http://example.com/
	//
	// <h> Eutrophication
	//
	// <p> Concentrations of the main plant nutrients are generally low.
	//
	// <l> phosphate
	//
	// <l> nitrate
}

func ExampleLookup_unknown() {
	_, err := render.Lookup("docx", render.Options{})
	fmt.Println(err)
	// Output:
	// render: unknown output format "docx"; the formats are:
	//	cleaneval  CleanEval segments: <p>, <h>, <l>
	//	text       plain text, a blank line between segments
	//	markdown   CommonMark
	//	json       one JSON object per document
	//	html       minimal HTML document
	//	parser     one sentence a line, lists flattened, for parsers
	//	xml        trafilatura's XML: <doc> with metadata, <main>
	//	tei        TEI P5 XML document
}

func ExampleStream() {
	r, _ := render.Lookup("cleaneval", render.Options{})
	s := render.NewStream(os.Stdout, r)
	for _, text := range []string{"First document.", "Second document."} {
		s.WritePage(&page.Page{Blocks: []page.Block{{Text: text, Label: page.Paragraph}}})
	}
	if err := s.Close(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// <doc>
	// <p> First document.
	// <doc>
	// <p> Second document.
}

// A data table is a GFM pipe table in markdown by default, and one clause
// per row in text with TablesLinear. Here every block is kept.
func ExampleTables() {
	src := `<table><caption>Dimensions</caption>
<tr><th></th><th>DS Lite</th><th>PSP</th></tr>
<tr><th>Length</th><td>133.0mm</td><td>170.0mm</td></tr>
<tr><th>Weight</th><td>218g</td><td>260g</td></tr></table>`
	doc, _ := ingest.Parse([]byte(src), ingest.DefaultOptions())
	p := segment.Segment(doc, segment.DefaultOptions())
	for i := range p.Blocks {
		p.Blocks[i].Label = page.Paragraph
	}
	for _, f := range []struct {
		format string
		tables render.Tables
	}{{"markdown", render.TablesDefault}, {"text", render.TablesLinear}} {
		r, _ := render.Lookup(f.format, render.Options{Tables: f.tables})
		r.Render(os.Stdout, p)
		fmt.Println("--")
	}
	// Output:
	// Dimensions
	//
	// |  | DS Lite | PSP |
	// | --- | --- | --- |
	// | Length | 133.0mm | 170.0mm |
	// | Weight | 218g | 260g |
	// --
	// Dimensions ;; DS Lite ; Length: 133.0mm / PSP ; Length: 170.0mm.
	//
	// Dimensions ;; DS Lite ; Weight: 218g / PSP ; Weight: 260g.
	// --
}

// The xml format writes a page's metadata as attributes of <doc> and its
// kept content in <main>; the tei format writes the same content as a TEI
// document.
func ExampleXML() {
	p := &page.Page{
		Nodes: []page.Node{{Tag: "body", Parent: -1}, {Tag: "h1", Parent: 0}, {Tag: "ul", Parent: 0}, {Tag: "li", Parent: 2}},
		Meta:  page.Meta{URL: "http://example.com/tea", Headline: "Tea", Author: "Ann"},
		Blocks: []page.Block{
			{Text: "Tea & biscuits", Node: 1, Label: page.Heading},
			{Text: "Green tea is steamed <not roasted>.", Node: 0, Label: page.Paragraph},
			{Text: "sencha", Node: 3, Label: page.ListItem},
			{Text: "matcha", Node: 3, Label: page.ListItem},
		},
	}
	r, _ := render.Lookup("xml", render.Options{})
	if err := r.Render(os.Stdout, p); err != nil {
		fmt.Println(err)
	}
	// Output:
	// <?xml version="1.0" encoding="UTF-8"?>
	// <doc title="Tea" author="Ann" url="http://example.com/tea" hostname="example.com">
	// <main>
	// <head rend="h1">Tea &amp; biscuits</head>
	// <p>Green tea is steamed &lt;not roasted&gt;.</p>
	// <list rend="ul">
	// <item>sencha</item>
	// <item>matcha</item>
	// </list>
	// </main>
	// </doc>
}
