package ascii

import (
	"strconv"
	"strings"
	"testing"
)

// prefixBytes is Prefix one byte at a time, the reading it must equal.
func prefixBytes(s string) int {
	for i := range len(s) {
		if s[i] >= 0x80 {
			return i
		}
	}
	return len(s)
}

// Every length up to three words past the 32-byte stride, with the first
// non-ASCII byte at every place (and none), as a string and as bytes.
func TestPrefixEveryPlace(t *testing.T) {
	for n := range 100 {
		base := strings.Repeat("a", n)
		for at := -1; at < n; at++ {
			s := base
			if at >= 0 {
				s = base[:at] + "\xc3" + base[at+1:]
			}
			want := prefixBytes(s)
			if got := Prefix(s); got != want {
				t.Fatalf("Prefix(%q) = %d, want %d", s, got, want)
			}
			if got := Prefix([]byte(s)); got != want {
				t.Fatalf("Prefix([]byte(%q)) = %d, want %d", s, got, want)
			}
			if Is(s) != (want == n) {
				t.Fatalf("Is(%q) = %v", s, Is(s))
			}
		}
	}
}

func FuzzPrefix(f *testing.F) {
	f.Add("plain words")
	f.Add("caf\u00e9 au lait, thirty-two bytes and then some more")
	f.Add("\x80")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Prefix(s), prefixBytes(s); got != want {
			t.Errorf("Prefix(%q) = %d, want %d", s, got, want)
		}
	})
}

func BenchmarkPrefix(b *testing.B) {
	for _, n := range []int{12, 60, 4096} {
		s := strings.Repeat("x", n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for b.Loop() {
				Prefix(s)
			}
		})
	}
}
