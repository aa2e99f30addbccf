package textpattern

import "strings"

// UUIDBytes returns how many bytes of s are UUIDs in their text form
// (8-4-4-4-12 hexadecimal digits, as "f47ac10b-58cc-4372-a567-0e02b2c3d479"),
// which are machine identifiers, not words: pages print them in spans a
// style sheet moves off the screen, to trip scrapers up. It looks only
// where s has a hyphen and does not allocate.
func UUIDBytes(s string) int {
	n := 0
	for off := 0; ; {
		k := strings.IndexByte(s[off:], '-')
		if k < 0 {
			return n
		}
		at := off + k - 8 // where a UUID whose first hyphen this is starts
		if at >= 0 && isUUID(s[at:]) {
			n += uuidLen
			off = at + uuidLen
			continue
		}
		off += k + 1
	}
}

// uuidLen is the length of a UUID's text form.
const uuidLen = 36

// isUUID reports whether s starts with a UUID's text form.
func isUUID(s string) bool {
	if len(s) < uuidLen {
		return false
	}
	for i := range uuidLen {
		switch c := s[i]; i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !isHex(c) {
				return false
			}
		}
	}
	return true
}

func isHex(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
