package metadata

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/net/html"

	"github.com/sluice-project/sluice/page"
)

// BenchmarkExtract reads the metadata of the CleanEval development pages
// (../shared/data; skipped when absent), parsed once beforehand.
func BenchmarkExtract(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "shared", "data", "cleaneval-dev", "html", "*"))
	if len(files) == 0 {
		b.Skip("no shared data")
	}
	var roots []*html.Node
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		root, err := html.Parse(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		roots = append(roots, root)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, r := range roots {
			var m page.Meta
			Extract(r, &m)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(roots)), "µs/page")
}
