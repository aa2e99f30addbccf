package features

import (
	"strings"

	"github.com/sluice-project/sluice/textpattern"
)

// Pattern bits, in attribute order.
const (
	patURL = iota
	patEmail
	patDate
	patTime
	patPhone
	patCopyright
	patRights
	patPlaceholder
)

var patternNames = [...]string{"pat=url", "pat=email", "pat=date", "pat=time", "pat=phone", "pat=copyright", "pat=rights", "pat=placeholder"}

// patterns returns the set of patterns found in s. The scanners look at
// digits and separators, not words, apart from "copyright", a few "rights
// reserved" phrases and "lorem ipsum".
func patterns(s string, st *blockStats, words int32) uint32 {
	var set uint32
	seen := st.seen
	// Notices and bare addresses are short: long texts are only searched
	// for "://", which a colon must announce.
	short := words <= 40
	if seen&tColon != 0 && strings.Contains(s, "://") ||
		short && seen&(tW|tDot) == tW|tDot && (strings.Contains(s, "www.") || strings.Contains(s, "WWW.")) {
		set |= 1 << patURL
	}
	if seen&tAt != 0 && textpattern.Email(s) {
		set |= 1 << patEmail
	}
	if textpattern.Placeholder(s) {
		set |= 1 << patPlaceholder
	}
	if st.num > 0 {
		d := textpattern.Digits(s, words)
		for k, p := range [...]textpattern.Set{textpattern.Date, textpattern.Time, textpattern.Phone} {
			if d&p != 0 {
				set |= 1 << (patDate + k)
			}
		}
	}
	if !short {
		return set
	}
	if seen&tNonASCII != 0 && strings.Contains(s, "©") ||
		seen&tY != 0 && (strings.Contains(s, "opyright") || strings.Contains(s, "OPYRIGHT")) ||
		seen&tParen != 0 && (strings.Contains(s, "(c)") || strings.Contains(s, "(C)")) {
		set |= 1 << patCopyright
	}
	if seen&(tV|tNonASCII) != 0 && textpattern.RightsReserved(s) {
		set |= 1 << patRights
	}
	return set
}
