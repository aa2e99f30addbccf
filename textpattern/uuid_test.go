package textpattern

import "testing"

func TestUUIDBytes(t *testing.T) {
	for s, want := range map[string]int{
		"":                                     0,
		"f47ac10b-58cc-4372-a567-0e02b2c3d479": 36,
		"S19aea247-2e76-4905-9b83-15a5a5664cfaG661bd3c3-576f-4713-baee-9dc0dd7c3568p": 72,
		"Order F47AC10B-58CC-4372-A567-0E02B2C3D479 shipped":                          36,
		"a well-known, long-standing mill":                                            0,
		"f47ac10b-58cc-4372-a567-0e02b2c3d47":                                         0, // one digit short
		"2024-03-12 and 555-123-4567":                                                 0,
		"f47ac10g-58cc-4372-a567-0e02b2c3d479":                                        0, // g is no hex digit
	} {
		if got := UUIDBytes(s); got != want {
			t.Errorf("UUIDBytes(%q) = %d, want %d", s, got, want)
		}
	}
}
