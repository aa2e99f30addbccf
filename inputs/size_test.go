package inputs

import "testing"

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"16M": 16 << 20, "512k": 512 << 10, "1048576": 1 << 20, "1.5GiB": 3 << 29, " 2 KB ": 2 << 10} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0", "-1M", "big", "M"} {
		if _, err := ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q): no error", in)
		}
	}
}
