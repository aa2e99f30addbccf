package parsertext

import (
	"bufio"
	"embed"
	"strings"
	"sync"
)

// langFS holds the word lists, one file per language and kind:
//
//	lang/triggers/LANG.txt       trigger words (Kitten 3.2.3)
//	lang/abbreviations/LANG.txt  abbreviations the sentence splitter skips
//
// LANG is the primary subtag of a BCP 47 tag, lower case ("en", "fr").
// To add a language, add its two files (one word a line, '#' starts a
// comment) and rebuild: nothing else changes. A language with no files
// falls back to English.
//
//go:embed lang
var langFS embed.FS

// language is the word lists of one language. It is built once per
// language and never changed after, so pages share it.
type language struct {
	triggers map[string]bool
	abbrevs  map[string]bool
}

// fallbackLang is used for a page whose language has no word lists.
const fallbackLang = "en"

// allLanguages loads every embedded word list once; the result is never
// changed after, so pages share it.
var allLanguages = sync.OnceValue(func() map[string]*language {
	m := map[string]*language{}
	for _, code := range Languages() {
		trig, _ := readWords("lang/triggers/" + code + ".txt")
		abbr, _ := readWords("lang/abbreviations/" + code + ".txt")
		m[code] = &language{triggers: trig, abbrevs: abbr}
	}
	return m
})

// loadLanguage returns the word lists for the language tag tag (for
// example "en-GB", "fr"), falling back to English.
func loadLanguage(tag string) *language {
	code := strings.ToLower(strings.TrimSpace(tag))
	if i := strings.IndexAny(code, "-_"); i >= 0 {
		code = code[:i]
	}
	all := allLanguages()
	if l, ok := all[code]; ok {
		return l
	}
	return all[fallbackLang]
}

// readWords reads one word list; ok is false when the file is missing.
func readWords(name string) (map[string]bool, bool) {
	data, err := langFS.ReadFile(name)
	if err != nil {
		return map[string]bool{}, false
	}
	words := map[string]bool{}
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	for sc.Scan() {
		w := strings.TrimSpace(sc.Text())
		if w == "" || strings.HasPrefix(w, "#") {
			continue
		}
		words[strings.ToLower(w)] = true
	}
	return words, true
}

// Languages returns the codes of the languages that have word lists.
func Languages() []string {
	ents, _ := langFS.ReadDir("lang/triggers")
	var out []string
	for _, e := range ents {
		if n, ok := strings.CutSuffix(e.Name(), ".txt"); ok {
			out = append(out, n)
		}
	}
	return out
}
