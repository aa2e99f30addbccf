package ingest

import (
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"
)

// addSeeds adds every file of the repository's testdata folders to the
// fuzz corpus.
func addSeeds(f *testing.F, globs ...string) {
	for _, g := range globs {
		files, _ := filepath.Glob(g)
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil {
				f.Add(data)
			}
		}
	}
	f.Add([]byte("<text id=\"u\" title=\"t\" encoding=\"utf-8\"><p>x</p></text>"))
	f.Add([]byte("<title>unclosed<body><p>x"))
	f.Add([]byte("<div><div><div><p>a<br>b</div>"))
	f.Add([]byte("<style>p{x:y}<p>a</p><script src=s>x<textarea>y"))
	f.Add([]byte("<script>if (a<b) {}</head><body><noframes><p>x</p>"))
	f.Add([]byte("<p>a\x00b</p>"))
}

func FuzzParse(f *testing.F) {
	addSeeds(f, "../testdata/*.html", "testdata/*/*")
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, parser := range []string{ParserHTML, ParserArena} {
			opts := DefaultOptions()
			opts.Parser = parser
			if d, err := Parse(data, opts); err == nil {
				checkDocument(t, d, data)
			}
		}
	})
}

// checkDocument checks that a document's text is UTF-8 and its spans lie
// in the text and map into the input data.
func checkDocument(t *testing.T, d *Document, data []byte) {
	t.Helper()
	if !utf8.Valid(d.Text) {
		t.Fatalf("decoded text is not UTF-8")
	}
	for _, sp := range d.TextSpans {
		if sp.Start < 0 || sp.End < sp.Start || sp.End > len(d.Text) {
			t.Fatalf("span %v outside the text (%d bytes)", sp, len(d.Text))
		}
		if o := d.Original(sp.End); o < 0 || o > len(data) {
			t.Fatalf("original offset %d outside the input (%d bytes)", o, len(data))
		}
	}
}
