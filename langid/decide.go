package langid

import "unicode"

// MinBlockLetters is the fewest letters a block needs for Block to tell
// its language apart from its document's: a shorter one (a heading, a
// caption, a name) is too short to trust a guess on.
const MinBlockLetters = 40

// Document returns the language of a document whose text (its kept text,
// or a sample of it) is text and whose markup declares declared (any
// form Declared reads), and whether the text decided it.
//
// The declaration is evidence, not truth: templates declare "en" on pages
// in every language. A reliable detection wins; an unreliable one gives
// way to the declaration when the declared language is written in the
// text's script (a short Latin text declared "fr" is French, one declared
// "ru" is not Russian); a text without letters takes the declaration, as
// nothing contradicts it; otherwise the unreliable guess is the answer when
// the text has MinGuessLetters letters or more, and "" (unknown) below
// that: a sentence or two is too little to name a language on a guess
// ("Orphan continuation opens a paragraph." reads as French to the
// trigrams).
func Document(text, declared string) (lang string, detected bool) {
	d := Declared(declared)
	text = sample(text)
	guess, _, reliable := Detect(text)
	switch {
	case guess == "":
		return d, false
	case reliable:
		return guess, true
	case d != "" && d != guess && writes(d, dominantScript(text)):
		return d, false
	case d != guess && letters(text) < MinGuessLetters:
		return "", false // a declaration in another script, or none
	}
	return guess, true
}

// MinGuessLetters is the fewest letters of a text for Document to answer
// with an unreliable guess that nothing declared supports.
const MinGuessLetters = 120

// Block returns the language of a block of a document in language doc
// when the block tells it reliably and it is not doc's; "" when the block
// is in doc's language, too short (fewer than MinBlockLetters letters) or
// unclear. A block of Han characters alone in a Japanese document is
// Japanese (kanji without kana), not Chinese.
func Block(text, doc string) string {
	text = sample(text)
	if letters(text) < MinBlockLetters {
		return ""
	}
	lang, _, reliable := Detect(text)
	if !reliable || lang == doc || (lang == "zh" && doc == "ja") {
		return ""
	}
	return lang
}

func letters(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			n++
		}
	}
	return n
}

// dominantScript returns the script most of the letters of s are in
// (Han and kana count as Han), or nil when s has no letter.
func dominantScript(s string) *unicode.RangeTable {
	counts := make(map[*unicode.RangeTable]int, 4)
	var best *unicode.RangeTable
	for _, r := range s {
		if !unicode.IsLetter(r) {
			continue
		}
		t := scriptOf(r)
		counts[t]++
		if best == nil || counts[t] > counts[best] {
			best = t
		}
	}
	return best
}

// scriptTables are the scripts dominantScript tells apart, Latin first as
// the most frequent; a letter of none counts as unicode.Other's.
var scriptTables = []*unicode.RangeTable{unicode.Latin, unicode.Cyrillic, unicode.Han, unicode.Arabic,
	unicode.Hangul, unicode.Greek, unicode.Hebrew, unicode.Devanagari, unicode.Thai, unicode.Hiragana, unicode.Katakana}

func scriptOf(r rune) *unicode.RangeTable {
	for _, t := range scriptTables {
		if unicode.Is(t, r) {
			if t == unicode.Hiragana || t == unicode.Katakana {
				return unicode.Han
			}
			return t
		}
	}
	return unicode.Other
}

// langScripts are the scripts of the languages Document weighs a
// declaration against; a language not listed is written in Latin.
var langScripts = map[string]*unicode.RangeTable{
	"ru": unicode.Cyrillic, "uk": unicode.Cyrillic, "bg": unicode.Cyrillic, "sr": unicode.Cyrillic,
	"mk": unicode.Cyrillic, "be": unicode.Cyrillic, "kk": unicode.Cyrillic, "mn": unicode.Cyrillic,
	"ar": unicode.Arabic, "fa": unicode.Arabic, "ur": unicode.Arabic, "ps": unicode.Arabic,
	"he": unicode.Hebrew, "yi": unicode.Hebrew,
	"hi": unicode.Devanagari, "mr": unicode.Devanagari, "ne": unicode.Devanagari,
	"zh": unicode.Han, "ja": unicode.Han, "ko": unicode.Hangul,
	"el": unicode.Greek, "th": unicode.Thai,
}

// writes reports whether language lang is written in script s.
func writes(lang string, s *unicode.RangeTable) bool {
	if t, ok := langScripts[lang]; ok {
		return t == s
	}
	return s == unicode.Latin
}
