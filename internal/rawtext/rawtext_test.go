package rawtext

import (
	"io"
	"testing"
)

func TestEnd(t *testing.T) {
	for _, c := range []struct {
		src, name string
		end       int
		ok        bool
	}{
		{"abc</script>", "script", 3, true},
		{"a</scr>b</SCRIPT\t>", "script", 8, true},
		{"a</scriptx>b</script/>", "script", 12, true},
		{"a</script", "script", 0, false},           // no byte after the name
		{"abc", "script", 0, false},                 // no end
		{"<!-- x --></script>", "script", 0, false}, // escapes: the tokenizer reads it
		{"<!-- p{} --></style>", "style", 12, true}, // a style's text has none
		{"", "style", 0, false},
	} {
		end, ok := End([]byte(c.src), 0, c.name)
		if end != c.end || ok != c.ok {
			t.Errorf("End(%q, %q) = %d, %v; want %d, %v", c.src, c.name, end, ok, c.end, c.ok)
		}
	}
}

// TestReaderPieces reads a page through a Reader in buffers of 64 bytes
// and checks where the pieces end: at the mark after "<script", then at
// each '>' until the tag's token has been passed, at most maxStops times.
func TestReaderPieces(t *testing.T) {
	src := []byte(`<p>text</p><SCRIPT a="x>y">z</SCRIPT><p>` + "more")
	var r Reader
	r.Reset(src)
	var ends []int
	buf := make([]byte, 64)
	for {
		n, err := r.Read(buf)
		if err == io.EOF {
			break
		}
		ends = append(ends, r.Pos)
		if n == 0 {
			t.Fatal("Read returned no bytes and no error")
		}
		if r.Pos == 27 { // the tag's closing '>' read: the builder passes its token
			r.Passed(27)
		}
	}
	want := []int{18, 24, 27, 44}
	if len(ends) != len(want) {
		t.Fatalf("pieces end at %v, want %v", ends, want)
	}
	for i := range want {
		if ends[i] != want[i] {
			t.Fatalf("pieces end at %v, want %v", ends, want)
		}
	}
}

func TestReaderStopsBounded(t *testing.T) {
	src := []byte("<!-- <script >>>>>>>>>>>>>>>>>>>>>>>>>>>>>>> -->")
	var r Reader
	r.Reset(src)
	reads := 0
	buf := make([]byte, 4096)
	for {
		if _, err := r.Read(buf); err == io.EOF {
			break
		}
		reads++
	}
	if reads > maxStops+2 {
		t.Errorf("%d reads for one mark, want at most %d", reads, maxStops+2)
	}
}
