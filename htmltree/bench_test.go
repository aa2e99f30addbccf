package htmltree_test

import (
	"testing"

	"github.com/sluice-project/sluice/dataset"
	"github.com/sluice-project/sluice/htmltree"
)

// benchPages returns the decoded cleaneval-dev pages, or skips.
func benchPages(b *testing.B) [][]byte {
	b.Helper()
	s, err := dataset.Open("cleaneval-dev")
	if err != nil {
		b.Skipf("no cleaneval-dev: %v", err)
	}
	var pages [][]byte
	for p, err := range s.Pages() {
		if err != nil {
			b.Fatal(err)
		}
		pages = append(pages, decodePage(p))
	}
	return pages
}

// runPages runs fn over every page per iteration and reports per page.
func runPages(b *testing.B, pages [][]byte, fn func([]byte)) {
	total := 0
	for _, p := range pages {
		total += len(p)
	}
	b.SetBytes(int64(total / len(pages)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		fn(pages[i%len(pages)])
	}
}

// BenchmarkBuild builds the tree of each page with one reused Builder.
func BenchmarkBuild(b *testing.B) {
	pages := benchPages(b)
	var bd htmltree.Builder
	runPages(b, pages, func(p []byte) { bd.Build(p) })
}

// BenchmarkBuildFresh builds each tree with a new Builder (htmltree.Build).
func BenchmarkBuildFresh(b *testing.B) {
	pages := benchPages(b)
	runPages(b, pages, func(p []byte) { htmltree.Build(p) })
}

// BenchmarkParse is html.Parse (scripting off, as ingest) of the same pages.
func BenchmarkParse(b *testing.B) {
	pages := benchPages(b)
	runPages(b, pages, func(p []byte) {
		if _, err := refParse(p); err != nil {
			b.Fatal(err)
		}
	})
}
