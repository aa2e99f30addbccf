package langid

import (
	"strings"

	"github.com/abadojack/whatlanggo"
)

// codes are whatlanggo's languages' codes, indexed by its Lang: ISO 639-1,
// or ISO 639-3 for the few that have no two-letter code. whatlanggo names
// Persian and Yiddish by a variety (pes, ydd) that has none; their
// macrolanguages' codes are what pages declare. The table is written out,
// not built from Lang.Iso6391 at start-up, because that method makes a map
// of every language each time it is called (300 KB and 0.3 ms for the 84);
// TestCodesAsWhatlanggo holds the two equal.
var codes = [...]string{
	whatlanggo.Afr: "af",
	whatlanggo.Aka: "ak",
	whatlanggo.Amh: "am",
	whatlanggo.Arb: "ar",
	whatlanggo.Azj: "az",
	whatlanggo.Bel: "be",
	whatlanggo.Ben: "bn",
	whatlanggo.Bho: "bh",
	whatlanggo.Bul: "bg",
	whatlanggo.Ceb: "ceb",
	whatlanggo.Ces: "cs",
	whatlanggo.Cmn: "zh",
	whatlanggo.Dan: "da",
	whatlanggo.Deu: "de",
	whatlanggo.Ell: "el",
	whatlanggo.Eng: "en",
	whatlanggo.Epo: "eo",
	whatlanggo.Est: "et",
	whatlanggo.Fin: "fi",
	whatlanggo.Fra: "fr",
	whatlanggo.Guj: "gu",
	whatlanggo.Hat: "ht",
	whatlanggo.Hau: "ha",
	whatlanggo.Heb: "he",
	whatlanggo.Hin: "hi",
	whatlanggo.Hrv: "hr",
	whatlanggo.Hun: "hu",
	whatlanggo.Ibo: "ig",
	whatlanggo.Ilo: "ilo",
	whatlanggo.Ind: "id",
	whatlanggo.Ita: "it",
	whatlanggo.Jav: "jv",
	whatlanggo.Jpn: "ja",
	whatlanggo.Kan: "kn",
	whatlanggo.Kat: "ka",
	whatlanggo.Khm: "km",
	whatlanggo.Kin: "rw",
	whatlanggo.Kor: "ko",
	whatlanggo.Kur: "ku",
	whatlanggo.Lav: "lv",
	whatlanggo.Lit: "lt",
	whatlanggo.Mai: "mai",
	whatlanggo.Mal: "ml",
	whatlanggo.Mar: "mr",
	whatlanggo.Mkd: "mk",
	whatlanggo.Mlg: "mg",
	whatlanggo.Mya: "my",
	whatlanggo.Nep: "ne",
	whatlanggo.Nld: "nl",
	whatlanggo.Nno: "nn",
	whatlanggo.Nob: "nb",
	whatlanggo.Nya: "ny",
	whatlanggo.Ori: "or",
	whatlanggo.Orm: "om",
	whatlanggo.Pan: "pa",
	whatlanggo.Pes: "fa",
	whatlanggo.Pol: "pl",
	whatlanggo.Por: "pt",
	whatlanggo.Ron: "ro",
	whatlanggo.Run: "rn",
	whatlanggo.Rus: "ru",
	whatlanggo.Sin: "si",
	whatlanggo.Skr: "skr",
	whatlanggo.Slv: "sl",
	whatlanggo.Sna: "sn",
	whatlanggo.Som: "so",
	whatlanggo.Spa: "es",
	whatlanggo.Srp: "sr",
	whatlanggo.Swe: "sv",
	whatlanggo.Tam: "ta",
	whatlanggo.Tel: "te",
	whatlanggo.Tgl: "tl",
	whatlanggo.Tha: "th",
	whatlanggo.Tir: "ti",
	whatlanggo.Tuk: "tk",
	whatlanggo.Tur: "tr",
	whatlanggo.Uig: "ug",
	whatlanggo.Ukr: "uk",
	whatlanggo.Urd: "ur",
	whatlanggo.Uzb: "uz",
	whatlanggo.Vie: "vi",
	whatlanggo.Ydd: "yi",
	whatlanggo.Yor: "yo",
	whatlanggo.Zul: "zu",
}

// webLanguages are the languages Detect chooses among where a script is
// shared: of whatlanggo's 84, those with a place among the languages of
// web content (W3Techs' list of content languages), with the languages of
// the scripts that tell a language alone. Leaving out the others
// (Cebuano, Ilocano, Shona, Akan, Bhojpuri and others, whose profiles come
// from one short text each) makes short blocks of the common languages
// right more often and Detect about twice as fast (docs/langid.md).
var webLanguages = func() whatlanggo.Options {
	m := map[whatlanggo.Lang]bool{}
	for _, l := range []whatlanggo.Lang{
		// Latin
		whatlanggo.Eng, whatlanggo.Spa, whatlanggo.Deu, whatlanggo.Fra, whatlanggo.Por, whatlanggo.Ita,
		whatlanggo.Pol, whatlanggo.Nld, whatlanggo.Tur, whatlanggo.Vie, whatlanggo.Ind, whatlanggo.Ces,
		whatlanggo.Swe, whatlanggo.Hun, whatlanggo.Ron, whatlanggo.Dan, whatlanggo.Fin, whatlanggo.Nob,
		whatlanggo.Hrv, whatlanggo.Lit, whatlanggo.Slv, whatlanggo.Lav, whatlanggo.Est, whatlanggo.Tgl,
		whatlanggo.Azj, whatlanggo.Afr, whatlanggo.Uzb,
		// Cyrillic, Arabic, Devanagari, Hebrew, Ethiopic
		whatlanggo.Rus, whatlanggo.Ukr, whatlanggo.Bul, whatlanggo.Srp, whatlanggo.Bel, whatlanggo.Mkd,
		whatlanggo.Arb, whatlanggo.Pes, whatlanggo.Urd, whatlanggo.Hin, whatlanggo.Mar, whatlanggo.Nep,
		whatlanggo.Heb, whatlanggo.Amh,
	} {
		m[l] = true
	}
	return whatlanggo.Options{Whitelist: m}
}()

func code(l whatlanggo.Lang) string {
	if l < 0 || int(l) >= len(codes) {
		return ""
	}
	return codes[l]
}

// renamed are the ISO 639-1 codes withdrawn for another, which old pages
// still declare.
var renamed = map[string]string{"iw": "he", "in": "id", "ji": "yi", "jw": "jv", "mo": "ro", "sh": "sr"}

// Declared returns the language a declaration names in the form Detect
// gives: the primary subtag of a BCP 47 tag ("en-US", "zh-Hant-TW"), of a
// POSIX locale ("pt_BR", Open Graph's og:locale), or a withdrawn code
// ("iw" is "he"), in lower case; an ISO 639-3 code of a language Detect
// knows as Detect names it ("deu" is "de", "ceb" stays "ceb"). It returns
// "" for what names no language Detect knows: "", "und", "x-default",
// another three-letter code ("utf", of pages that declare their charset
// there), or anything that is not two or three letters.
func Declared(tag string) string {
	tag = strings.TrimSpace(tag)
	if i := strings.IndexAny(tag, "-_ ,;"); i >= 0 {
		tag = tag[:i]
	}
	if len(tag) < 2 || len(tag) > 3 {
		return ""
	}
	tag = strings.ToLower(tag)
	for i := 0; i < len(tag); i++ {
		if tag[i] < 'a' || tag[i] > 'z' {
			return ""
		}
	}
	if len(tag) == 2 {
		if r, ok := renamed[tag]; ok {
			return r
		}
		return tag
	}
	if l := whatlanggo.CodeToLang(tag); l >= 0 {
		return code(l)
	}
	return ""
}
