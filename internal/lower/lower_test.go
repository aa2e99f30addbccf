package lower

import (
	"strings"
	"testing"
)

// TestInto: Into is strings.ToLower, without allocating for ASCII values
// that fit its buffer.
func TestInto(t *testing.T) {
	var buf [8]byte
	for _, v := range []string{"", "date", "Post-Date", "BYLINE", "AUTHORİTY", "ÉDITÉ", "a-very-long-class-name", "Kelvin\u212A"} {
		if got, want := Into(buf[:], v), strings.ToLower(v); got != want {
			t.Errorf("Into(%q) = %q, want %q", v, got, want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { Into(buf[:], "Byline") }); n != 0 {
		t.Errorf("Into allocates %v times for an ASCII value", n)
	}
}

func TestHasPrefix(t *testing.T) {
	for _, c := range []struct {
		s, word string
		want    bool
	}{
		{"Cookie-Banner", "cookie", true}, {"COOKIE", "cookie", true}, {"cook", "cookie", false},
		{"qc-cmp2", "qc-cmp", true}, {"qc\rcmp", "qc-cmp", false}, {"QC_CMP", "qc_cmp", true}, {"x", "", true},
	} {
		if got := HasPrefix(c.s, c.word); got != c.want {
			t.Errorf("HasPrefix(%q, %q) = %v", c.s, c.word, got)
		}
		if IsASCII(c.s) && len(c.s) >= len(c.word) {
			if want := strings.ToLower(c.s)[:len(c.word)] == c.word; want != c.want {
				t.Errorf("HasPrefix(%q, %q): strings.ToLower says %v", c.s, c.word, want)
			}
		}
	}
	if IsASCII("café") || !IsASCII("cafe") || !IsASCII("") {
		t.Error("IsASCII")
	}
}
