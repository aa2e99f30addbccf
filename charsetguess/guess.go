// Package charsetguess guesses the encoding of a page that is not UTF-8
// and declares no believable charset, from its text (package ingest gives
// it the page's text, markup stripped, when the declarations fail).
//
// The guess decodes the page's text under every candidate encoding and
// charges each decoding for what real text seldom holds: bytes the
// encoding leaves undefined, control characters, private-use characters,
// rare symbols (¹ ³ ¤ box drawing) where text has letters, words that mix
// scripts or change from lower to upper case, runs of capitals, sequences
// of accented Latin letters, letters that no single language's alphabet
// holds together (ø, è and š, say) or that are rare in it, Cyrillic text
// with too few vowels, combining marks after no letter, a final sigma
// inside a word, and, in CJK encodings, bad sequences, characters outside
// the encoding's common planes and spaces between Han characters. Wrong
// decodings of real text score badly on several of these at once: Cyrillic
// bytes read as windows-1252 give runs of accented capitals and letters of
// no one language, KOI8-R read as windows-1251 swaps the case of every
// letter, Polish read as windows-1252 gives ¹ and ³ for ą and ł, Hebrew
// read as windows-1251 gives Cyrillic without vowels, EUC-KR read as
// Shift_JIS gives half-width katakana.
//
// The candidate with the lowest charge per non-ASCII byte wins, after a
// prior charged once to each encoding but windows-1252, and the order of
// candidates breaks ties (identical decodings, as of English text in
// windows-1252 and -1250). Among CJK decodings that score alike (Korean
// in EUC-KR reads as common Chinese characters in GBK), the one whose text
// holds more of its language's most frequent characters wins. UTF-8
// sequences of three or four bytes are left out: pages that mix UTF-8 and
// a legacy encoding are common, and those bytes are garbage in every
// legacy decoding.
//
// Everything runs on the calling goroutine. The sample is read once to
// count the non-ASCII bytes and their neighbours, so that single-byte
// candidates are scored from the counts; each multi-byte candidate reads
// the sample's non-ASCII runs once more. The single-byte candidates'
// tables are built on first use; the multi-byte ones', which come from
// decoding every byte pair, are built by the tests and embedded
// (multibyte.go).
package charsetguess

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"

	"github.com/sluice-project/sluice/internal/ascii"
)

// Charges per non-ASCII byte.
const (
	chargeInvalid = 8 // undefined byte, control, private use, bad sequence
	chargeRare    = 3 // a symbol text seldom has: ¹ ³ ¤ ¦ ¨ box drawing
	chargeOdd     = 1 // uncommon but real: ½ ´ × ‰; a second-plane CJK character
	chargeMixed   = 5 // letters of two scripts side by side
	chargeForeign = 3 // a non-Latin letter next to an ASCII letter; a letter of no language; lower then upper case
	chargeRun     = 1 // two accented Latin letters in a row; two capitals in a row
	chargeSpaced  = 4 // a space between two Han characters (Korean words are spaced, Chinese and Japanese are not)
)

const (
	// minSampleLetters is the number of letters below which a sample is
	// too short to tell: detection gives up and windows-1252 is used.
	minSampleLetters = 16
	// cjkTie is the charge per byte within which CJK decodings are
	// compared by their share of frequent characters.
	cjkTie = 0.5
)

// candidates are the encodings detection chooses among, in the order that
// breaks ties, the more common on the web first, each with its prior: a
// charge made once, not per byte, so that a few odd bytes are not enough to
// leave windows-1252, the most common legacy encoding, nor to choose an
// encoding seldom seen on the web.
var candidates = []struct {
	name  string
	prior int
}{
	{"windows-1252", 0}, {"windows-1251", 3}, {"gb18030", 3}, {"shift_jis", 3}, {"euc-kr", 3}, {"big5", 3},
	{"euc-jp", 3}, {"windows-1250", 3}, {"windows-1256", 3}, {"windows-1254", 3}, {"windows-1253", 3},
	{"windows-1255", 3}, {"windows-1257", 3}, {"windows-874", 3}, {"koi8-r", 3}, {"iso-8859-2", 3},
	{"iso-8859-5", 3}, {"iso-8859-7", 3}, {"iso-8859-6", 3}, {"iso-8859-8", 3}, {"iso-8859-13", 3},
	{"koi8-u", 3}, {"ibm866", 12},
}

// Guess returns the name (as package htmlindex knows it) of the encoding
// that sample, a page's text with its markup stripped, most likely is. It
// fails when the sample holds no byte above 0x7F or too few letters to
// tell.
func Guess(sample []byte) (string, bool) {
	var st sampleStats
	st.count(sample)
	if st.high == 0 || st.letters < minSampleLetters {
		return "", false
	}
	tabs := detectTables()
	charges, tops := tabs.score(sample, &st)
	best := 0
	for i := range charges {
		if charges[i] < charges[best] {
			best = i
		}
	}
	if tabs.cands[best].multi != nil {
		for i, c := range tabs.cands {
			if c.multi != nil && charges[i] <= charges[best]+cjkTie && tops[i] > tops[best] {
				best = i
			}
		}
	}
	return tabs.cands[best].name, true
}

// score returns each candidate's charge per non-ASCII byte of sample, and
// for the CJK ones the share of characters among the language's most
// frequent.
func (t *tables) score(sample []byte, st *sampleStats) (charges, tops []float64) {
	charges = make([]float64, len(t.cands))
	tops = make([]float64, len(t.cands))
	for i, c := range t.cands {
		var charge float64
		if c.multi != nil {
			charge, tops[i] = c.multi.score(sample)
		} else {
			charge = c.single.score(st)
		}
		charge += float64(c.prior)
		charges[i] = charge / float64(st.high)
	}
	return charges, tops
}

// sampleStats counts the non-ASCII bytes of a sample and their neighbours.
type sampleStats struct {
	high    int // non-ASCII bytes
	letters int // letters: ASCII letters and non-ASCII bytes
	n       [128]int32
	// prev[b][k] and next[b][k] count non-ASCII byte 0x80+b preceded
	// (followed) by an ASCII byte of kind k: lower-case letter, upper-case
	// letter, digit, other (or the start or end of the sample).
	prev, next [128][4]int32
	// pairs counts two non-ASCII bytes in a row, indexed (b1-0x80)<<7 |
	// (b2-0x80); seen lists the indices counted.
	pairs []int32
	seen  []uint16
}

const (
	asciiLower = iota
	asciiUpper
	asciiDigit
	asciiOther
)

func asciiKind(c byte) int {
	switch {
	case 'a' <= c && c <= 'z':
		return asciiLower
	case 'A' <= c && c <= 'Z':
		return asciiUpper
	case '0' <= c && c <= '9':
		return asciiDigit
	}
	return asciiOther
}

func (st *sampleStats) count(s []byte) {
	skipped := -1 // index after the last UTF-8 sequence skipped
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < utf8.RuneSelf {
			if k := asciiKind(c); k == asciiLower || k == asciiUpper {
				st.letters++
			}
			continue
		}
		if n := utf8Long(s[i:]); n > 0 {
			i += n - 1
			skipped = i + 1
			continue
		}
		st.high++
		st.letters++
		h := c - 0x80
		st.n[h]++
		switch {
		case i == 0 || i == skipped:
			st.prev[h][asciiOther]++
		case s[i-1] < utf8.RuneSelf:
			st.prev[h][asciiKind(s[i-1])]++
		default:
			if st.pairs == nil {
				st.pairs = make([]int32, 128*128)
			}
			j := uint16(s[i-1]-0x80)<<7 | uint16(h)
			if st.pairs[j] == 0 {
				st.seen = append(st.seen, j)
			}
			st.pairs[j]++
		}
		if i+1 == len(s) || s[i+1] < utf8.RuneSelf || utf8Long(s[i+1:]) > 0 {
			k := asciiOther
			if i+1 < len(s) && s[i+1] < utf8.RuneSelf {
				k = asciiKind(s[i+1])
			}
			st.next[h][k]++
		}
	}
}

// utf8Long returns the length of the UTF-8 sequence of three or four bytes
// at the start of s, or 0. Legacy text seldom holds one by chance; pages
// that mix UTF-8 with a legacy encoding hold many, which are garbage in
// every legacy decoding and say nothing of the legacy encoding.
func utf8Long(s []byte) int {
	if len(s) < 3 || s[0] < 0xE0 {
		return 0
	}
	if r, n := utf8.DecodeRune(s); n >= 3 && r != utf8.RuneError {
		return n
	}
	return 0
}

// Classes of decoded characters.
const (
	clsLetter  uint8 = iota
	clsPunct         // common punctuation: ’ “ ” – — … « » © ° € nbsp
	clsOdd           // uncommon but real symbols
	clsRare          // symbols text seldom holds
	clsInvalid       // undefined, control, private use
)

// Scripts of letters.
const (
	scriptNone uint8 = iota
	scriptLatin
	scriptCyrillic
	scriptGreek
	scriptHebrew
	scriptArabic
	scriptThai
	scriptOther
)

// charInfo is what detection needs to know of a decoded character.
type charInfo struct {
	class  uint8
	script uint8
	upper  bool
	lower  bool
	mark   bool   // a combining mark (Thai vowel and tone marks, Hebrew points)
	tone   bool   // a Thai tone mark, which may follow a vowel mark
	lead   bool   // a Thai vowel written before its consonant, which follows it
	vowel  bool   // a Cyrillic vowel
	final  bool   // Greek final sigma, which ends words
	langs  uint64 // bit i: the alphabet of languages[i] holds the letter
	rare   uint64 // bit i: the letter is rare in languages[i]
}

// singleByte scores a single-byte encoding from sample counts.
type singleByte struct {
	info [128]charInfo
}

func (e *singleByte) score(st *sampleStats) float64 {
	var t charTally
	e.tally(st, &t)
	charge := t.charge
	charge += chargeForeign * e.outsideLanguage(st, t.letters, &t.cover, &t.rare)
	// Cyrillic text is about 42% vowels in every language written in it;
	// other text read as Cyrillic (Hebrew as windows-1251) has far fewer.
	charge += chargeForeign * max(0, (3*t.cyrillic-10*t.vowels)/10)
	charge += e.pairCharge(st)
	return float64(charge)
}

// charTally is what singleByte.score gathers from the sample's characters
// one by one: the charge of the unlikely ones and of their ASCII
// neighbours, and counts of letters, Cyrillic letters, Cyrillic vowels, and
// of the letters in (cover) and rare in (rare) each language's alphabet.
type charTally struct {
	charge, letters, cyrillic, vowels int64
	cover, rare                       [64]int64
}

// tally adds up the sample's characters, decoded by e, into t.
func (e *singleByte) tally(st *sampleStats, t *charTally) {
	for h := range 128 {
		n := int64(st.n[h])
		if n == 0 {
			continue
		}
		in := &e.info[h]
		switch in.class {
		case clsInvalid:
			t.charge += chargeInvalid * n
			continue
		case clsRare:
			t.charge += chargeRare * n
			continue
		case clsOdd:
			t.charge += chargeOdd * n
			continue
		case clsPunct:
			continue
		}
		t.letters += n
		if in.script == scriptCyrillic {
			t.cyrillic += n
		}
		if in.vowel {
			t.vowels += n
		}
		for m, l := in.langs, 0; m != 0; m, l = m>>1, l+1 {
			if m&1 != 0 {
				t.cover[l] += n
			}
		}
		for m, l := in.rare, 0; m != 0; m, l = m>>1, l+1 {
			if m&1 != 0 {
				t.rare[l] += n
			}
		}
		t.charge += neighbourCharge(in, &st.prev[h], &st.next[h])
	}
}

// neighbourCharge is the charge of a letter's ASCII neighbours: p and q
// count the kinds of ASCII bytes before and after it.
func neighbourCharge(in *charInfo, p, q *[4]int32) int64 {
	var charge int64
	if in.mark {
		// A mark follows a letter of its script.
		charge += chargeInvalid * int64(p[asciiLower]+p[asciiUpper]+p[asciiDigit]+p[asciiOther])
	}
	if in.script != scriptLatin {
		// Letters of other scripts do not join Latin letters in words.
		charge += chargeForeign * int64(p[asciiLower]+p[asciiUpper]+q[asciiLower]+q[asciiUpper])
	}
	if in.upper {
		charge += chargeForeign * int64(p[asciiLower])
	}
	if in.lower {
		charge += chargeForeign * int64(q[asciiUpper])
	}
	if in.final {
		charge += chargeForeign * int64(q[asciiLower]+q[asciiUpper])
	}
	if in.lead {
		charge += chargeInvalid * int64(q[asciiLower]+q[asciiUpper]+q[asciiDigit]+q[asciiOther])
	}
	return charge
}

// pairCharge is the charge of the pairs of non-ASCII characters in a row
// that text seldom holds: a mark after what it cannot follow, a Thai leading
// vowel before what cannot follow it, letters of two scripts, a lower-case
// letter before a capital, a letter after a final sigma, two capitals, and
// two Latin letters.
func (e *singleByte) pairCharge(st *sampleStats) int64 {
	var charge int64
	for _, j := range st.seen {
		n := int64(st.pairs[j])
		a, b := &e.info[j>>7], &e.info[j&127]
		if b.mark && (a.class != clsLetter || a.mark && !(b.tone && !a.tone) || a.script != b.script) ||
			a.lead && (b.class != clsLetter || b.mark || b.lead || b.script != scriptThai) {
			charge += chargeInvalid * n
			continue
		}
		if a.class != clsLetter || b.class != clsLetter {
			continue
		}
		switch {
		case a.script != b.script:
			charge += chargeMixed * n
		case a.lower && b.upper, a.final:
			charge += chargeForeign * n
		case a.upper && b.upper, a.script == scriptLatin:
			charge += chargeRun * n
		}
	}
	return charge
}

// outsideLanguage returns the number of letters outside the sample's
// language, each rare letter counting a third: the language is the one, or
// the two (a page in one quoting names in another), whose alphabets leave
// out fewest of the letters; a second language costs two letters.
func (e *singleByte) outsideLanguage(st *sampleStats, letters int64, cover, rare *[64]int64) int64 {
	// The four best single languages, and pairs of them.
	var top [4]int
	var topMiss [4]int64
	for i := range top {
		top[i], topMiss[i] = -1, letters
	}
	for l := range cover {
		miss := letters - cover[l] + rare[l]/3
		for i := range top {
			if miss < topMiss[i] {
				copy(top[i+1:], top[i:len(top)-1])
				copy(topMiss[i+1:], topMiss[i:len(top)-1])
				top[i], topMiss[i] = l, miss
				break
			}
		}
	}
	best := topMiss[0]
	for i := 0; i < len(top) && top[i] >= 0; i++ {
		for j := i + 1; j < len(top) && top[j] >= 0; j++ {
			pair := uint64(1)<<top[i] | uint64(1)<<top[j]
			var out, rareOut int64
			for h := range 128 {
				in := &e.info[h]
				if st.n[h] == 0 || in.class != clsLetter {
					continue
				}
				switch {
				case in.langs&pair == 0:
					out += int64(st.n[h])
				case in.langs&^in.rare&pair == 0:
					rareOut += int64(st.n[h])
				}
			}
			best = min(best, out+rareOut/3+2)
		}
	}
	return best
}

// languages are the alphabets of languages written in the candidate
// encodings, as their non-ASCII lower-case letters (with İ, whose lower case
// is ASCII), the rare ones after a '|'. A decoding whose letters no one
// language holds is charged, and so are rare letters.
var languages = []string{
	"àâæçéèêëîïôœùûüÿ",   // French
	"äöüß",               // German
	"áéíñóúü",            // Spanish
	"áâãàçéêíóôõú",       // Portuguese
	"àèéìíîòóùú",         // Italian
	"àçéèíïòóúü",         // Catalan
	"áäéèëïóöü",          // Dutch
	"åäöæøé",             // Danish, Norwegian, Swedish
	"äöåšž",              // Finnish
	"áðéíóúýþæö",         // Icelandic
	"çë",                 // Albanian
	"ăâîşţșț",            // Romanian
	"ąćęłńóśźż",          // Polish
	"áčďéěíňóřšťúůýž",    // Czech
	"áäčďéíľňóôšťúýž|ĺŕ", // Slovak
	"áéíóöőúüű",          // Hungarian
	"čćđšž",              // Slovene, Croatian, Bosnian
	"çğıöşüâîûİ",         // Turkish
	"ąčęėįšųūž",          // Lithuanian
	"āčēģīķļņšūž",        // Latvian
	"äõöüšž",             // Estonian
	"абвгдежзийклмнопрстухцчшыьюя|ёфщъэ",    // Russian
	"абвгдеєжзиіїйклмнопрстухцчшьюя|ґфщ",    // Ukrainian
	"абвгдеёжзійклмнопрстуўхцчшыьэюя|ф",     // Belarusian
	"абвгдежзийклмнопрстухцчшъьюя|фщѝ",      // Bulgarian
	"абвгдђежзијклљмнњопрстћухцчџш|ф",       // Serbian
	"абвгдѓежзѕијклљмнњопрстќухцчџш|ф",      // Macedonian
	"αάβγδεέηήθιίκλμνοόπρσςτυύφχωώ|ζξψϊΐϋΰ", // Greek
}

// scriptLanguage returns the bit of the language of a script that one
// language stands for: any Hebrew, Arabic or Thai letter belongs to it.
func scriptLanguage(script uint8) uint64 {
	switch script {
	case scriptHebrew:
		return 1 << len(languages)
	case scriptArabic:
		return 1 << (len(languages) + 1)
	case scriptThai:
		return 1 << (len(languages) + 2)
	}
	return 0
}

// alphabets are the languages' alphabets by letter: bit l of common[r]
// when languages[l] holds r among its common letters, of rare[r] among
// its rare ones.
type alphabets struct {
	common, rare map[rune]uint64
}

// alphabetMasks builds the alphabets of languages once.
var alphabetMasks = sync.OnceValue(func() *alphabets {
	a := &alphabets{common: map[rune]uint64{}, rare: map[rune]uint64{}}
	for l, alphabet := range languages {
		common, rare, _ := strings.Cut(alphabet, "|")
		for _, r := range common {
			a.common[r] |= 1 << l
		}
		for _, r := range rare {
			a.rare[r] |= 1 << l
		}
	}
	return a
})

func classify(r rune) charInfo {
	switch {
	case r == utf8.RuneError, r < 0x20, 0x7F <= r && r < 0xA0, 0xE000 <= r && r <= 0xF8FF:
		return charInfo{class: clsInvalid}
	case r == 'ª' || r == 'º', unicode.IsDigit(r), unicode.Is(unicode.Sc, r), 0x200C <= r && r <= 0x200F:
		return charInfo{class: clsPunct}
	case unicode.IsLetter(r) || unicode.IsMark(r):
		in := charInfo{class: clsLetter, upper: unicode.IsUpper(r), lower: unicode.IsLower(r), mark: unicode.IsMark(r)}
		in.tone = 0x0E48 <= r && r <= 0x0E4B
		in.lead = 0x0E40 <= r && r <= 0x0E44
		in.vowel = strings.ContainsRune("аеёиоуыэюяіїєў", unicode.ToLower(r))
		switch {
		case unicode.Is(unicode.Latin, r):
			in.script = scriptLatin
		case unicode.Is(unicode.Cyrillic, r):
			in.script = scriptCyrillic
		case unicode.Is(unicode.Greek, r):
			in.script = scriptGreek
		case 0x0590 <= r && r <= 0x05FF: // by block: marks are of the script of their block
			in.script = scriptHebrew
		case 0x0600 <= r && r <= 0x06FF:
			in.script = scriptArabic
		case 0x0E00 <= r && r <= 0x0E7F:
			in.script = scriptThai
		default:
			in.script = scriptOther
		}
		in.langs = scriptLanguage(in.script)
		in.final = r == 'ς'
		lr := unicode.ToLower(r)
		al := alphabetMasks()
		common := al.common[lr] | al.common[r]
		rare := al.rare[lr] &^ common
		in.langs |= common | rare
		in.rare |= rare
		return in
	}
	switch r {
	case '\u00A0', '\u00AD', '’', '‘', '“', '”', '„', '«', '»', '‹', '›', '–', '—', '…', '•', '·', '©', '®', '™', '°', '§', '¡', '¿', '№',
		'،', '؛', '؟', '٪', '٫', '٬', '۔', '־', '׳', '״', '๏', '๚', '๛':
		return charInfo{class: clsPunct}
	case '½', '¼', '¾', '´', '×', '±', '‰', '†', '‡', 'µ', '¶', '‚', '¬', '÷':
		return charInfo{class: clsOdd}
	}
	return charInfo{class: clsRare}
}

// candidate is one encoding detection may choose.
type candidate struct {
	name   string
	prior  int
	single *singleByte
	multi  *multiByte
}

type tables struct {
	cands []candidate
}

// detectTables builds the candidates' tables once.
var detectTables = sync.OnceValue(func() *tables {
	t := &tables{}
	for _, cand := range candidates {
		enc, err := htmlindex.Get(cand.name)
		if err != nil {
			panic("charsetguess: unknown candidate encoding " + cand.name)
		}
		c := candidate{name: cand.name, prior: cand.prior}
		if cm, ok := enc.(*charmap.Charmap); ok {
			c.single = newSingleByte(cm)
		} else {
			c.multi = loadMultiByte(cand.name)
		}
		t.cands = append(t.cands, c)
	}
	return t
})

func newSingleByte(cm *charmap.Charmap) *singleByte {
	e := &singleByte{}
	for h := range 128 {
		e.info[h] = classify(cm.DecodeByte(byte(0x80 + h)))
	}
	return e
}

// FirstNonASCII returns the index of the first byte >= 0x80 in b, or len(b).
func FirstNonASCII(b []byte) int { return ascii.Prefix(b) }
