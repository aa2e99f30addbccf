package mix

import "testing"

// The first outputs of SplitMix64 seeded with 0 (the generator adds
// 0x9e3779b97f4a7c15 before each finalisation), as its reference
// implementation gives them.
func TestMix64(t *testing.T) {
	want := []uint64{0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f}
	var s uint64
	for i, w := range want {
		s += 0x9e3779b97f4a7c15
		if got := Mix64(s); got != w {
			t.Errorf("output %d = %#x, want %#x", i, got, w)
		}
	}
}
