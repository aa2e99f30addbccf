package langid

import (
	"testing"

	"github.com/abadojack/whatlanggo"
)

// The written-out codes are whatlanggo's own: ISO 639-1 where a language
// has one, else ISO 639-3, with Persian and Yiddish by their
// macrolanguages; nothing else has a code.
func TestCodesAsWhatlanggo(t *testing.T) {
	for l := range whatlanggo.Langs {
		want := l.Iso6391()
		if want == "" {
			want = l.Iso6393()
		}
		switch l {
		case whatlanggo.Pes:
			want = "fa"
		case whatlanggo.Ydd:
			want = "yi"
		}
		if got := code(l); got != want {
			t.Errorf("%s: code %q, want %q", l, got, want)
		}
	}
	n := 0
	for _, c := range codes {
		if c != "" {
			n++
		}
	}
	if n != len(whatlanggo.Langs) {
		t.Errorf("%d codes for %d languages", n, len(whatlanggo.Langs))
	}
	if code(-1) != "" || code(whatlanggo.Lang(len(codes))) != "" {
		t.Error("a language outside the table has a code")
	}
}
