package sluice

import (
	"context"
	"strings"
	"testing"
)

const germanInEnglish = `<html lang="en-GB"><body><article><h1>Bridge repairs</h1>
<p>The council has agreed to repair the old stone bridge over the river before the winter floods arrive.</p>
<p>Ein Besucher aus Bayern schrieb ins Gästebuch, dass er so eine schöne alte Brücke noch nie gesehen habe.</p>
<p>Work will start next week, and the road will be closed to lorries until the spring.</p></article></body></html>`

// TestLanguage: Clean tells the page's language from its text, with the
// declared one as evidence; Extract gives both; BlockLanguages names the
// block in another language.
func TestLanguage(t *testing.T) {
	d, err := Extract(strings.NewReader(germanInEnglish), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Language != "en" || d.DeclaredLanguage != "en-GB" {
		t.Errorf("Language %q, DeclaredLanguage %q; want en, en-GB", d.Language, d.DeclaredLanguage)
	}
	langs := d.Result.BlockLanguages()
	var other []string
	for i, l := range langs {
		if l != "" {
			other = append(other, l+": "+d.Result.Page.Blocks[i].Text)
		}
	}
	if len(other) != 1 || !strings.HasPrefix(other[0], "de: Ein Besucher") {
		t.Errorf("blocks in another language: %q; want the German one", other)
	}

	// The declaration is evidence, not truth.
	french := `<html lang="en"><body><article><h1>Travaux sur le pont</h1>
<p>Le conseil a accepté de réparer le vieux pont de pierre sur la rivière avant l'arrivée des crues de l'hiver.</p>
<p>Les travaux commenceront la semaine prochaine et la route sera fermée aux camions jusqu'au printemps.</p></article></body></html>`
	c, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Clean(context.Background(), Input{Data: []byte(french)})
	if err != nil {
		t.Fatal(err)
	}
	if m := res.Page.Meta; m.Language != "" {
		t.Errorf("Clean told the language (%q): it is for Result.Language", m.Language)
	}
	if lang, m := res.Language(), res.Page.Meta; lang != "fr" || m.Language != "fr" || m.Lang != "en" {
		t.Errorf("French page declared English: Language %q, Lang %q; want fr, en", m.Language, m.Lang)
	}
}

// TestLanguageBadInput: pages without letters, of binary-like text and of
// mixed scripts get a language or none, never a panic; a page with no
// letter keeps its declared language.
func TestLanguageBadInput(t *testing.T) {
	c, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []struct{ html, want string }{
		{`<html lang="de"><body><p>1234 5678 — 42 % · 3.14</p></body></html>`, "de"},
		{`<html><body><p>` + strings.Repeat("\x01\x02\xfe\xff", 50) + `</p></body></html>`, ""},
		{`<html lang="ru"><body><p>` + strings.Repeat("Москва London 東京 ", 200) + `</p></body></html>`, "*"},
		{`<html><body><p>` + strings.Repeat("Le conseil a accepté de réparer le vieux pont de pierre. ", 200_000) + `</p></body></html>`, "fr"},
	} {
		res, err := c.Clean(context.Background(), Input{Data: []byte(in.html)})
		if err != nil {
			continue // refused as binary: nothing to tell
		}
		if got := res.Language(); in.want != "*" && got != in.want {
			t.Errorf("%.40q: Language %q, want %q", in.html, got, in.want)
		}
	}
}

// BenchmarkLanguage measures what telling languages costs a page of
// cleaneval-dev, besides cleaning it: "document" is Result.Language (the
// json format and sluice corpus spend it), "blocks" BlockLanguages (what
// the json format adds with render.JSON.BlockLanguages).
//
//	go test -run '^$' -bench 'Language' -benchmem -cpu 1
func BenchmarkLanguage(b *testing.B) {
	data, _ := benchPages(b)
	c, err := New(Options{})
	if err != nil {
		b.Fatal(err)
	}
	var results []*Result
	for _, d := range data {
		res, err := c.Clean(context.Background(), Input{Data: d})
		if err != nil {
			b.Fatal(err)
		}
		results = append(results, res)
	}
	b.Run("document", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, r := range results {
				r.Page.Meta.Language = ""
				r.Language()
			}
		}
		reportPages(b, len(results))
	})
	b.Run("blocks", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, r := range results {
				r.BlockLanguages()
			}
		}
		reportPages(b, len(results))
	})
}
