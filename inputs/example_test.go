package inputs_test

import (
	"fmt"
	"slices"

	"github.com/sluice-project/sluice/inputs"
)

// The files taken from a directory, in natural order: HTML files by their
// ending; a .gz is taken as HTML, archives included, unless IsArchive is
// asked first, as sluice corpus does.
func ExampleIsHTML() {
	names := []string{"10.html", "2.htm", "notes.md", "crawl.warc.gz", "page.html.gz"}
	slices.SortFunc(names, func(a, b string) int {
		if inputs.NaturalLess(a, b) {
			return -1
		}
		return 1
	})
	for _, n := range names {
		fmt.Printf("%-14s html %-5v archive %v\n", n, inputs.IsHTML(n), inputs.IsArchive(n))
	}
	// Output:
	// 2.htm          html true  archive false
	// 10.html        html true  archive false
	// crawl.warc.gz  html true  archive true
	// notes.md       html false archive false
	// page.html.gz   html true  archive false
}
