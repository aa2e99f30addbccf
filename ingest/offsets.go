package ingest

import (
	"errors"
	"slices"
	"sort"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/transform"

	"github.com/sluice-project/sluice/charsetguess"
)

// checkpointEvery is the distance in input bytes between two checkpoints of
// an OffsetMap: the table costs 16 bytes per checkpointEvery input bytes
// (about 6%), and a query re-decodes at most that many bytes.
const checkpointEvery = 256

// OffsetMap maps byte offsets in decoded UTF-8 text back to byte offsets in
// the original input, so that anything found in the decoded text can point
// into the source. A nil *OffsetMap is the identity: Decode returns nil when
// its output is its input (UTF-8 input without BOM, or ASCII input in an
// ASCII-compatible encoding).
//
// The map keeps checkpoints, pairs of (output offset, input offset) at
// character boundaries about every checkpointEvery input bytes, and answers
// a query by binary search for the checkpoint before it and re-decoding the
// input from there. It refers to the input given to Decode, which must not be
// modified while the map is in use. Its methods are safe for concurrent use.
type OffsetMap struct {
	src      []byte
	outLen   int
	kind     decoderKind
	identity bool // output is src[cps[0].in:], byte for byte
	cm       *charmap.Charmap
	enc      encoding.Encoding
	cps      []checkpoint // cps[0] = {0, start of data after any BOM}
	states   []uint8      // ISO-2022-JP: decoder state at each checkpoint
}

// checkpoint is a pair of offsets at the same character boundary.
type checkpoint struct{ out, in int }

// Original returns the offset in the original input that corresponds to
// byte off of the decoded output. At character boundaries the result is
// exact: the offset where the next character's encoding begins (after a BOM,
// for offset 0; in ISO-2022-JP, possibly before the escape sequences that
// precede the character). Inside a character the result lies within that
// character's encoding: its start where the text was re-encoded, the very
// byte where it was copied. Offsets at or past the end of the output map to
// the length of the input. Original is monotone in off and never outside
// [0, len(input)]. For a nil map, Original returns off.
func (m *OffsetMap) Original(off int) int {
	if m == nil {
		return off
	}
	if off <= 0 {
		return m.cps[0].in
	}
	if off >= m.outLen {
		return len(m.src)
	}
	if m.identity {
		return min(m.cps[0].in+off, len(m.src))
	}
	i, cp := m.before(off)
	if cp.out == off {
		return cp.in
	}
	switch m.kind {
	case kindTransform, kindISO2022JP:
		return m.refineTransform(i, off)
	default:
		in, _ := m.step(cp, off)
		return in
	}
}

// before returns the last checkpoint at or before output offset off, and
// its index.
func (m *OffsetMap) before(off int) (int, checkpoint) {
	i := sort.Search(len(m.cps), func(i int) bool { return m.cps[i].out > off }) - 1
	return i, m.cps[i]
}

// step decodes from the character boundary cp up to output offset off
// and returns the offsets, input and output, of the start of the
// character that holds off (off itself when it is a boundary).
func (m *OffsetMap) step(cp checkpoint, off int) (in, out int) {
	in, out = cp.in, cp.out
	if m.kind == kindSingle {
		return m.stepSingle(in, out, off)
	}
	for out < off && in < len(m.src) {
		var r rune
		var n int
		switch m.kind { // kindSingle: stepSingle
		case kindUTF16LE:
			r, n = decodeUTF16(m.src, in, false)
		case kindUTF16BE:
			r, n = decodeUTF16(m.src, in, true)
		default:
			r, n = utf8.DecodeRune(m.src[in:])
		}
		w := utf8.RuneLen(r)
		if out+w > off {
			break // off is inside this character
		}
		out += w
		in += n
	}
	return in, out
}

// refineTransform re-decodes from checkpoint i into a buffer of exactly
// off-cp.out bytes: the decoder stops at the last character that fits, and
// the input it consumed is the answer. Checkpoints are taken where a fresh
// decoder (for ISO-2022-JP, one put in the recorded state by an escape
// sequence, which decodes to nothing) behaves as the running one did, so the
// re-decoding agrees with Decode.
func (m *OffsetMap) refineTransform(i, off int) int {
	cp := m.cps[i]
	next := len(m.src)
	if i+1 < len(m.cps) {
		next = m.cps[i+1].in
	}
	src := m.src[cp.in:next]
	pre := 0
	if m.states != nil {
		esc := iso2022JPEscapes[m.states[i]]
		pre = len(esc)
		src = append([]byte(esc), src...)
	}
	dst := make([]byte, off-cp.out)
	_, n, _ := m.enc.NewDecoder().Transform(dst, src, true)
	return cp.in + min(max(n-pre, 0), next-cp.in)
}

// stepSingle is step for a single-byte encoding: an ASCII byte is one
// output byte, without the decoding of the other encodings' loop.
func (m *OffsetMap) stepSingle(in, out, off int) (int, int) {
	src := m.src
	for out < off && in < len(src) {
		w := 1
		if c := src[in]; c >= utf8.RuneSelf {
			w = utf8.RuneLen(m.cm.DecodeByte(c))
		}
		if out+w > off {
			break // off is inside this character
		}
		out += w
		in++
	}
	return in, out
}

// decodeUTF16 decodes the character at b[i]: a code unit, a surrogate pair,
// or U+FFFD for an unpaired surrogate (2 bytes) or an odd last byte (1 byte).
func decodeUTF16(b []byte, i int, bigEndian bool) (rune, int) {
	if i+1 >= len(b) {
		return utf8.RuneError, 1
	}
	u := unit16(b, i, bigEndian)
	if !utf16.IsSurrogate(rune(u)) {
		return rune(u), 2
	}
	if u <= 0xDBFF && i+3 < len(b) {
		if u2 := unit16(b, i+2, bigEndian); 0xDC00 <= u2 && u2 <= 0xDFFF {
			return utf16.DecodeRune(rune(u), rune(u2)), 4
		}
	}
	return utf8.RuneError, 2
}

func unit16(b []byte, i int, bigEndian bool) uint16 {
	if bigEndian {
		return uint16(b[i])<<8 | uint16(b[i+1])
	}
	return uint16(b[i]) | uint16(b[i+1])<<8
}

// newMap starts an OffsetMap for decoding src from offset start, with its
// first checkpoint there.
func newMap(src []byte, start int, kind decoderKind) *OffsetMap {
	m := &OffsetMap{
		src:  src,
		kind: kind,
		cps:  make([]checkpoint, 1, 1+(len(src)-start)/checkpointEvery),
	}
	m.cps[0] = checkpoint{0, start}
	return m
}

// takeCheckpoint takes a checkpoint at input offset in, output offset out,
// if in has reached next (the offset where one is due), and returns where
// the next one is due.
func (m *OffsetMap) takeCheckpoint(out, in, next int) int {
	if in < next {
		return next
	}
	m.cps = append(m.cps, checkpoint{out, in})
	return in + checkpointEvery
}

// shiftedMap is the map of output src[start:], unchanged (UTF-8 after a BOM).
func shiftedMap(src []byte, start int) *OffsetMap {
	return &OffsetMap{
		src:      src,
		outLen:   len(src) - start,
		kind:     kindUTF8,
		identity: true,
		cps:      []checkpoint{{0, start}},
	}
}

// decodeSingle decodes src[start:] in the single-byte encoding cm.
func decodeSingle(src []byte, start int, cm *charmap.Charmap) ([]byte, *OffsetMap) {
	// The UTF-8 of every high byte, and the exact output size.
	var high [128]struct {
		b [3]byte // no single-byte encoding maps to a 4-byte character
		n int
	}
	for c := range high {
		e := &high[c]
		r := cm.DecodeByte(byte(c + 0x80))
		if utf8.RuneLen(r) > len(e.b) {
			r = utf8.RuneError
		}
		e.n = utf8.EncodeRune(e.b[:], r)
	}
	size := len(src) - start
	for i := start + charsetguess.FirstNonASCII(src[start:]); i < len(src); {
		size += high[src[i]-0x80].n - 1 // an ASCII byte is one output byte
		i++
		i += charsetguess.FirstNonASCII(src[i:])
	}
	out := make([]byte, size)
	m := newMap(src, start, kindSingle)
	m.cm = cm
	o := 0
	for in := start; in < len(src); {
		if in > start {
			m.cps = append(m.cps, checkpoint{o, in})
		}
		end := min(in+checkpointEvery, len(src))
		for i := in; i < end; i++ {
			c := src[i]
			if c < utf8.RuneSelf {
				// The run of ASCII bytes from here, copied at once.
				j := i + 1 + charsetguess.FirstNonASCII(src[i+1:end])
				o += copy(out[o:], src[i:j])
				i = j - 1
				continue
			}
			e := &high[c-0x80]
			if o+3 > len(out) { // cannot happen: out is sized exactly
				o += copy(out[o:], e.b[:e.n])
				continue
			}
			out[o], out[o+1], out[o+2] = e.b[0], e.b[1], e.b[2]
			o += e.n
		}
		in = end
	}
	m.outLen = o
	return out[:o], m
}

// decodeUTF16From decodes src[start:] as UTF-16.
func decodeUTF16From(src []byte, start int, bigEndian bool) ([]byte, *OffsetMap) {
	kind := kindUTF16LE
	if bigEndian {
		kind = kindUTF16BE
	}
	// At most 3 output bytes per 2 input bytes, and 3 for an odd last byte.
	out := make([]byte, 0, (len(src)-start)/2*3+3)
	m := newMap(src, start, kind)
	next := start + checkpointEvery
	for in := start; in < len(src); {
		next = m.takeCheckpoint(len(out), in, next)
		if in+1 < len(src) {
			if u := unit16(src, in, bigEndian); u < utf8.RuneSelf {
				out = append(out, byte(u))
				in += 2
				continue
			}
		}
		r, n := decodeUTF16(src, in, bigEndian)
		out = utf8.AppendRune(out, r)
		in += n
	}
	m.outLen = len(out)
	return out, m
}

// decodeUTF8Repair copies src[start:], replacing each byte of an invalid
// UTF-8 sequence by U+FFFD (as utf8.DecodeRune reads them).
func decodeUTF8Repair(src []byte, start int) ([]byte, *OffsetMap) {
	out := make([]byte, 0, len(src)-start+len(src)/8+16)
	m := newMap(src, start, kindUTF8)
	next := start + checkpointEvery
	for in := start; in < len(src); {
		next = m.takeCheckpoint(len(out), in, next)
		if c := src[in]; c < utf8.RuneSelf {
			out = append(out, c)
			in++
			continue
		}
		r, n := utf8.DecodeRune(src[in:])
		if r == utf8.RuneError && n == 1 {
			out = append(out, "\uFFFD"...)
		} else {
			out = append(out, src[in:in+n]...)
		}
		in += n
	}
	m.outLen = len(out)
	return out, m
}

// decodeTransform decodes src[start:] with an x/text decoder, in windows of
// about checkpointEvery bytes, taking a checkpoint where each window ends (a
// character boundary). The multi-byte decoders are stateless between
// characters, so re-decoding from any checkpoint agrees with the full
// decoding. ISO-2022-JP is stateful: each checkpoint also records the
// decoder's state, found by iso2022JPState, and a checkpoint is only taken
// where re-decoding from the previous one reproduces the output exactly.
func decodeTransform(src []byte, start int, enc encoding.Encoding, iso2022jp bool) ([]byte, *OffsetMap) {
	kind := kindTransform
	if iso2022jp {
		kind = kindISO2022JP
	}
	dec := enc.NewDecoder()
	n := len(src) - start
	out := make([]byte, 0, n+n/2+16)
	m := newMap(src, start, kind)
	m.enc = enc
	if iso2022jp {
		m.states = make([]uint8, 1, cap(m.cps))
	}
	nextTry := 0 // ISO-2022-JP: back off after a failed checkpoint
	for in := start; in < len(src); {
		end := min(in+checkpointEvery, len(src))
		for {
			// No decoder writes more than 3 bytes per input byte, so
			// ErrShortDst cannot happen, but is handled anyway.
			out = slices.Grow(out, 3*(end-in)+16)
			nd, ns, err := dec.Transform(out[len(out):cap(out)], src[in:end], end == len(src))
			out = out[:len(out)+nd]
			in += ns
			if err == nil || nd > 0 || ns > 0 {
				break
			}
			if errors.Is(err, transform.ErrShortSrc) && end < len(src) {
				end = min(end+checkpointEvery, len(src)) // a character spans the window's end
				continue
			}
			if errors.Is(err, transform.ErrShortDst) {
				continue
			}
			// Unexpected: replace one byte and restart the decoder,
			// with a checkpoint so that Original agrees.
			out = append(out, "\uFFFD"...)
			in++
			dec.Reset()
			m.cps = append(m.cps, checkpoint{len(out), in})
			if iso2022jp {
				m.states = append(m.states, 0)
			}
			break
		}
		last := m.cps[len(m.cps)-1]
		if in >= len(src) || in <= last.in {
			continue
		}
		if !iso2022jp {
			m.cps = append(m.cps, checkpoint{len(out), in})
			continue
		}
		if in < nextTry {
			continue
		}
		if st, ok := iso2022JPState(enc, m.states[len(m.states)-1], src[last.in:in], out[last.out:]); ok {
			m.cps = append(m.cps, checkpoint{len(out), in})
			m.states = append(m.states, st)
		} else {
			nextTry = in + (in - last.in)
		}
	}
	m.outLen = len(out)
	return out, m
}

// iso2022JPEscapes are escape sequences that put the ISO-2022-JP decoder in
// each of its states: ASCII, katakana, JIS X 0208, JIS X 0212.
var iso2022JPEscapes = [...]string{"", "\x1b(I", "\x1b$B", "\x1b$(D"}

// iso2022JPState finds the state of the ISO-2022-JP decoder after chunk,
// when it starts in state st, by decoding the chunk and then the probe "!!",
// which decodes differently in each state. ok is false unless the chunk
// decodes to want, the output of the running decoder.
func iso2022JPState(enc encoding.Encoding, st uint8, chunk, want []byte) (uint8, bool) {
	pre := iso2022JPEscapes[st]
	buf := make([]byte, 0, len(pre)+len(chunk)+2)
	buf = append(append(append(buf, pre...), chunk...), "!!"...)
	got, err := enc.NewDecoder().Bytes(buf)
	if err != nil || len(got) < len(want) || string(got[:len(want)]) != string(want) {
		return 0, false
	}
	switch string(got[len(want):]) {
	case "!!":
		return 0, true
	case "\uFF61\uFF61":
		return 1, true
	case "\u3000":
		return 2, true
	case "\uFFFD":
		return 3, true
	}
	return 0, false
}
