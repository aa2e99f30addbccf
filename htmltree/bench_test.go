package htmltree_test

import (
	"cmp"
	"os"
	"testing"

	"github.com/sluice-project/sluice/dataset"
	"github.com/sluice-project/sluice/htmltree"
)

// benchPages returns the decoded pages of cleaneval-dev, or of the set
// SLUICE_BENCH_SET names, or skips.
func benchPages(b *testing.B) [][]byte {
	b.Helper()
	set := cmp.Or(os.Getenv("SLUICE_BENCH_SET"), "cleaneval-dev")
	s, err := dataset.Open(set)
	if err != nil {
		b.Skipf("no %s: %v", set, err)
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

// BenchmarkBuildRawText builds each tree with the builder reading script
// and style text itself (as Build does) and with the tokenizer reading it.
func BenchmarkBuildRawText(b *testing.B) {
	pages := benchPages(b)
	for _, on := range []bool{true, false} {
		name := map[bool]string{true: "builder", false: "tokenizer"}[on]
		b.Run(name, func(b *testing.B) {
			var bd htmltree.Builder
			htmltree.SetRawSkip(&bd, on)
			runPages(b, pages, func(p []byte) { bd.Build(p) })
		})
	}
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
