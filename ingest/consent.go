package ingest

import (
	"slices"
	"strings"

	"github.com/sluice-project/sluice/dom"
	"github.com/sluice-project/sluice/internal/lower"
)

// consentNames mark, anywhere in an element's id or in one of its class
// names, the panel of a cookie-consent manager: consent and GDPR words,
// which developers write in English whatever the page's language, and the
// names the common consent-management platforms give their markup
// (OneTrust, Cookiebot, Didomi, Usercentrics, TrustArc, Quantcast's
// "qc-cmp2", consentmanager's "cmpbox"). "cmp" alone is not one: Adobe's
// core components name every container "cmp-container", whole pages. The
// panels' own text is in the page's language, where no word list could
// follow it; their markup is the same on every site that uses the
// platform.
var consentNames = []string{"consent", "gdpr", "onetrust", "cookiebot", "didomi", "usercentrics", "truste", "cmpbox", "qc-cmp", "cookielaw", "cookie-law", "cookie_law"}

// cookieWords mark a consent panel when a name also holds "cookie":
// "cookie-banner", "cookie_notice", "cookiebar". "cookie" alone is not
// enough: a recipe site names its cards after its cookies.
var cookieWords = []string{"banner", "notice", "bar", "popup", "dialog", "modal", "policy", "wall", "message", "alert", "overlay", "settings", "preference", "accept", "warning", "choice"}

// consentPanel reports whether the id or a class name of n marks a
// cookie-consent panel (consentNames, or "cookie" with one of
// cookieWords), or its id or class starts with OneTrust's "ot-".
func consentPanel(n dom.Node) bool {
	for i := range n.NumAttr() {
		key, val, foreign := n.AttrAt(i)
		if !foreign && (key == "id" || key == "class") && consentValue(val) {
			return true
		}
	}
	return false
}

// consentValue reports whether one of the white-space separated names of
// an id or class value marks a consent panel (consentName). An ASCII
// value is read once, capitals as small letters, without being split: no
// consent word holds white space, so one found anywhere is in one name.
// Only "cookie", which needs a second word in the same name, and values
// with other than ASCII are checked name by name.
func consentValue(val string) bool {
	if !lower.IsASCII(val) {
		return consentByName(val)
	}
	start, cookie := true, false
	for i := 0; i < len(val); i++ {
		c := lower.Byte(val[i])
		if asciiSpace[c] {
			start = true
			continue
		}
		rest := val[i:]
		if start && lower.HasPrefix(rest, "ot-") {
			return true
		}
		start = false
		if !consentStarts[c] || i+1 == len(val) || !consentPairs[c][lower.Byte(val[i+1])] {
			continue
		}
		for _, w := range consentByStart[c] {
			if lower.HasPrefix(rest, w) {
				return true
			}
		}
		cookie = cookie || lower.HasPrefix(rest, "cookie")
	}
	return cookie && consentByName(val)
}

// consentByName splits val into names as strings.Fields does and checks
// each, lower case.
func consentByName(val string) bool {
	var buf [64]byte
	for name := range strings.FieldsSeq(val) {
		if consentName(lower.Into(buf[:], name)) {
			return true
		}
	}
	return false
}

// asciiSpace are the ASCII bytes strings.Fields splits at.
var asciiSpace = [256]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// consentName reports whether one id or class name, lower case, marks a
// consent panel. It looks at each byte once: a consent word can start
// only at a letter that begins one (consentStarts), and only there are
// the words compared.
func consentName(s string) bool {
	if strings.HasPrefix(s, "ot-") {
		return true
	}
	cookie := false
	for i := 0; i+1 < len(s); i++ {
		if !consentStarts[s[i]] {
			continue
		}
		rest := s[i:]
		for _, w := range consentByStart[s[i]] {
			if strings.HasPrefix(rest, w) {
				return true
			}
		}
		cookie = cookie || strings.HasPrefix(rest, "cookie")
	}
	if !cookie {
		return false
	}
	for _, w := range cookieWords {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// consentByStart are consentNames by their first byte; consentStarts
// says which bytes begin one, or begin "cookie", and consentPairs which
// two bytes.
var consentByStart, consentStarts, consentPairs = func() (by [256][]string, starts [256]bool, pairs [256]*[256]bool) {
	for _, w := range append(slices.Clone(consentNames), "cookie") {
		if w != "cookie" {
			by[w[0]] = append(by[w[0]], w)
		}
		starts[w[0]] = true
		if pairs[w[0]] == nil {
			pairs[w[0]] = new([256]bool)
		}
		pairs[w[0]][w[1]] = true
	}
	return by, starts, pairs
}()
