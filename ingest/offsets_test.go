package ingest

import (
	"strings"
	"testing"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
)

// A piece is a run of input bytes and the UTF-8 text it decodes to: one
// character, a byte that decodes to U+FFFD, or a BOM or escape sequence that
// decodes to nothing.
type piece struct {
	in  []byte
	out string
}

// encodePieces encodes s rune by rune with a stateless encoder.
func encodePieces(t *testing.T, e encoding.Encoding, s string) []piece {
	t.Helper()
	enc := e.NewEncoder()
	var ps []piece
	for _, r := range s {
		b, err := enc.Bytes([]byte(string(r)))
		if err != nil {
			t.Fatalf("cannot encode %q: %v", r, err)
		}
		ps = append(ps, piece{b, string(r)})
	}
	return ps
}

func utf16Pieces(s string, bigEndian bool) []piece {
	var ps []piece
	for _, r := range s {
		b := utf16LE(string(r))
		if bigEndian {
			b = utf16BE(string(r))
		}
		ps = append(ps, piece{b, string(r)})
	}
	return ps
}

func utf8Pieces(s string) []piece {
	var ps []piece
	for _, r := range s {
		ps = append(ps, piece{[]byte(string(r)), string(r)})
	}
	return ps
}

// offsetText mixes ASCII, Latin, Cyrillic, CJK and markup, and is long
// enough to span many checkpoints.
func offsetText(core string) string {
	return strings.Repeat("<p class=\"x\">"+core+"</p>\n", 12)
}

func TestOffsetMapExact(t *testing.T) {
	ru := offsetText("Узкие улицы, тёплый свет фонарей и тихая музыка.")
	ja := offsetText("雨の日には本を読みます。ｶﾀｶﾅ and ASCII text.")
	ko := offsetText("강가의 작은 도서관에서 책을 읽었다. 똠방각하!")
	zh := offsetText("春天来了，公园里开满了花。€ and 😀 too.")
	tw := offsetText("春天來了，公園裡開滿了花。")
	fr := offsetText("Café, crème brûlée, “quotes” and œuvre for 5 €.")
	mixed := offsetText("Mixed: é, Ж, 日本, 😀, 𝄞.")

	utf8Bad := func() []piece {
		var ps []piece
		for i, p := range utf8Pieces(mixed) {
			ps = append(ps, p)
			switch i % 37 {
			case 5:
				ps = append(ps, piece{[]byte{0xFF}, "\uFFFD"})
			case 17: // a 3-byte sequence cut short: two bad bytes
				ps = append(ps, piece{[]byte{0xE2}, "\uFFFD"}, piece{[]byte{0x82}, "\uFFFD"})
			case 29: // a lone continuation byte
				ps = append(ps, piece{[]byte{0x80}, "\uFFFD"})
			}
		}
		return ps
	}

	cases := []struct {
		name   string
		label  string
		pieces []piece
	}{
		{"windows-1252", "windows-1252", encodePieces(t, charmap.Windows1252, fr)},
		{"iso-8859-1 label", "ISO-8859-1", encodePieces(t, charmap.Windows1252, fr)},
		{"windows-1251", "windows-1251", encodePieces(t, charmap.Windows1251, ru)},
		{"koi8-r", "koi8-r", encodePieces(t, charmap.KOI8R, ru)},
		// Many checkpoints, ASCII runs of every length against the eight
		// bytes decodeSingle takes at a time.
		{"windows-1252, long", "windows-1252", encodePieces(t, charmap.Windows1252, longSingleByte(fr))},
		{"koi8-r, long", "koi8-r", encodePieces(t, charmap.KOI8R, longSingleByte(ru))},
		{"shift_jis", "shift_jis", encodePieces(t, japanese.ShiftJIS, ja)},
		{"euc-jp", "euc-jp", encodePieces(t, japanese.EUCJP, ja)},
		{"euc-kr", "euc-kr", encodePieces(t, korean.EUCKR, ko)},
		{"gbk", "gbk", encodePieces(t, simplifiedchinese.GBK, strings.ReplaceAll(zh, "😀", ""))},
		{"gb18030", "gb18030", encodePieces(t, simplifiedchinese.GB18030, zh)},
		{"big5", "big5", encodePieces(t, traditionalchinese.Big5, tw)},
		{"utf-16le", "utf-16le", utf16Pieces(mixed, false)},
		{"utf-16be", "utf-16be", utf16Pieces(mixed, true)},
		{"utf-16le with BOM", "utf-16le", append([]piece{{bomUTF16LE, ""}}, utf16Pieces(mixed, false)...)},
		{"utf-16be with BOM", "utf-16be", append([]piece{{bomUTF16BE, ""}}, utf16Pieces(mixed, true)...)},
		{"utf-16le unpaired surrogates and odd byte", "utf-16le", []piece{
			{[]byte{'a', 0}, "a"}, {[]byte{0x00, 0xD8}, "\uFFFD"}, {[]byte{'b', 0}, "b"},
			{[]byte{0x00, 0xDC}, "\uFFFD"}, {[]byte{0x3D, 0xD8, 0x00, 0xDE}, "😀"}, {[]byte{0x00, 0xD8}, "\uFFFD"},
			{[]byte{'c'}, "\uFFFD"},
		}},
		{"utf-8 with BOM", "utf-8", append([]piece{{bomUTF8, ""}}, utf8Pieces(mixed)...)},
		{"utf-8 invalid bytes", "utf-8", utf8Bad()},
		{"utf-8 invalid bytes with BOM", "utf-8", append([]piece{{bomUTF8, ""}}, utf8Bad()...)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			checkOffsets(t, Charset{Name: tc.label}, tc.pieces, false)
		})
	}
}

// longSingleByte is s many times over, each time after a run of ASCII one
// byte longer, about 3 KB in all.
func longSingleByte(s string) string {
	var b strings.Builder
	for n := range 40 {
		b.WriteString(strings.Repeat("a", n))
		b.WriteString(s)
	}
	return b.String()
}

// TestOffsetMapISO2022JP checks the stateful ISO-2022-JP: escape sequences
// decode to nothing, so a boundary next to them may map to either side.
func TestOffsetMapISO2022JP(t *testing.T) {
	esc := func(s string) piece { return piece{[]byte("\x1b" + s), ""} }
	jis := func(b0, b1 byte, s string) piece { return piece{[]byte{b0, b1}, s} }
	var ps []piece
	for i := 0; i < 40; i++ {
		ps = append(ps, utf8Pieces("text ")...)
		ps = append(ps, esc("$B"), jis(0x46, 0x7C, "日"), jis(0x4B, 0x5C, "本"), jis(0x38, 0x6C, "語"), esc("(B"))
		ps = append(ps, utf8Pieces(" and ")...)
		ps = append(ps, esc("(I"), piece{[]byte{0x36}, "ｶ"}, piece{[]byte{0x40}, "ﾀ"}, esc("(J"), esc("(B"))
		ps = append(ps, utf8Pieces(".\n")...)
	}
	checkOffsets(t, Charset{Name: "iso-2022-jp"}, ps, true)

	// Long runs in one state carry the state across checkpoints.
	var long []piece
	for r := 0; r < 3; r++ {
		long = append(long, esc("$B"))
		for i := 0; i < 700; i++ {
			long = append(long, jis(0x46, 0x7C, "日"), jis(0x4B, 0x5C, "本"))
		}
		long = append(long, esc("(I"))
		for i := 0; i < 600; i++ {
			long = append(long, piece{[]byte{0x36}, "ｶ"})
		}
		long = append(long, esc("(B"))
		long = append(long, utf8Pieces(strings.Repeat("ascii ", 100))...)
	}
	checkOffsets(t, Charset{Name: "iso-2022-jp"}, long, true)

	// 8-bit bytes mislabelled ISO-2022-JP: each becomes U+FFFD.
	var bad []piece
	for _, c := range []byte(mustEncode(t, japanese.ShiftJIS, strings.Repeat(japaneseText[0], 4))) {
		if c >= 0x80 {
			bad = append(bad, piece{[]byte{c}, "\uFFFD"})
		} else {
			bad = append(bad, piece{[]byte{c}, string(rune(c))})
		}
	}
	checkOffsets(t, Charset{Name: "iso-2022-jp"}, bad, false)

	b := join(ps)
	if c := DetectCharset(b, "", ""); c.Name != "iso-2022-jp" || c.Source != SourceDetected {
		t.Errorf("DetectCharset = %s (%s), want iso-2022-jp (detected)", c.Name, c.Source)
	}
}

func join(ps []piece) []byte {
	var b []byte
	for _, p := range ps {
		b = append(b, p.in...)
	}
	return b
}

// checkOffsets decodes the pieces with c and checks the text and, at every
// output offset, Original: at a boundary it must be the start of the next
// piece with output (after any BOM); inside a character, that character's
// start, or the same byte when the map is a plain shift. With zeroWidthSlack, a boundary may also map to the start of any
// output-less piece just before.
func checkOffsets(t *testing.T, c Charset, ps []piece, zeroWidthSlack bool) {
	t.Helper()
	b := join(ps)
	var want strings.Builder
	for _, p := range ps {
		want.WriteString(p.out)
	}
	out, m := c.Decode(b)
	if string(out) != want.String() {
		t.Fatalf("Decode: got %d bytes %.60q..., want %d bytes %.60q...", len(out), out, want.Len(), want.String())
	}
	if m == nil {
		t.Fatalf("Decode returned a nil map for input that changes")
	}
	if max := len(b)/checkpointEvery + 2; len(m.cps) > max {
		t.Errorf("%d checkpoints for %d input bytes, want at most %d", len(m.cps), len(b), max)
	}
	if min := len(b) / (2 * checkpointEvery); !m.identity && len(m.cps) < min {
		t.Errorf("%d checkpoints for %d input bytes, want at least %d", len(m.cps), len(b), min)
	}
	o, in := 0, 0
	lo := 0 // start of the output-less pieces before in
	for _, p := range ps {
		if p.out == "" {
			in += len(p.in)
			continue
		}
		low := in
		if zeroWidthSlack {
			low = lo
		}
		if got := m.Original(o); got < low || got > in {
			if low == in {
				t.Fatalf("Original(%d) = %d, want %d (before %q)", o, got, in, p.out)
			}
			t.Fatalf("Original(%d) = %d, want in [%d, %d] (before %q)", o, got, low, in, p.out)
		}
		for k := 1; k < len(p.out); k++ {
			// Re-encoded characters map to their start, copied ones
			// byte for byte.
			want := in
			if m.identity {
				want = in + k
			}
			if got := m.Original(o + k); got != want {
				t.Fatalf("Original(%d) inside %q = %d, want %d", o+k, p.out, got, want)
			}
		}
		o += len(p.out)
		in += len(p.in)
		lo = in
	}
	if got := m.Original(len(out)); got != len(b) {
		t.Errorf("Original(len(out)) = %d, want %d", got, len(b))
	}
	if got := m.Original(len(out) + 10); got != len(b) {
		t.Errorf("Original past the end = %d, want %d", got, len(b))
	}
	if got, want := m.Original(-1), m.Original(0); got != want {
		t.Errorf("Original(-1) = %d, want Original(0) = %d", got, want)
	}
	checkCursor(t, m, len(out))
}

// checkCursor: a Cursor gives Original's answer for every offset, asked
// in increasing order (each offset, and every seventh), again, and going
// back.
func checkCursor(t *testing.T, m *OffsetMap, n int) {
	t.Helper()
	doc := &Document{offsets: m}
	for _, stride := range []int{1, 7, 300} {
		c := doc.Cursor()
		for off := -1; off <= n+2; off += stride {
			for _, o := range []int{off, off, off - 5, off} {
				if got, want := c.Original(o), m.Original(o); got != want {
					t.Fatalf("stride %d: Cursor.Original(%d) = %d, Original = %d", stride, o, got, want)
				}
			}
		}
	}
}

func TestOffsetMapIdentity(t *testing.T) {
	var m *OffsetMap
	for _, off := range []int{0, 1, 17, 1 << 20} {
		if got := m.Original(off); got != off {
			t.Errorf("nil map: Original(%d) = %d", off, got)
		}
	}

	// Valid UTF-8 without BOM and ASCII in a legacy encoding decode to
	// the input itself.
	for _, tc := range []struct {
		name string
		c    Charset
		b    string
	}{
		{"utf-8", Charset{Name: "utf-8"}, "<p>déjà vu, 日本語</p>"},
		{"detected utf-8", DetectCharset([]byte("<p>déjà vu</p>"), "", ""), "<p>déjà vu</p>"},
		{"ascii as windows-1251", Charset{Name: "windows-1251"}, "<p>plain</p>"},
		{"ascii as shift_jis", Charset{Name: "shift_jis"}, "<p>plain</p>"},
		{"ascii as iso-2022-jp", Charset{Name: "iso-2022-jp"}, "<p>plain</p>"},
	} {
		b := []byte(tc.b)
		if tc.name == "detected utf-8" {
			tc.c = DetectCharset(b, "", "")
		}
		out, m := tc.c.Decode(b)
		if m != nil || len(out) != len(b) || &out[0] != &b[0] {
			t.Errorf("%s: Decode copied the input or returned a map", tc.name)
		}
	}

	// UTF-8 after a BOM: the output is a subslice, offsets shift by 3.
	b := []byte("\uFEFF<p>déjà vu</p>")
	out, m := DetectCharset(b, "", "").Decode(b)
	if &out[0] != &b[3] {
		t.Errorf("UTF-8 with BOM: output is not a subslice of the input")
	}
	for off := 0; off <= len(out); off++ {
		if got := m.Original(off); got != off+3 {
			t.Errorf("UTF-8 with BOM: Original(%d) = %d, want %d", off, got, off+3)
		}
	}
}

// BenchmarkOriginal measures one Original query on a decoded page of about
// 60 KB.
func BenchmarkOriginal(b *testing.B) {
	ja := buildPage("", japaneseTitle, slicesRepeat(japaneseText, 100))
	ru := buildPage("", russianTitle, slicesRepeat(russianText, 60))
	for _, tc := range []struct {
		name string
		e    encoding.Encoding
		text string
	}{
		{"shift_jis", japanese.ShiftJIS, ja},
		{"iso-2022-jp", japanese.ISO2022JP, ja},
		{"utf-16le", nil, ja},
		{"windows-1251", charmap.Windows1251, ru},
	} {
		b.Run(tc.name, func(b *testing.B) {
			src := utf16LE(tc.text)
			if tc.e != nil {
				src = []byte(mustEncode(b, tc.e, tc.text))
			}
			out, m := Charset{Name: tc.name}.Decode(src)
			b.ReportAllocs()
			off := 0
			for b.Loop() {
				off = (off + 7919) % len(out)
				m.Original(off)
			}
		})
	}
}
