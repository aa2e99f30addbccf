package corpus

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// languagePages are three pages written for this test: English, French
// declared English, Czech declared nothing.
var languagePages = map[string]string{
	"en.html": `<html lang="en"><body><article><h1>Bridge repairs</h1><p>The council has agreed to repair the old stone bridge over the river before the winter floods arrive.</p><p>Work will start next week, and the road will be closed to lorries until the spring.</p></article></body></html>`,
	"fr.html": `<html lang="en"><body><article><h1>Travaux sur le pont</h1><p>Le conseil a accepté de réparer le vieux pont de pierre sur la rivière avant l'arrivée des crues de l'hiver.</p><p>Les travaux commenceront la semaine prochaine et la route sera fermée aux camions jusqu'au printemps.</p></article></body></html>`,
	"cs.html": `<html><body><article><h1>Oprava mostu</h1><p>Rada souhlasila, že starý kamenný most přes řeku opraví ještě před zimními povodněmi.</p><p>Práce začnou příští týden a silnice bude pro nákladní auta uzavřená až do jara.</p></article></body></html>`,
}

// TestLanguages: Options.Languages keeps the pages in the languages given
// (a tag counts as its language), skips the others as "language" with
// the language they are in, and refuses a code that names no language.
func TestLanguages(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	if err := os.Mkdir(in, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, html := range languagePages {
		if err := os.WriteFile(filepath.Join(in, name), []byte(html), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sum, problems := runCorpus(t, filepath.Join(dir, "out"), []string{in}, Options{Languages: []string{"fr-FR", "cs", "fr"}})
	if sum.Cleaned != 2 || sum.Skipped[ReasonLanguage] != 1 {
		t.Errorf("cleaned %d, skipped %v; want 2 cleaned, 1 skipped as %q", sum.Cleaned, sum.Skipped, ReasonLanguage)
	}
	got := map[string]string{}
	for _, d := range readDocs(t, filepath.Join(dir, "out")) {
		got[filepath.Base(d.Source.File)] = d.Language
	}
	if got["fr.html"] != "fr" || got["cs.html"] != "cs" || len(got) != 2 {
		t.Errorf("documents by language: %v; want fr.html in fr, cs.html in cs", got)
	}
	if len(problems) != 1 || !strings.Contains(problems[0].Detail, "in en, not fr,cs") {
		t.Errorf("problems %v; want en.html skipped, its language named", problems)
	}
	if _, err := Run(t.Context(), filepath.Join(dir, "bad"), []string{in}, Options{Languages: []string{"french"}}); err == nil || !strings.Contains(err.Error(), `"french"`) {
		t.Errorf("Languages [french]: error %v, want one naming it", err)
	}
}
