package ingest

import (
	"strings"
	"testing"
)

func TestConsentName(t *testing.T) {
	for name, want := range map[string]bool{
		"onetrust-banner-sdk": true, "ot-sdk-container": true, "cybotcookiebotdialog": true,
		"didomi-host": true, "qc-cmp2-container": true, "cmpbox": true, "usercentrics-root": true,
		"truste-consent-track": true, "cookie-notice": true, "cookiebar": true,
		"gdpr-consent-tool-wrapper": true, "cookie-law-info-bar": true, "cookiechoiceinfo": true, "moove_gdpr_cookie_info_bar": true,
		"cookie": false, "cookies-recipe": false, "chocolate-cookie-card": false,
		"cmp-container": false, "cmp-teaser": false, "cookie-recipe-box": false, "cookie-nutrition-info": false, "hot-deals": false, "not-logged-in": false, "": false,
	} {
		if got := consentName(name); got != want {
			t.Errorf("consentName(%q) = %v, want %v", name, got, want)
		}
	}
}

// A consent manager's panel goes, in any element and whatever the
// language of its text; a page that is a cookie policy keeps its text;
// KeepConsent (DropConsent off) keeps the panel.
func TestConsentPanelsDropped(t *testing.T) {
	long := strings.Repeat("Ten cookies bake in twelve minutes at a moderate heat. ", 10)
	page := `<body><article class="recipe cookie-card"><p>` + long + `</p></article>
<section id="onetrust-consent-sdk"><p>Używamy plików cookie, aby ulepszyć naszą witrynę.</p><button>Akceptuję</button></section>
<div class="Cookie-Notice"><p>Мы используем файлы cookie.</p></div></body>`
	got := bodyText(mustParse(t, page))
	if !strings.Contains(got, "Ten cookies bake") || strings.Contains(got, "Używamy") || strings.Contains(got, "Мы используем") {
		t.Errorf("body text = %q", got)
	}
	opts := DefaultOptions()
	opts.DropConsent = false
	if got := bodyText(mustParseWith(t, page, opts)); !strings.Contains(got, "Używamy") || !strings.Contains(got, "Мы используем") {
		t.Errorf("DropConsent off: body text = %q", got)
	}
	// Consent platforms mark the open banner on <html> and <body>, whose
	// text is the whole page.
	open := `<html class="didomi-popup-open"><body class="cookie-banner-visible"><p>` + long + `</p></body></html>`
	if got := bodyText(mustParse(t, open)); !strings.Contains(got, "Ten cookies bake") {
		t.Errorf("a page marked on <html> and <body> lost its text: %q", got)
	}
	policy := `<body><div class="cookie-policy-page"><h1>Cookie policy</h1><p>` + long + `</p></div><p>Contact us</p></body>`
	if got := bodyText(mustParse(t, policy)); !strings.Contains(got, "Ten cookies bake") {
		t.Errorf("a page whose content is its cookie policy lost it: %q", got)
	}
}

// consentNameByWords is consentName as a list of substring tests, the
// way it was first written: the reference the one-pass scan must agree
// with.
func consentNameByWords(s string) bool {
	if strings.HasPrefix(s, "ot-") {
		return true
	}
	for _, w := range consentNames {
		if strings.Contains(s, w) {
			return true
		}
	}
	if !strings.Contains(s, "cookie") {
		return false
	}
	for _, w := range cookieWords {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// TestConsentNameAgrees compares the one-pass scan with the word list on
// every name made of two of the words around each other and of pieces
// that nearly match.
func TestConsentNameAgrees(t *testing.T) {
	parts := append(append([]string{"", "ot-", "o", "c", "co", "cookie", "cooki", "consen", "gdp", "x-", "-", "_", "qc-", "cmp", "cmpbo", "trust", "usercentric"}, consentNames...), cookieWords...)
	names := joins(parts, []string{"", "-", "cookie", "ot-"})
	if len(names) < 1000 {
		t.Fatalf("only %d names", len(names))
	}
	agree(t, "consentName", names, consentName, consentNameByWords)
}

// joins returns every a+mid+b of parts and mids.
func joins(parts, mids []string) []string {
	var out []string
	for _, a := range parts {
		for _, b := range parts {
			for _, m := range mids {
				out = append(out, a+m+b)
			}
		}
	}
	return out
}

// agree fails t for each input on which got and want (the reference)
// differ.
func agree(t *testing.T, name string, inputs []string, got, want func(string) bool) {
	t.Helper()
	for _, s := range inputs {
		if g, w := got(s), want(s); g != w {
			t.Errorf("%s(%q) = %v, the reference says %v", name, s, g, w)
		}
	}
}

func FuzzConsentName(f *testing.F) {
	for _, s := range []string{"onetrust-banner", "cookie-notice", "ot-sdk", "cmp-container", "xgdpr"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		agree(t, "consentName", []string{s}, consentName, consentNameByWords)
	})
}

// consentValueByNames is consentValue as first written: each name of the
// value, lower case, through the word list.
func consentValueByNames(val string) bool {
	for name := range strings.FieldsSeq(val) {
		if consentNameByWords(strings.ToLower(name)) {
			return true
		}
	}
	return false
}

// TestConsentValueAgrees compares the one-pass reading of whole values
// with the names read one by one, on values of two or three names in
// mixed case, split by every kind of white space.
func TestConsentValueAgrees(t *testing.T) {
	parts := []string{"", "OT-", "ot-sdk", "x-ot-", "Cookie", "COOKIE-bar", "cookie", "bar", "Banner", "consent", "CONSENT",
		"qc-cmp", "QC_CMP", "cookie_law", "Cookie-Law", "gdpr", "onetrust", "hero", "é", "İ", "cookieé", "card"}
	seps := []string{" ", "\t", "\n", "\v", "\f", "\r", "  ", "\u00a0", "-", ""}
	var values []string
	for _, sep := range seps {
		for _, v := range joins(parts, []string{sep, sep + "main "}) {
			values = append(values, v, sep+v+sep)
		}
	}
	if len(values) < 10000 {
		t.Fatalf("only %d values", len(values))
	}
	agree(t, "consentValue", values, consentValue, consentValueByNames)
}

func FuzzConsentValue(f *testing.F) {
	for _, s := range []string{"site-header ot-sdk-row", "Cookie Banner", "cookie-banner main", "qc-cmp2-ui", "x\rcmp"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		agree(t, "consentValue", []string{v}, consentValue, consentValueByNames)
	})
}
