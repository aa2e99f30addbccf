package htmlscan

import (
	"io"
	"slices"
	"strings"
	"testing"
)

func TestRawTextEnd(t *testing.T) {
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
		end, ok := RawTextEnd([]byte(c.src), 0, c.name)
		if end != c.end || ok != c.ok {
			t.Errorf("RawTextEnd(%q, %q) = %d, %v; want %d, %v", c.src, c.name, end, ok, c.end, c.ok)
		}
	}
}

// TestReaderPieces reads a page through a Reader in buffers of 64 bytes
// and checks that the pieces end just after each '>'.
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
		r.Passed(r.Pos)
	}
	want := []int{3, 11, 24, 27, 37, 40, 44}
	if !slices.Equal(ends, want) {
		t.Fatalf("pieces end at %v, want %v", ends, want)
	}
}

// TestReaderStopsBounded reads one long token full of '>' without a
// Passed: after maxStops pieces, each piece holds at least as much again
// as the token has had, so the pieces are few.
func TestReaderStopsBounded(t *testing.T) {
	src := []byte("<!-- " + strings.Repeat(">", 1<<20) + " -->")
	var r Reader
	r.Reset(src)
	reads := 0
	buf := make([]byte, len(src))
	for {
		if _, err := r.Read(buf); err == io.EOF {
			break
		}
		reads++
	}
	if limit := maxStops + 12; reads > limit {
		t.Errorf("%d reads for one token, want at most %d", reads, limit)
	}
}
