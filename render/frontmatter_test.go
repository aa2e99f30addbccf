package render

import (
	"strings"
	"testing"

	"github.com/sluice-project/sluice/page"
)

// TestFrontMatter: text and markdown start with the metadata as YAML front
// matter when asked, each value quoted and escaped, unknown ones left out,
// one block a document in a stream.
func TestFrontMatter(t *testing.T) {
	p := &page.Page{Meta: page.Meta{Title: `The "mill"` + "\n" + `of \ Wey`, URL: "https://example.org/mill", Lang: "en", File: "pages/mill.html"},
		Blocks: []page.Block{{Text: "The wheel turns.", Label: page.Paragraph}}}
	want := "---\n" + `title: "The \"mill\"\nof \\ Wey"` + "\n" + `url: "https://example.org/mill"` + "\n" +
		`host: "example.org"` + "\n" + `language: "en"` + "\n" + `file: "pages/mill.html"` + "\n---\n\n"
	for _, f := range []string{"text", "markdown"} {
		r, err := Lookup(f, Options{Metadata: true})
		if err != nil {
			t.Fatal(err)
		}
		var sb strings.Builder
		s := NewStream(&sb, r)
		for range 2 {
			if err := s.WritePage(p); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		out := sb.String()
		if !strings.HasPrefix(out, want) || strings.Count(out, want) != 2 || !strings.Contains(out, "The wheel turns.") {
			t.Errorf("%s:\n%s", f, out)
		}
		r, _ = Lookup(f, Options{})
		sb.Reset()
		if err := r.Render(&sb, p); err != nil || strings.Contains(sb.String(), "---") {
			t.Errorf("%s without Metadata: %q, %v", f, sb.String(), err)
		}
	}
}
