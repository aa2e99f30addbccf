package features

import (
	"hash/maphash"
	"slices"
	"unicode"
	"unicode/utf8"

	"github.com/sluice-project/sluice/internal/grow"
)

// Character classes.
const (
	cAlpha uint8 = iota
	cNum
	cPunct
	cWhite
	cOther
)

func classify(r rune) uint8 {
	switch {
	case unicode.IsLetter(r) || unicode.IsMark(r):
		return cAlpha
	case unicode.IsNumber(r):
		return cNum
	case unicode.IsSpace(r):
		return cWhite
	case unicode.IsPunct(r):
		return cPunct
	}
	return cOther
}

// Sentence begin and end classes.
const (
	beginOther uint8 = iota
	beginUpper
	beginLower
	beginLetter
	beginDigit
)

var beginNames = [...]string{"sent.begin=other", "sent.begin=upper", "sent.begin=lower", "sent.begin=letter", "sent.begin=digit"}

const (
	endOther uint8 = iota
	endStop
	endEllipsis
	endColon
	endComma
	endAlnum
)

var endNames = [...]string{"sent.end=other", "sent.end=stop", "sent.end=ellipsis", "sent.end=colon", "sent.end=comma", "sent.end=alnum"}

// blockStats are the text statistics of one block.
type blockStats struct {
	runes, alpha, num, punct, white, other     int32
	tokens, tokAlpha, tokNum, tokMix, tokOther int32
	sents                                      int32
	dup                                        int32
	begin, end                                 uint8
	first                                      bool
	seen                                       uint16 // trigger bytes
	hash                                       uint64
	nonLink                                    float64
}

// terminal reports whether r ends a sentence: 1 when a space or the end of
// the text must follow (. ! ?), 2 when not (CJK full stops).
func terminal(r rune) uint8 {
	switch r {
	case '.', '!', '?', '…', '؟', '।', '‼', '⁇', '⁉':
		return 1
	case '。', '！', '？', '．', '｡':
		return 2
	}
	return 0
}

func closing(r rune) bool {
	switch r {
	case ')', ']', '}', '"', '\'', '”', '’', '」', '』', '】', '》', '〉', '）':
		return true
	}
	return false
}

func opening(r rune) bool {
	switch r {
	case '(', '[', '{', '"', '\'', '“', '‘', '„', '«', '‹', '「', '『', '【', '《', '〈', '（', '¿', '¡':
		return true
	}
	return false
}

// Character information: the class in the low bits, then flags.
const (
	classMask uint8 = 7
	fWeakStop uint8 = 1 << 3 // . ! ?: ends a sentence when a space follows
	fStop     uint8 = 1 << 4 // 。！？: ends a sentence
	fClosing  uint8 = 1 << 5 // closing quote or bracket
	fOpening  uint8 = 1 << 6 // opening quote or bracket
)

var asciiInfo = func() (t [utf8.RuneSelf]uint8) {
	for r := range t {
		t[r] = runeInfo(rune(r))
	}
	return t
}()

// latin1Info is runeInfo of the characters below latin1 (U+0100), which
// spares the non-ASCII letters of the Latin-1 languages runeInfo's searches.
var latin1Info = func() (t [latin1]uint8) {
	for r := range t {
		t[r] = runeInfo(rune(r))
	}
	return t
}()

const latin1 = 0x100

func runeInfo(r rune) uint8 {
	info := classify(r)
	switch terminal(r) {
	case 1:
		info |= fWeakStop
	case 2:
		info |= fStop
	}
	if closing(r) {
		info |= fClosing
	}
	if opening(r) {
		info |= fOpening
	}
	return info
}

// Trigger bytes seen in a text, which tell the pattern scanners whether to
// look at all.
const (
	tAt       uint16 = 1 << iota // @
	tColon                       // :
	tDot                         // .
	tParen                       // (
	tW                           // w W
	tY                           // y Y
	tV                           // v V z Z
	tNonASCII                    // any character outside ASCII
)

var triggers = func() (t [utf8.RuneSelf]uint16) {
	t['@'], t[':'], t['.'], t['('] = tAt, tColon, tDot, tParen
	t['w'], t['W'], t['y'], t['Y'] = tW, tW, tY, tY
	t['v'], t['V'], t['z'], t['Z'] = tV, tV, tV, tV
	return t
}()

// Packed class counters of scanText: packedBits bits per class.
const (
	packedBits = 12
	packedRun  = 1<<packedBits - 1
)

var (
	// classInc[b] adds one to the packed counter of b's class.
	classInc = func() (t [utf8.RuneSelf]uint64) {
		for b := range t {
			t[b] = 1 << (uint64(asciiInfo[b]&classMask) * packedBits)
		}
		return t
	}()
	// lowerAlnum[b] is b in lower case if it is a letter or a digit, else 0.
	lowerAlnum = func() (t [utf8.RuneSelf]byte) {
		for b := range t {
			if c := asciiInfo[b] & classMask; c == cAlpha || c == cNum {
				t[b] = byte(unicode.ToLower(rune(b)))
			}
		}
		return t
	}()
	// isAlnum[b] is 1 for a letter or a digit.
	isAlnum = func() (t [utf8.RuneSelf]uint8) {
		for b := range t {
			if lowerAlnum[b] != 0 {
				t[b] = 1
			}
		}
		return t
	}()
	// tokBits[b] is 1 for a letter, 2 for a digit, 4 for another
	// character that is not white space.
	tokBits = func() (t [utf8.RuneSelf]uint8) {
		for b := range t {
			switch asciiInfo[b] & classMask {
			case cAlpha:
				t[b] = 1
			case cNum:
				t[b] = 2
			case cWhite:
			default:
				t[b] = 4
			}
		}
		return t
	}()
	// stopBit[b] is 1 for . ! ?; keepTerm[b] is 0xFF for closing quotes
	// and brackets, which leave a token's sentence end as it is.
	stopBit, keepTerm = func() (stop, keep [utf8.RuneSelf]uint8) {
		for b := range stop {
			if asciiInfo[b]&fWeakStop != 0 {
				stop[b] = 1
			}
			if asciiInfo[b]&fClosing != 0 {
				keep[b] = 0xFF
			}
		}
		return stop, keep
	}()
)

// tokClass maps a token's tokBits to its class: 0 alphabetic, 1 numeric,
// 2 mixed, 3 other; tokInc to the increment of its packed 16-bit counter.
var (
	tokClass = [8]uint8{3, 0, 1, 2, 3, 0, 1, 2}
	tokInc   = func() (t [8]uint64) {
		for f, c := range tokClass {
			t[f] = 1 << (uint64(c) * 16)
		}
		return t
	}()
)

// hashSeed seeds the duplicate hashes; any seed will do, as only equal
// hashes within a page matter.
var hashSeed = maphash.MakeSeed()

// scanText fills the text statistics of st from one pass over s. key is
// scratch space for the text's letters and digits in lower case, whose hash
// identifies duplicates; scanText returns it for reuse.
func scanText(s string, st *blockStats, key []byte) []byte {
	// The key is written without branching: every byte is stored, and the
	// length advances for letters and digits only.
	kb := slices.Grow(key[:0], len(s))
	ts := textScan{kb: kb[:cap(kb)]}
	for i := 0; i < len(s); {
		i = ts.ascii(s, i)
		if i < len(s) && s[i] >= utf8.RuneSelf {
			i = ts.nonASCII(s, i)
		}
	}
	ts.endToken()
	if ts.since != 0 {
		ts.sents++ // the text after the last sentence end
	}
	ts.fill(st, s)
	key = ts.kb[:ts.n]
	if len(key) > 0 {
		st.hash = maphash.Bytes(hashSeed, key)
	} else {
		st.hash = maphash.String(hashSeed, s) ^ 1 // symbols only: compare them all
	}
	return key
}

// textScan is the state of scanText between its ASCII and non-ASCII
// stretches of a text.
type textScan struct {
	count [5]int32 // characters per class
	toks  [4]int32 // tokens: alpha, num, mix, other
	sents int32    // sentences ended
	seen  uint16   // trigger bytes
	tf    uint8    // the current token's letters (1), digits (2), others (4)
	term  uint8    // 1 when the current token ends with sentence punctuation
	since uint8    // 1 when letters or digits came after the last sentence end
	kb    []byte   // the key, as long as its capacity
	n     int      // the key's length
}

// ascii scans the ASCII bytes of s from i, at most packedRun of them, and
// returns where it stopped: at the end of s, after packedRun bytes or at a
// byte outside ASCII.
//
// The loop keeps its state in locals and its counters packed in registers,
// and branches only on spaces: a counter array in memory would serialise it
// on store-to-load forwarding, and branches on character classes
// mispredict.
func (ts *textScan) ascii(s string, i int) int {
	var packed, tokPacked uint64
	seen, tf, term, since, sents := ts.seen, ts.tf, ts.term, ts.since, ts.sents
	kb, n := ts.kb, ts.n
	lim := min(len(s), i+packedRun)
	for ; i < lim; i++ {
		b := s[i]
		if b >= utf8.RuneSelf {
			break
		}
		packed += classInc[b]
		seen |= triggers[b]
		if b == ' ' {
			if tf != 0 {
				tokPacked += tokInc[tf]
				if since&term != 0 {
					sents++
					since = 0
				}
				tf, term = 0, 0
			}
			continue
		}
		tf |= tokBits[b]
		term = term&keepTerm[b] | stopBit[b]
		kb[n] = lowerAlnum[b]
		a := isAlnum[b]
		n += int(a)
		since |= a
	}
	for c := range ts.count {
		ts.count[c] += int32(packed >> (c * packedBits) & (1<<packedBits - 1))
	}
	for k := range ts.toks {
		ts.toks[k] += int32(tokPacked >> (k * 16) & 0xFFFF)
	}
	ts.seen, ts.tf, ts.term, ts.since, ts.sents, ts.n = seen, tf, term, since, sents, n
	return i
}

// nonASCII scans the characters outside ASCII of s from i, which starts
// one, and returns the index of the first ASCII byte after them or len(s).
func (ts *textScan) nonASCII(s string, i int) int {
	ts.seen |= tNonASCII
	for i < len(s) && s[i] >= utf8.RuneSelf {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		var info uint8
		if r < latin1 {
			info = latin1Info[r]
		} else {
			info = runeInfo(r)
		}
		c := info & classMask
		ts.count[c]++
		switch {
		case c == cWhite:
			ts.endToken()
			continue
		case c <= cNum:
			ts.tf |= 1 << c
			kb := utf8.AppendRune(ts.kb[:ts.n], unicode.ToLower(r))
			ts.n = len(kb)
			kb = slices.Grow(kb, len(s)-i)
			ts.kb = kb[:cap(kb)]
			ts.since = 1
		default:
			ts.tf |= 4
		}
		switch {
		case info&fClosing != 0:
		case info&fStop != 0: // 。: ends a sentence with or without a space
			if ts.since != 0 {
				ts.sents++
				ts.since = 0
			}
			ts.term = 1
		case info&fWeakStop != 0:
			ts.term = 1
		default:
			ts.term = 0
		}
	}
	return i
}

// endToken counts the current token, if any, as its letters, digits and
// other characters make it, and the sentence it ends if its last character
// ended one.
func (ts *textScan) endToken() {
	if ts.tf != 0 {
		ts.toks[tokClass[ts.tf]]++
		if ts.since&ts.term != 0 {
			ts.sents++
			ts.since = 0
		}
		ts.tf, ts.term = 0, 0
	}
}

// fill sets st, all but its hash, from the counts of a scan of s.
func (ts *textScan) fill(st *blockStats, s string) {
	count, toks := &ts.count, &ts.toks
	*st = blockStats{
		runes:    count[cAlpha] + count[cNum] + count[cPunct] + count[cWhite] + count[cOther],
		alpha:    count[cAlpha],
		num:      count[cNum],
		punct:    count[cPunct],
		white:    count[cWhite],
		other:    count[cOther],
		tokens:   toks[0] + toks[1] + toks[2] + toks[3],
		tokAlpha: toks[0],
		tokNum:   toks[1],
		tokMix:   toks[2],
		tokOther: toks[3],
		sents:    ts.sents,
		begin:    textBegin(s),
		end:      textEnd(s),
		seen:     ts.seen,
	}
}

// info returns the character information of r.
func info(r rune) uint8 {
	if r < utf8.RuneSelf {
		return asciiInfo[r]
	}
	return runeInfo(r)
}

// textBegin classifies the first character of s after opening quotes and
// brackets.
func textBegin(s string) uint8 {
	for _, r := range s {
		inf := info(r)
		if inf&fOpening == 0 && inf&classMask != cWhite {
			return beginClass(r, inf&classMask)
		}
	}
	return beginOther
}

// textEnd classifies the end of s: its last character after closing quotes
// and brackets, and the two before it for "...".
func textEnd(s string) uint8 {
	var last [3]rune
	var lastClass uint8
	n := 0
	for s != "" && n < 3 {
		r, size := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-size]
		inf := info(r)
		if n == 0 && (inf&fClosing != 0 || inf&classMask == cWhite) {
			continue
		}
		if n == 0 {
			lastClass = inf & classMask
		}
		last[n] = r
		n++
	}
	return endClass(last[0], last[1], last[2], lastClass)
}

func beginClass(r rune, c uint8) uint8 {
	switch {
	case c == cNum:
		return beginDigit
	case c != cAlpha:
		return beginOther
	case r < utf8.RuneSelf:
		if r >= 'A' && r <= 'Z' {
			return beginUpper
		}
		return beginLower
	case unicode.IsUpper(r) || unicode.IsTitle(r):
		return beginUpper
	case unicode.IsLower(r):
		return beginLower
	}
	return beginLetter
}

func endClass(last, prev, prev2 rune, c uint8) uint8 {
	switch {
	case last == 0:
		return endOther
	case last == '…' || last == '.' && prev == '.' && prev2 == '.':
		return endEllipsis
	case terminal(last) != 0:
		return endStop
	}
	switch last {
	case ':', '：':
		return endColon
	case ',', ';', '，', '；', '、', '،':
		return endComma
	}
	if c == cAlpha || c == cNum {
		return endAlnum
	}
	return endOther
}

// duplicates sets the dup count and first flag of every block from the
// hashes of pass 1: sorting block indices by hash groups equal texts.
func (s *scratch) duplicates(n int) {
	s.order = grow.Slice(s.order, n)
	for i := range s.order {
		s.order[i] = int32(i)
	}
	st := s.stats
	slices.SortFunc(s.order, func(a, b int32) int {
		ha, hb := st[a].hash, st[b].hash
		switch {
		case ha < hb:
			return -1
		case ha > hb:
			return 1
		}
		return int(a - b)
	})
	for i := 0; i < n; {
		j := i + 1
		for j < n && st[s.order[j]].hash == st[s.order[i]].hash {
			j++
		}
		for k := i; k < j; k++ {
			st[s.order[k]].dup = int32(j - i - 1)
		}
		if j-i > 1 {
			st[s.order[i]].first = true
		}
		i = j
	}
}
