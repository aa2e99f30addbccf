package render

import (
	"slices"
	"testing"

	"github.com/sluice-project/sluice/page"
)

// TestJSONLanguages: the document's language, the declared one only when
// it is another, and a block's only with BlockLanguages, when kept, long
// enough and in another language.
func TestJSONLanguages(t *testing.T) {
	german := "Wir haben am Wochenende einen langen Spaziergang durch den verschneiten Wald gemacht."
	p := &page.Page{Meta: page.Meta{Language: "en", Lang: "en-US"}, Blocks: []page.Block{
		{Text: "The council will vote next month on whether to extend the library's opening hours.", Label: page.Paragraph},
		{Text: german, Label: page.Paragraph},
		{Text: german, Label: page.Other},
		{Text: "Guten Tag", Label: page.Paragraph},
	}}
	d := (&JSON{IncludeDropped: true}).Document(p)
	if d.Language != "en" || d.DeclaredLanguage != "" || d.Blocks[1].Lang != "" {
		t.Errorf("without BlockLanguages: language %q, declared %q, block 1 %q; want en, \"\", \"\"", d.Language, d.DeclaredLanguage, d.Blocks[1].Lang)
	}
	d = (&JSON{IncludeDropped: true, BlockLanguages: true}).Document(p)
	var got []string
	for _, b := range d.Blocks {
		got = append(got, b.Lang)
	}
	if want := []string{"", "de", "", ""}; !slices.Equal(got, want) {
		t.Errorf("blocks' lang %q, want %q", got, want)
	}
	p.Meta.Lang = "fr"
	if d := (&JSON{}).Document(p); d.DeclaredLanguage != "fr" {
		t.Errorf("declared fr, detected en: declared_language %q", d.DeclaredLanguage)
	}
}
