package dataset

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// addFiles adds the files matching pattern as seeds.
func addFiles(f *testing.F, pattern string) {
	files, _ := filepath.Glob(pattern)
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
}

func FuzzDecodeText(f *testing.F) {
	addFiles(f, "testdata/*/gold/*.txt")
	f.Add([]byte("\xff\xfe\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		s := decodeText(b)
		if !utf8.ValidString(s) && !strings.HasPrefix(string(b), "\xff\xfe") && !strings.HasPrefix(string(b), "\xfe\xff") {
			t.Errorf("decodeText(%q) = %q: invalid UTF-8", b, s)
		}
		if utf8.Valid(b) && !strings.HasPrefix(string(b), "\xef\xbb\xbf") && s != string(b) {
			t.Errorf("decodeText changed valid UTF-8 %q to %q", b, s)
		}
	})
}

func FuzzParseCleanEval(f *testing.F) {
	addFiles(f, "testdata/cleaneval/gold/*.txt")
	f.Fuzz(func(t *testing.T, b []byte) {
		url, segs := parseCleanEval(decodeText(b))
		if strings.ContainsAny(url, "\r\n") {
			t.Errorf("URL %q has a line break", url)
		}
		for _, s := range segs {
			if s.Text == "" || s.Text != collapse(s.Text) || !s.Label.Kept() || s.Label.Tag() == "" {
				t.Errorf("bad segment %+v", s)
			}
		}
	})
}

func FuzzDragnet(f *testing.F) {
	addFiles(f, "testdata/dragnet/gold/*.txt")
	f.Fuzz(func(t *testing.T, b []byte) {
		var p Page
		readDragnet(&p, b)
		for _, s := range []string{p.Gold.Text, p.Gold.Comments} {
			if strings.Contains(s, "\n\n\n") || strings.ContainsRune(s, '\r') {
				t.Errorf("bad layout %q", s)
			}
		}
	})
}

func FuzzHTMLGold(f *testing.F) {
	addFiles(f, "testdata/l3s/annotated/*.html")
	addFiles(f, "testdata/readability/expected/*.txt")
	f.Fuzz(func(t *testing.T, b []byte) {
		var p, q Page
		if err := readL3S(&p, b); err != nil {
			return // the parser refused it (too deep): an error, not a panic
		}
		last := -1
		for _, s := range p.Gold.Spans {
			if s.Text == "" || s.Block < last || s.Class < 0 || s.Class > 9 {
				t.Errorf("bad span %+v after block %d", s, last)
			}
			last = s.Block
		}
		_ = p.Gold.SpanText(0, 1, 2, 3, 4, 5)
		if err := readReadability(&q, b); err != nil {
			return
		}
		if q.Gold.Text != segmentsText(q.Gold.Segments) {
			t.Errorf("Text %q is not the segments' text", q.Gold.Text)
		}
	})
}

func FuzzWCXB(f *testing.F) {
	addFiles(f, "testdata/wcxb/gold/*.json")
	f.Fuzz(func(t *testing.T, b []byte) {
		var p Page
		_ = readWCXB(&p, b)
	})
}
