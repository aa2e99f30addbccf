package charsetguess

import (
	_ "embed"
	"fmt"
	"slices"
	"unicode/utf8"
)

// The class tables of the multi-byte candidates come from decoding every
// byte and every pair of bytes through the encoding's decoder: about 8 ms
// for the five, a third of what `sluice clean` of one page cost. So they
// are built once by TestMultiByteTables, which holds the method, and
// embedded as they are used (123,520 bytes): a guess reads them in place,
// with nothing inflated or copied before the first page. The file holds,
// for each encoding of multiByteNames in order, the 128 classes of a lone
// byte 0x80+b, then the 128×192 classes of a lead 0x80+l and a trail
// 0x40+t, each with bit 7 set when the pair is one of the language's most
// frequent characters. The test fails when the decoders
// (golang.org/x/text) or the method change and the file was not rebuilt:
//
//	go test ./charsetguess -run TestMultiByteTables -update-tables
//
//go:embed multibyte.bin
var multiByteData []byte

// multiByteNames are the multi-byte candidates, in multibyte.bin's order.
var multiByteNames = []string{"gb18030", "shift_jis", "euc-kr", "big5", "euc-jp"}

// multiByteSize is one encoding's part of the inflated tables.
const multiByteSize = 128 + 128*192

// topBit marks, in the embedded tables, a pair that is one of the language's
// most frequent characters.
const topBit = 0x80

// loadMultiByte returns the embedded tables of multi-byte encoding name.
func loadMultiByte(name string) *multiByte {
	data := multiByteData
	k := slices.Index(multiByteNames, name)
	if k < 0 || len(data) != len(multiByteNames)*multiByteSize {
		// The file is built and checked by the tests: this is a broken build.
		panic(fmt.Sprintf("charsetguess: no embedded tables for %q (multibyte.bin holds %d bytes, want %d)", name, len(data), len(multiByteNames)*multiByteSize))
	}
	b := data[k*multiByteSize : (k+1)*multiByteSize : (k+1)*multiByteSize]
	return &multiByte{kind: name, one: b[:128:128], pairs: b[128:]}
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
	one   []uint8 // 128: the class of a lone byte 0x80+b, mbInvalid if it leads a sequence
	pairs []uint8 // 128×192: the class of lead 0x80+l and trail 0x40+t, topBit set when the pair is one of the language's most frequent characters
	kind  string
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
		v := e.pairs[int(l)*192+int(s[1]-0x40)]
		if cls := v &^ topBit; cls != mbInvalid {
			return 2, cls, v&topBit != 0
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
