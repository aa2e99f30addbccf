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
