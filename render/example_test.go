package render_test

import (
	"fmt"
	"os"

	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/render"
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
