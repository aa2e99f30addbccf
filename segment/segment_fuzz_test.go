package segment

import (
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/sluice-project/sluice/ingest"
)

func FuzzSegment(f *testing.F) {
	for _, g := range []string{"../testdata/*.html", "../ingest/testdata/*/*"} {
		files, _ := filepath.Glob(g)
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil {
				f.Add(data)
			}
		}
	}
	f.Add([]byte("<body><pre>a\nb</pre><ul><li><a href=x>l</a></li></ul><img alt=y></body>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := ingest.Parse(data, ingest.DefaultOptions())
		if err != nil {
			return
		}
		p := Segment(doc, Options{ImageAlt: true, AbbrTitles: true})
		for i, b := range p.Blocks {
			if b.Text == "" || !utf8.ValidString(b.Text) {
				t.Fatalf("block %d: empty or invalid text %q", i, b.Text)
			}
			if b.LinkChars > b.Chars || b.Node < 0 || int(b.Node) >= len(p.Nodes) {
				t.Fatalf("block %d: inconsistent %+v", i, b)
			}
			if b.Source.Start < 0 || b.Source.End < b.Source.Start || b.Source.End > len(data) {
				t.Fatalf("block %d: span %v outside the input (%d bytes)", i, b.Source, len(data))
			}
		}
		for i, n := range p.Nodes {
			if n.First > n.End || int(n.End) > len(p.Blocks) || n.Parent >= int32(i) {
				t.Fatalf("node %d inconsistent: %+v", i, n)
			}
		}
	})
}
