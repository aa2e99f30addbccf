package textunit

import (
	"unicode"
	"unicode/utf8"
)

// Script is a writing system, as far as unit counts tell them apart.
type Script uint8

const (
	// Other is every script written with spaces between words that
	// sluice has no figure for, and text with no letter.
	Other Script = iota
	Latin
	Cyrillic
	Greek
	Arabic
	Hebrew
	Devanagari
	Hangul
	// Han is Chinese characters (also those of Japanese text).
	Han
	// Kana is Hiragana and Katakana.
	Kana
	// Thai stands for Thai, Lao, Khmer and Myanmar.
	Thai
)

var scriptNames = [...]string{Other: "other", Latin: "latin", Cyrillic: "cyrillic", Greek: "greek",
	Arabic: "arabic", Hebrew: "hebrew", Devanagari: "devanagari", Hangul: "hangul", Han: "han",
	Kana: "kana", Thai: "thai"}

// String returns the script's name in lower case.
func (s Script) String() string {
	if int(s) < len(scriptNames) {
		return scriptNames[s]
	}
	return "Script(?)"
}

// ScriptOf returns the script of r (Other for a character of none of the
// listed scripts, punctuation and digits among them).
func ScriptOf(r rune) Script {
	switch {
	case r < utf8.RuneSelf:
		if asciiClass[r] == cLetter {
			return Latin
		}
		return Other
	case unicode.Is(unicode.Latin, r):
		return Latin
	case unicode.Is(unicode.Han, r):
		return Han
	case unicode.In(r, unicode.Hiragana, unicode.Katakana):
		return Kana
	case unicode.Is(unicode.Cyrillic, r):
		return Cyrillic
	case unicode.Is(unicode.Greek, r):
		return Greek
	case unicode.Is(unicode.Arabic, r):
		return Arabic
	case unicode.Is(unicode.Hebrew, r):
		return Hebrew
	case unicode.Is(unicode.Devanagari, r):
		return Devanagari
	case unicode.Is(unicode.Hangul, r):
		return Hangul
	case unicode.In(r, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar):
		return Thai
	}
	return Other
}

// UnitScript returns the script of a unit: that of its first letter.
func UnitScript(u string) Script {
	for _, r := range u {
		if s := ScriptOf(r); s != Other {
			return s
		}
	}
	return Other
}

// perWord holds the characters per word of each script; docs/languages.md
// says where each figure comes from.
var perWord = [...]float64{
	Other:      5.0, // as Latin: no figure of its own
	Latin:      4.9, // measured on the shared English gold texts
	Cyrillic:   5.0, // not measured: assumed as Latin
	Greek:      5.0, // not measured: assumed as Latin
	Arabic:     4.5, // not measured: assumed close to Latin
	Hebrew:     4.5, // not measured: assumed close to Latin
	Devanagari: 4.5, // not measured: assumed close to Latin
	Hangul:     3.0, // syllable blocks per space-separated word (eojeol): an estimate
	Han:        1.6, // DeFrancis (1943) and Zheng (1957), via Hannas (1997)
	Kana:       1.6, // not measured: assumed as Han
	Thai:       4.0, // SEAlang Thai Web Corpus: 100 billion characters, 25 billion words
}

// PerWord returns the typical number of characters per word of text in
// script s: letters per word for scripts written with spaces, characters
// (units) per word for those written without. A threshold stated in words
// of English carries to another script as PerWord(s)/PerWord(Latin) times
// as many characters; WordEquivalents does that for a text.
func PerWord(s Script) float64 {
	if int(s) < len(perWord) {
		return perWord[s]
	}
	return perWord[Other]
}

// WordEquivalents returns the length of s in words: each Word and Number
// unit counts 1, and each Char unit 1/PerWord of its script, so that 16
// Chinese characters are about 10 words. Like Count it does not allocate.
func WordEquivalents(s string) float64 {
	if isASCII(s) {
		return float64(asciiCount(s))
	}
	words, han, kana, thai := 0, 0, 0, 0
	chunks(s, func(c string, off int, char bool) bool {
		switch {
		case char:
			r, _ := utf8.DecodeRuneInString(c)
			if 0x4E00 <= r && r <= 0x9FFF {
				han++
				break
			}
			switch ScriptOf(r) {
			case Han:
				han++
			case Thai:
				thai++
			default: // kana, and the marks of no script (ー, 々)
				kana++
			}
		case isASCII(c):
			words += asciiCount(c)
		default:
			words += unisegCount(c)
		}
		return true
	})
	return float64(words) + float64(han)/perWord[Han] + float64(kana)/perWord[Kana] + float64(thai)/perWord[Thai]
}
