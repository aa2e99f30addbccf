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
// the sample's non-ASCII runs once more. The candidates' tables are built
// on first use, in about 10 ms.
package charsetguess

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
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
		for l, alphabet := range languages {
			common, rare, _ := strings.Cut(alphabet, "|")
			switch {
			case strings.ContainsRune(common, lr), strings.ContainsRune(common, r):
				in.langs |= 1 << l
			case strings.ContainsRune(rare, lr):
				in.langs |= 1 << l
				in.rare |= 1 << l
			}
		}
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
			c.multi = newMultiByte(cand.name)
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

// Classes of characters in multi-byte encodings.
const (
	mbCommon  uint8 = iota // a character of the language's main planes
	mbHan                  // a common Han character
	mbOdd                  // a second-plane character, half-width katakana
	mbRare                 // a character of the language's fringe
	mbInvalid              // a sequence the encoding does not define, private use
)

// multiByte scores a CJK encoding by reading the sample.
type multiByte struct {
	one  [128]uint8      // class of a lone byte 0x80+b, mbInvalid if it leads a sequence
	two  [128][192]uint8 // class of lead 0x80+l and trail 0x40+t
	top  [128][192]bool  // the pair is one of the language's most frequent characters
	kind string
}

func (e *multiByte) score(s []byte) (charge, top float64) {
	var ch, chars, tops int64
	lastHan := -2 // index after the last Han character
	for i := FirstNonASCII(s); i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i += 1 + FirstNonASCII(s[i+1:])
			continue
		}
		n, cls, isTop := e.next(s[i:])
		chars++
		if isTop {
			tops++
		}
		switch cls {
		case mbHan:
			if lastHan == i-1 && s[i-1] == ' ' {
				ch += chargeSpaced
			}
			lastHan = i + n
		case mbOdd:
			ch += chargeOdd * int64(n)
		case mbRare:
			ch += chargeRare * int64(n)
		case mbInvalid:
			ch += chargeInvalid * int64(n)
		}
		i += n
	}
	if chars > 0 {
		top = float64(tops) / float64(chars)
	}
	return float64(ch), top
}

// next returns the length and class of the character at the start of s,
// which is a non-ASCII byte, and whether it is one of the language's most
// frequent characters. A bad sequence has length 1.
func (e *multiByte) next(s []byte) (n int, cls uint8, top bool) {
	l := s[0] - 0x80
	if cls := e.one[l]; cls != mbInvalid {
		return 1, cls, false
	}
	if len(s) >= 2 && s[1] >= 0x40 {
		if cls := e.two[l][s[1]-0x40]; cls != mbInvalid {
			return 2, cls, e.top[l][s[1]-0x40]
		}
	}
	isDigit := func(c byte) bool { return '0' <= c && c <= '9' }
	switch {
	case e.kind == "gb18030" && len(s) >= 4 && isDigit(s[1]) && s[2] >= 0x81 && isDigit(s[3]):
		return 4, mbRare, false // a four-byte GB 18030 sequence
	case e.kind == "euc-jp" && s[0] == 0x8F && len(s) >= 3 && s[1] >= 0xA1 && s[2] >= 0xA1:
		return 3, mbRare, false // JIS X 0212
	}
	return 1, mbInvalid, false
}

// Frequent characters by language: a text's share of them tells its
// language's encodings from the others that decode it without error.
const (
	topChinese     = "的一是不了在人有我他这个们中来上大为和国地到以说时要就出会可也你对生能而子那得于着下自之年过发后作里用道行所然家种事成方多经么去法学如都同现当没动面起看定天分还进好小部其些主样理心她本前开但因只从想实日军者意无力它与长把机十民第公此已工使情明性知全三又关点正业外将两高间由问很最重并物手应战向头文体政美相见被利什二等产或新己制身果加西斯月话合回特代内信表化老给世位次度门任常先海通教儿原东声提立及比员解水名真论处走义各入几口认条平系气题活尔更别打女变四神总何电数安少报才结反受目太量再感建务做接必场件计管期市直德资命山金指克许统区保至队形社便空决治展马科司五基眼书非则听白却界达光放强即像难且权思王象完设式色路记南品住告类求据程北边死张该交规万取拉格望觉术领共确传师观清今切院让识候带导争运笑飞风步改收根干造言联持组每济车亲极林服快办议往元英士证近失转夫令准布始怎呢存未远叫台单影具罗字爱击流备兵连调深商算质团集百需价花党华城石级整府离况亚请技际约示复病息究线似官火断精满支视消越器容照须九增研写称企八功吗包片史委乎查轻易早曾除农找装广显吧阿李标谈吃图念六引历首医局突专费号尽另周较注语仅考落青随选列武红响虽推势参希古众构房半节土投某案黑维革划敌致陈律足态护七兴派孩验责营星够章音跟志底站严巴例防族供效续施留讲型料终答紧黄绝奇察母京段依批群项故按河米围江织害斗双境客纪采举杀攻父苏密低朝友诉止细愿千值仍男钱破网热助倒育属坐帝限船脸职速刻乐否刚威毛状率甚独球般普怕弹校苦创假久错承印晚兰试股拿脑预谁益阳若哪微尼继送急血惊伤素药适波夜省初喜卫源食险待述陆习置居劳财环排福纳欢雷警获模充负云停木游龙树疑层冷洲冲射略范竟句室异激汉村哈策演简卡罪判担州静退既衣您宗积余痛检差富灵协角占配征修皮挥胜降阶审沉坚善妈刘读啊超免压银买皇养伊怀执副乱抗犯追帮宣佛岁航优怪香著田铁控税左右份穿艺背阵草脚概恶块顿敢守酒岛托央户烈洋哥索胡款靠评版宝座释景顾弟登货互付伯慢欧换闻危忙核暗姐介坏讨丽良序升监临亮露永呼味野架域沙掉括舰鱼杂误湾吉减编楚肯测败屋跑梦散温困剑渐封救贵枪缺楼县尚毫移娘朋画班智亦耳恩短掌恐遗固席松秘谢鲁遇康虑幸均销钟诗藏赶剧票损忽巨炮旧端探湖录叶春乡附吸予礼港雨呀板庭妇归睛饭额含顺输摇招婚脱补谓督毒油疗旅泽材灭逐莫笔亡鲜词圣择寻厂睡博勒烟授诺伦岸奥唐卖俄炸载洛健堂旁宫喝借君禁阴园谋宋避抓荣姑孙逃牙束跳顶玉镇雪午练迫爷篇肉嘴馆遍凡础洞卷坦牛宁纸诸训私庄祖丝翻暴森塔默握戏隐熟骨访弱蒙歌店鬼软典欲萨伙遭盘爸扩盖弄雄稳忘亿刺拥徒姆杨齐赛趣曲刀床迎冰虚玩析窗醒妻透购替塞努休虎扬途侵刑绿兄迅套贸毕唯谷轮库迹尤竞街促延震弃甲伟麻川申缓潜闪售灯针哲络抵朱埃抱鼓植纯夏忍页杰筑折郑贝尊吴秀混臣雅振染盛怒舞圆搞狂措姓残秋培迷诚宽宇猛摆梅毁伸摩盟末乃悲拍丁赵侧醉泪劲苍"
	topTraditional = "的一是不了在人有我他這個們中來上大為和國地到以說時要就出會可也你對生能而子那得於著下自之年過發後作裡用道行所然家種事成方多經麼去法學如都同現當沒動面起看定天分還進好小部其些主樣理心她本前開但因只從想實日軍者意無力它與長把機十民第公此已工使情明性知全三又關點正業外將兩高間由問很最重並物手應戰向頭文體政美相見被利什二等產或新己制身果加西斯月話合回特代內信表化老給世位次度門任常先海通教兒原東聲提立及比員解水名真論處走義各入幾口認條平系氣題活爾更別打女變四神總何電數安少報才結反受目太量再感建務做接必場件計管期市直德資命山金指克許統區保至隊形社便空決治展馬科司五基眼書非則聽白卻界達光放強即像難且權思王象完設式色路記南品住告類求據程北邊死張該交規萬取拉格望覺術領共確傳師觀清今切院讓識候帶導爭運笑飛風步改收根乾造言聯持組每濟車親極林服快辦議往元英士證近失轉夫令準布始怎呢存未遠叫台單影具羅字愛擊流備兵連調深商算質團集百需價花黨華城石級整府離況亞請技際約示復病息究線似官火斷精滿支視消越器容照須九增研寫稱企八功嗎包片史委乎查輕易早曾除農找裝廣顯吧阿李標談吃圖念六引歷首醫局突專費號盡另周較注語僅考落青隨選列武紅響雖推勢參希古眾構房半節土投某案黑維革劃敵致陳律足態護七興派孩驗責營星夠章音跟志底站嚴巴例防族供效續施留講型料終答緊黃絕奇察母京段依批群項故按河米圍江織害鬥雙境客紀採舉殺攻父蘇密低朝友訴止細願千值仍男錢破網熱助倒育屬坐帝限船臉職速刻樂否剛威毛狀率甚獨球般普怕彈校苦創假久錯承印晚蘭試股拿腦預誰益陽若哪微尼繼送急血驚傷素藥適波夜省初喜衛源食險待述陸習置居勞財環排福納歡雷警獲模充負雲停木遊龍樹疑層冷洲衝射略範竟句室異激漢村哈策演簡卡罪判擔州靜退既衣您宗積餘痛檢差富靈協角占配征修皮揮勝降階審沉堅善媽劉讀啊超免壓銀買皇養伊懷執副亂抗犯追幫宣佛歲航優怪香著田鐵控稅左右份穿藝背陣草腳概惡塊頓敢守酒島託央戶烈洋哥索胡款靠評版寶座釋景顧弟登貨互付伯慢歐換聞危忙核暗姐介壞討麗良序升監臨亮露永呼味野架域沙掉括艦魚雜誤灣吉減編楚肯測敗屋跑夢散溫困劍漸封救貴槍缺樓縣尚毫移娘朋畫班智亦耳恩短掌恐遺固席松秘謝魯遇康慮幸均銷鐘詩藏趕劇票損忽巨炮舊端探湖錄葉春鄉附吸予禮港雨呀板庭婦歸睛飯額含順輸搖招婚脫補謂督毒油療旅澤材滅逐莫筆亡鮮詞聖擇尋廠睡博勒煙授諾倫岸奧唐賣俄炸載洛健堂旁宮喝借君禁陰園謀宋避抓榮姑孫逃牙束跳頂玉鎮雪午練迫爺篇肉嘴館遍凡礎洞卷坦牛寧紙諸訓私莊祖絲翻暴森塔默握戲隱熟骨訪弱蒙歌店鬼軟典欲薩夥遭盤爸擴蓋弄雄穩忘億刺擁徒姆楊齊賽趣曲刀床迎冰虛玩析窗醒妻透購替塞努休虎揚途侵刑綠兄迅套貿畢唯谷輪庫跡尤競街促延震棄甲偉麻川申緩潛閃售燈針哲絡抵朱埃抱鼓植純夏忍頁傑築折鄭貝尊吳秀混臣雅振染盛怒舞圓搞狂措姓殘秋培迷誠寬宇猛擺梅毀伸摩盟末乃悲拍丁趙側醉淚勁蒼"
	topKorean      = "이다는의에을하고가로지서한기를리사도어나으일자수대인아시있니해게정전요보주적들과은상세원부만것제면소라우구문없그내경성여며동장공방국중조계무마연비분회관생신개러실발학선위모히했되불결터행것저치유화교용물속명각"
	topJapanese    = "日本人中大年一出十上国会時行事自分生見的言前後手今方同新気思私何彼者"
)

// newMultiByte builds the class tables of a CJK encoding by decoding every
// byte and pair through the encoding's decoder.
func newMultiByte(name string) *multiByte {
	enc, err := htmlindex.Get(name)
	if err != nil {
		panic(err)
	}
	dec := enc.NewDecoder()
	e := &multiByte{kind: name}
	var top string
	switch name {
	case "gb18030":
		top = topChinese
	case "big5":
		top = topTraditional
	case "euc-kr":
		top = topKorean
	default:
		top = topJapanese
	}
	frequent := make(map[rune]bool)
	for _, r := range top {
		frequent[r] = true
	}
	var buf [16]byte
	decode := func(b []byte) (rune, bool) {
		dec.Reset()
		n, _, err := dec.Transform(buf[:], b, true)
		if err != nil {
			return 0, false
		}
		r, size := utf8.DecodeRune(buf[:n])
		if r == utf8.RuneError || size != n {
			return 0, false
		}
		return r, true
	}
	for l := range 128 {
		r, ok := decode([]byte{byte(0x80 + l)})
		if !ok {
			e.one[l] = mbInvalid
		} else {
			e.one[l] = classifyCJK(name, r, byte(0x80+l), 0)
		}
	}
	for l := range 128 {
		if e.one[l] != mbInvalid {
			continue
		}
		for t := range 192 {
			lead, trail := byte(0x80+l), byte(0x40+t)
			r, ok := decode([]byte{lead, trail})
			if !ok {
				e.two[l][t] = mbInvalid
				continue
			}
			e.two[l][t] = classifyCJK(name, r, lead, trail)
			if 0x3040 <= r && r <= 0x30FF {
				e.top[l][t] = name == "shift_jis" || name == "euc-jp"
			} else {
				e.top[l][t] = frequent[r]
			}
		}
	}
	return e
}

// classifyCJK classes character r, encoded as lead and trail (0 for a
// single byte), in CJK encoding name.
func classifyCJK(name string, r rune, lead, trail byte) uint8 {
	japanese := name == "shift_jis" || name == "euc-jp"
	korean := name == "euc-kr"
	switch {
	case 0xE000 <= r && r <= 0xF8FF, r < 0x20, 0x7F <= r && r < 0xA0:
		return mbInvalid
	case unicode.Is(unicode.Han, r):
		if korean {
			return mbOdd // Hanja: real, but seldom in modern Korean
		}
		if firstPlane(name, lead, trail) {
			return mbHan
		}
		return mbOdd
	case 0x3040 <= r && r <= 0x30FF: // hiragana, katakana, the prolonged sound mark
		if japanese {
			return mbCommon
		}
		return mbRare
	case 0xFF61 <= r && r <= 0xFF9F: // half-width katakana
		if japanese {
			return mbOdd
		}
		return mbRare
	case 0xAC00 <= r && r <= 0xD7A3: // Hangul syllables
		if korean && lead >= 0xB0 && lead <= 0xC8 && trail >= 0xA1 {
			return mbCommon
		}
		if korean {
			return mbOdd
		}
		return mbRare
	case 0x3000 <= r && r <= 0x303F, 0xFF01 <= r && r <= 0xFF5E, r == 0x00B7, r == 0x2014, r == 0x2015,
		r == 0x2018, r == 0x2019, r == 0x201C, r == 0x201D, r == 0x2026, r == 0x20AC, r == 0x2025, r == 0x30FB:
		return mbCommon // CJK punctuation, full-width ASCII
	}
	return mbRare
}

// firstPlane reports whether a Han character's bytes lie in its encoding's
// first plane, the more common characters: GB 2312 level 1, Big5's
// frequent characters, JIS X 0208 level 1.
func firstPlane(name string, lead, trail byte) bool {
	code := uint16(lead)<<8 | uint16(trail)
	switch name {
	case "gb18030":
		return 0xB0 <= lead && lead <= 0xD7 && trail >= 0xA1
	case "big5":
		return 0xA440 <= code && code <= 0xC67E
	case "shift_jis":
		return 0x889F <= code && code <= 0x9872
	case "euc-jp":
		return 0xB0 <= lead && lead <= 0xCF && trail >= 0xA1
	}
	return false
}

// FirstNonASCII returns the index of the first byte >= 0x80 in b, or len(b).
func FirstNonASCII(b []byte) int {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		if (uint64(b[i])|uint64(b[i+1])<<8|uint64(b[i+2])<<16|uint64(b[i+3])<<24|
			uint64(b[i+4])<<32|uint64(b[i+5])<<40|uint64(b[i+6])<<48|uint64(b[i+7])<<56)&
			0x8080808080808080 != 0 {
			break
		}
	}
	for ; i < len(b); i++ {
		if b[i] >= utf8.RuneSelf {
			return i
		}
	}
	return i
}
