// Package ascii finds where text stops being ASCII, eight and thirty-two
// bytes at a time: the scans that decide whether a page or a block can take
// the ASCII paths of decoding, word counting and lower-casing.
package ascii

// high has the top bit of every byte of a word set: a byte outside ASCII
// has it.
const high = 0x8080808080808080

// Prefix returns the index of the first byte of s outside ASCII (0x80 and
// above), or len(s) when it is all ASCII.
func Prefix[T ~string | ~[]byte](s T) int {
	// The rest of s is cut from its front, so that every index below
	// is a constant the loop's length test proves in bounds.
	rest := s
	for len(rest) >= 32 && (word(rest[:8])|word(rest[8:16])|word(rest[16:24])|word(rest[24:32]))&high == 0 {
		rest = rest[32:]
	}
	for len(rest) >= 8 && word(rest[:8])&high == 0 {
		rest = rest[8:]
	}
	if len(rest) < 8 && len(s) >= 8 && word(s[len(s)-8:])&high == 0 {
		return len(s) // the last eight bytes, read again from the end
	}
	for i := range len(rest) {
		if rest[i] >= 0x80 {
			return len(s) - len(rest) + i
		}
	}
	return len(s)
}

// Is reports whether s is all ASCII.
func Is[T ~string | ~[]byte](s T) bool { return Prefix(s) == len(s) }

// word returns the first eight bytes of b as a little-endian word; the
// one bounds check lets the compiler make the eight loads one.
func word[T ~string | ~[]byte](b T) uint64 {
	_ = b[7]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}
