package site_test

import (
	"fmt"

	"github.com/sluice-project/sluice/ingest"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/segment"
	"github.com/sluice-project/sluice/site"
)

// segmentHTML is what the cleaner's Segment does, in short.
func segmentHTML(src string) *page.Page {
	doc, err := ingest.Parse([]byte(src), ingest.DefaultOptions())
	if err != nil {
		panic(err)
	}
	return segment.Segment(doc, segment.DefaultOptions())
}

func news(headline, text string) *page.Page {
	return segmentHTML(`<body><ul class="menu"><li><a href="/">Home</a></li><li><a href="/sport">Sport</a></li></ul>
<h1>` + headline + `</h1><p>` + text + `</p><p class="foot">© Example News</p></body>`)
}

// A Grouper sorts a stream of pages by host and hands back batches with the
// site model of their host; Apply then drops the template from each page
// (labelled before by the cleaner: here, everything kept).
func ExampleGrouper() {
	g := site.NewGrouper[string](site.GroupOptions{BatchSize: 3})
	stream := []struct{ host, headline string }{
		{"news.example", "Storm hits the coast"},
		{"blog.example", "My holiday"},
		{"news.example", "Elections next week"},
		{"news.example", "New bridge opens"},
	}
	var batches []site.Batch[string]
	for _, r := range stream {
		p := news(r.headline, "What happened: "+r.headline+".")
		batches = append(batches, g.Add(r.host, r.headline, p)...)
	}
	batches = append(batches, g.Flush()...)
	for _, b := range batches {
		for i, p := range b.Pages {
			for k := range p.Blocks {
				p.Blocks[k].Label, p.Blocks[k].Score = page.Paragraph, 1
			}
			dropped, _ := b.Apply(i)
			fmt.Printf("%s %q: %d template blocks dropped\n", b.Host, b.Items[i], dropped)
		}
	}
	// Output:
	// news.example "Storm hits the coast": 3 template blocks dropped
	// news.example "Elections next week": 3 template blocks dropped
	// news.example "New bridge opens": 3 template blocks dropped
	// blog.example "My holiday": 0 template blocks dropped
}

// A Builder counts the blocks of a host's pages; the Model says which blocks
// of a page recur on enough of the host's other pages.
func ExampleModel_Template() {
	b := site.NewBuilder(site.Options{})
	b.Add(news("Storm hits the coast", "The storm came at night."))
	b.Add(news("Elections next week", "Voters go to the polls."))
	m := b.Build()
	p := news("New bridge opens", "The bridge took five years.")
	for i, t := range m.Template(p, false) {
		fmt.Printf("%-5v %s\n", t, p.Blocks[i].Text)
	}
	// Output:
	// true  Home
	// true  Sport
	// false New bridge opens
	// false The bridge took five years.
	// true  © Example News
}

// MultiFile compares a page with a reference page of its site, level by
// level, as WC Cleaner does; Reference picks the reference by median size.
func ExampleMultiFile() {
	pages := []*page.Page{
		news("Storm hits the coast", "The storm came at night."),
		news("Elections next week", "Voters go to the polls next Tuesday."),
		news("New bridge opens", "The bridge took five years to build."),
	}
	sizes := []int{400, 420, 410} // bytes of HTML
	ref := pages[site.Reference(sizes)]
	p := pages[0]
	for i, common := range site.MultiFile(p, ref) {
		fmt.Printf("%-5v %s\n", common, p.Blocks[i].Text)
	}
	// Output:
	// true  Home
	// true  Sport
	// false Storm hits the coast
	// false The storm came at night.
	// true  © Example News
}
