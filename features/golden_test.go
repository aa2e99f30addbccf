package features

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/internal/pagetest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// TestAttrsGolden writes every feature group's keys and every block's
// attributes of ../testdata/example.html with the default configuration, and
// compares them with testdata/attrs.golden (go test -update
// rewrites it). The order of the attributes is part of what it checks.
func TestAttrsGolden(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "testdata", "example.html"))
	if err != nil {
		t.Fatal(err)
	}
	p := pagetest.Parse(t, string(src))
	var sb strings.Builder
	dump := func(title string, cfg Config) {
		e := extractor(t, cfg)
		sb.WriteString("== " + title + "\n")
		for _, g := range Groups() {
			sb.WriteString("keys " + string(g) + ": " + strings.Join(e.Keys(g), " ") + "\n")
		}
		for i, as := range e.Attrs(p) {
			names := make([]string, len(as))
			for k, a := range as {
				names[k] = a.Name
				if a.Value != 0 {
					names[k] += "=" + FormatBound(a.Value)
				}
			}
			sb.WriteString(FormatBound(float64(i)) + ": " + strings.Join(names, " ") + "\n")
		}
	}
	dump("default", DefaultConfig())
	path := filepath.Join("testdata", "attrs.golden")
	if *update {
		if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if got := sb.String(); got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("attrs.golden line %d:\ngot  %s\nwant %s", i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("attrs.golden: %d lines, want %d", len(gl), len(wl))
	}
}
