package ingest

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// BenchmarkConsentValues checks the id and class values of the WCXB
// development pages (../shared/data; skipped when absent), whole and
// name by name.
func BenchmarkConsentValues(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "shared", "data", "wcxb-dev", "html", "*"))
	if len(files) == 0 {
		b.Skip("no shared data")
	}
	re := regexp.MustCompile(`(?i)\s(?:class|id)="([^"]*)"`)
	var vals []string
	for _, f := range files[:min(len(files), 200)] {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		if zr, err := gzip.NewReader(bytes.NewReader(data)); err == nil {
			if data, err = io.ReadAll(zr); err != nil {
				b.Fatal(err)
			}
		}
		for _, m := range re.FindAllSubmatch(data, -1) {
			vals = append(vals, string(m[1]))
		}
	}
	for name, fn := range map[string]func(string) bool{"whole": consentValue, "names": consentByName} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				for _, v := range vals {
					fn(v)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(vals)), "ns/value")
		})
	}
}
