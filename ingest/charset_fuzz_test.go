package ingest

import (
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"
)

// fuzzCharsets are decoded on every fuzz input, besides the detected one.
var fuzzCharsets = []string{
	"utf-8", "utf-16le", "utf-16be", "windows-1252", "windows-1251", "koi8-r", "iso-8859-8-i",
	"x-user-defined", "shift_jis", "euc-jp", "iso-2022-jp", "euc-kr", "gbk", "gb18030", "big5",
}

// FuzzDetectDecode checks that detection and decoding never panic, that the
// output is valid UTF-8, and that Original is monotone, within [0, len(b)],
// and maps the end of the output to the end of the input.
func FuzzDetectDecode(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "charset", "*.html"))
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, "", "")
	}
	f.Add([]byte(`<meta charset="utf-8"><p>caf`+"\xe9</p>"), "text/html; charset=utf-16", "utf8")
	f.Add([]byte("\xEF\xBB\xBF\xEF\xBB"), "", "")
	f.Add([]byte("\xFF\xFE\x00\xD8a"), "", "unset")
	f.Add([]byte("a\x1b$B\x46\x7c\x1b(Ib\x1b$(D\x1b"), "", "iso-2022-jp")
	f.Add([]byte("<!--><meta charset=koi8-r><script>x</script"), `text/html; charset="`, "")
	f.Fuzz(func(t *testing.T, b []byte, contentType, wrapper string) {
		c := DetectCharset(b, contentType, wrapper)
		checkDecode(t, c, b)
		for _, name := range fuzzCharsets {
			checkDecode(t, Charset{Name: name}, b)
		}
		checkDecode(t, Charset{Name: wrapper}, b)
	})
}

func checkDecode(t *testing.T, c Charset, b []byte) {
	out, m := c.Decode(b)
	if !utf8.Valid(out) {
		t.Fatalf("%s: Decode output is not valid UTF-8: %q", c.Name, out)
	}
	// Every offset for small outputs, a sample for large ones.
	step := 1 + len(out)/4096
	prev := m.Original(0)
	if prev < 0 || prev > len(b) {
		t.Fatalf("%s: Original(0) = %d, outside [0, %d]", c.Name, prev, len(b))
	}
	for off := 1; off <= len(out); off += step {
		o := m.Original(off)
		if o < prev || o > len(b) {
			t.Fatalf("%s: Original(%d) = %d after %d; input length %d", c.Name, off, o, prev, len(b))
		}
		prev = o
	}
	if got := m.Original(len(out)); got != len(b) {
		t.Fatalf("%s: Original(len(out)=%d) = %d, want %d", c.Name, len(out), got, len(b))
	}
}
