package corpus

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sluice-project/sluice/langid"
	"github.com/sluice-project/sluice/page"
)

// ReasonLanguage: the page's language (page.Meta.Language, told by
// package langid from its kept text) is not one of Options.Languages.
const ReasonLanguage = "language"

// normalizeLanguages rewrites codes as langid.Declared reads them
// ("en-US" is "en"), without repeats; it fails on one that names no
// language.
func normalizeLanguages(codes []string) ([]string, error) {
	var out []string
	for _, c := range codes {
		l := langid.Declared(c)
		if l == "" {
			return nil, fmt.Errorf("corpus: language %q: give ISO 639-1 codes such as en, fr, zh", c)
		}
		if !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out, nil
}

// languageVerdict tells p's language (langid.SetPage), and returns the
// verdict on p when langs, if not empty, does not hold it: skipped as
// "language", the detail naming it.
func languageVerdict(p *page.Page, langs []string) (Verdict, bool) {
	if langid.SetPage(p); len(langs) == 0 || slices.Contains(langs, p.Meta.Language) {
		return Verdict{}, false
	}
	lang := p.Meta.Language
	if lang == "" {
		lang = "unknown"
	}
	return skip(ReasonLanguage, fmt.Sprintf("the text is in %s, not %s (--language)", lang, strings.Join(langs, ","))), true
}
