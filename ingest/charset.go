package ingest

import (
	"bytes"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/simplifiedchinese"

	"github.com/sluice-project/sluice/charsetguess"
)

const (
	// maxHeadScan bounds the <meta> prescan. The scan stops earlier at
	// </head> or <body. Modern heads carry large inline scripts and styles,
	// so this is far above the standard's 1024 bytes; the scan only visits
	// '<' bytes, so the bound costs little.
	maxHeadScan = 256 << 10
	// maxSample bounds the text sample given to the statistical detector.
	maxSample = 64 << 10
)

// Detection sources, the values of Charset.Source.
const (
	SourceBOM      = "bom"
	SourceHTTP     = "http"
	SourceWrapper  = "wrapper"
	SourceMeta     = "meta"
	SourceUTF8     = "utf8"
	SourceDetected = "detected"
	SourceDefault  = "default"
)

// decoderKind says which decoding loop a charset uses.
type decoderKind uint8

const (
	kindUTF8 decoderKind = iota
	kindUTF16LE
	kindUTF16BE
	kindSingle    // single-byte, via a charmap table
	kindTransform // stateless multi-byte decoder from x/text
	kindISO2022JP // stateful 7-bit decoder from x/text
)

// Facts about the input that DetectCharset learnt and Decode may reuse.
const (
	factValid     uint8 = 1 << iota // utf8.Valid(b)
	factASCII                       // every byte < 0x80
	factTruncated                   // valid but for an incomplete last rune
)

// Charset is the result of detection: the encoding of a page and how it was
// found. The zero Charset decodes as UTF-8. A Charset built by hand with only
// Name set (for example Charset{Name: "shift_jis"}) decodes by that label.
type Charset struct {
	// Name is the canonical name of the encoding in the WHATWG Encoding
	// Standard, lower case: "utf-8", "windows-1252", "shift_jis",
	// "euc-kr", "gbk", "gb18030", "big5", "koi8-r", "windows-1251",
	// "utf-16le", ...
	Name string
	// Source says how the encoding was found: "bom", "http", "wrapper",
	// "meta", "utf8" (the input is valid UTF-8), "detected" (statistics)
	// or "default" (windows-1252, nothing else applied).
	Source string

	kind     decoderKind
	resolved bool
	bomLen   int               // length of the BOM when Source is "bom", else 0
	cm       *charmap.Charmap  // kindSingle
	enc      encoding.Encoding // kindTransform, kindISO2022JP

	// The input DetectCharset examined (first byte and length) and what
	// it found, so that Decode on the same slice skips a second pass.
	seen    *byte
	seenLen int
	facts   uint8
}

var (
	charsetUTF8 = Charset{Name: "utf-8", kind: kindUTF8, resolved: true}
	charset1252 = Charset{Name: "windows-1252", kind: kindSingle, cm: charmap.Windows1252, resolved: true}
)

var (
	bomUTF8    = []byte{0xEF, 0xBB, 0xBF}
	bomUTF16LE = []byte{0xFF, 0xFE}
	bomUTF16BE = []byte{0xFE, 0xFF}
)

// DetectCharset decides the charset of raw page bytes b. contentType is an
// HTTP Content-Type header value or ""; wrapperEncoding is the encoding
// attribute of the CleanEval <text> wrapper or "" (values such as "unset",
// "" and unknown labels are ignored).
//
// The order follows the HTML standard's "determining the character encoding"
// (https://html.spec.whatwg.org/multipage/parsing.html#determining-the-character-encoding),
// adapted to offline cleaning of crawled pages; the first rule that applies
// wins:
//
//  1. a byte order mark (UTF-8, UTF-16LE, UTF-16BE);
//  2. the charset parameter of contentType;
//  3. wrapperEncoding;
//  4. a <meta charset> or <meta http-equiv=Content-Type content=...> anywhere
//     in the head, not only in the first 1024 bytes: the scan stops at
//     </head>, <body or 256 KB, and skips comments and the contents of
//     script, style and other raw-text elements;
//  5. UTF-16 without a byte order mark, by the NUL bytes of its ASCII
//     characters (see utf16Order);
//  6. the whole input is valid UTF-8, a truncated last character tolerated:
//     utf-8, also for pure ASCII (unless it holds ISO-2022-JP escape
//     sequences: iso-2022-jp);
//  7. statistics: input that is mostly valid UTF-8 (at most one invalid byte
//     per eight valid multi-byte characters) is utf-8; otherwise the
//     encoding whose decoding of the page's text, markup stripped, reads
//     most like text (see detectStatistically), if the text has enough
//     letters to tell;
//  8. windows-1252.
//
// Declarations (rules 2 to 4) are checked against the bytes, because crawls
// are full of wrong labels; one that fails the check is skipped and the next
// rule decides:
//
//   - utf-8 is not believed on bytes that are not mostly valid UTF-8 (the
//     classic windows-1252 page labelled utf-8);
//   - a legacy encoding (any encoding but UTF-8 and UTF-16) is not believed
//     on input that is valid UTF-8 and not pure ASCII: such input is UTF-8 in
//     practice (legacy text of any length is almost never valid UTF-8 by
//     accident, while servers that label UTF-8 pages iso-8859-1 are common);
//   - bytes that read as UTF-16 (rule 5) are not believed to be in any
//     other encoding, nor in UTF-16 of the other byte order; UTF-16 without
//     a BOM is otherwise believed only if at least one byte in eight of
//     the first KB is NUL; a <meta> declaring UTF-16 means utf-8, as the HTML
//     standard says (a meta readable as ASCII is not UTF-16);
//   - labels that the Encoding Standard maps to "replacement" (iso-2022-kr,
//     hz-gb-2312, ...) are treated as unknown.
//
// Labels are resolved by the WHATWG Encoding Standard
// (https://encoding.spec.whatwg.org/#names-and-labels): iso-8859-1, us-ascii
// and latin1 mean windows-1252, gb2312 means gbk, and so on.
//
// The common case, UTF-8 input without BOM, costs one UTF-8 validation pass,
// the scan of the head and a search for NUL in the first KB, and allocates
// nothing.
func DetectCharset(b []byte, contentType, wrapperEncoding string) Charset {
	switch {
	case bytes.HasPrefix(b, bomUTF8):
		c := charsetUTF8
		c.Source, c.bomLen = SourceBOM, len(bomUTF8)
		c.seen, c.seenLen, c.facts = &b[0], len(b), scanUTF8(b)
		return c
	case bytes.HasPrefix(b, bomUTF16LE):
		return Charset{Name: "utf-16le", Source: SourceBOM, kind: kindUTF16LE, resolved: true, bomLen: 2}
	case bytes.HasPrefix(b, bomUTF16BE):
		return Charset{Name: "utf-16be", Source: SourceBOM, kind: kindUTF16BE, resolved: true, bomLen: 2}
	}

	facts := scanUTF8(b)
	remember := func(c Charset, source string) Charset {
		c.Source = source
		if len(b) > 0 {
			c.seen, c.seenLen, c.facts = &b[0], len(b), facts
		}
		return c
	}

	if label := contentTypeCharset(contentType); label != "" {
		if c, ok := lookupLabel(label); ok && plausible(c, b, facts) {
			return remember(c, SourceHTTP)
		}
	}
	if wrapperEncoding != "" {
		if c, ok := lookupLabel(wrapperEncoding); ok && plausible(c, b, facts) {
			return remember(c, SourceWrapper)
		}
	}
	if c, ok := prescanMeta(b, facts); ok {
		return remember(c, SourceMeta)
	}
	if c, ok := utf16Order(b); ok {
		return remember(c, SourceDetected)
	}
	if facts&(factValid|factTruncated) != 0 {
		if facts&factASCII != 0 && hasISO2022JPEscape(b) {
			c, _ := lookupLabel("iso-2022-jp")
			return remember(c, SourceDetected)
		}
		return remember(charsetUTF8, SourceUTF8)
	}
	if mostlyUTF8(b) {
		return remember(charsetUTF8, SourceDetected)
	}
	if c, ok := detectStatistically(b); ok {
		return remember(c, SourceDetected)
	}
	return remember(charset1252, SourceDefault)
}

// plausible reports whether a declared charset c can be believed for b; see
// the rules in DetectCharset's documentation.
func plausible(c Charset, b []byte, facts uint8) bool {
	order, isUTF16 := utf16Order(b)
	switch c.kind {
	case kindUTF8:
		return !isUTF16 && (facts&(factValid|factTruncated) != 0 || mostlyUTF8(b))
	case kindUTF16LE, kindUTF16BE:
		return order.kind == c.kind || !isUTF16 && looksUTF16(b)
	default:
		if isUTF16 {
			return false
		}
		return facts&factASCII != 0 || facts&(factValid|factTruncated) == 0
	}
}

// looksUTF16 reports whether at least one byte in eight of the first KB of b
// is NUL, as in any HTML (markup is ASCII) encoded in UTF-16.
func looksUTF16(b []byte) bool {
	if len(b) > 1024 {
		b = b[:1024]
	}
	if len(b) < 2 {
		return false
	}
	return bytes.Count(b, []byte{0})*8 >= len(b)
}

// utf16Order reports whether b is UTF-16 without a byte order mark, and in
// which byte order: in its first KB, at least one code unit in four is a
// printable ASCII character or white space (markup is ASCII), and at most
// one in sixteen has a NUL in the other byte, where ASCII text in the other
// order would have it.
func utf16Order(b []byte) (Charset, bool) {
	b = b[:min(len(b), 1024)&^1]
	if bytes.IndexByte(b, 0) < 0 {
		return Charset{}, false
	}
	units := len(b) / 2
	var ascii, nul [2]int // [0] little-endian, [1] big-endian
	for i := 0; i < len(b); i += 2 {
		for k, lo := range [2]byte{b[i], b[i+1]} {
			if hi := b[i+1-k]; hi == 0 {
				nul[k]++
				if lo >= 0x20 && lo < 0x7f || lo == '\t' || lo == '\n' || lo == '\r' {
					ascii[k]++
				}
			}
		}
	}
	for k, name := range [2]string{"utf-16le", "utf-16be"} {
		if units >= 2 && ascii[k]*4 >= units && nul[1-k]*16 <= units {
			c, _ := lookupLabel(name)
			return c, true
		}
	}
	return Charset{}, false
}

// scanUTF8 validates b as UTF-8 in one pass and reports factValid,
// factASCII, or factTruncated (invalid only because the last character is
// cut short, as in pages truncated by a crawler).
func scanUTF8(b []byte) uint8 {
	i := charsetguess.FirstNonASCII(b)
	if i == len(b) {
		return factValid | factASCII
	}
	if utf8.Valid(b[i:]) {
		return factValid
	}
	// A truncated last rune: at most 3 bytes that begin a longer encoding.
	for k := len(b) - 1; k >= i && k >= len(b)-3; k-- {
		if utf8.RuneStart(b[k]) {
			if !utf8.FullRune(b[k:]) && utf8.Valid(b[i:k]) {
				return factTruncated
			}
			break
		}
	}
	return 0
}

// mostlyUTF8 reports whether b reads as UTF-8 with a few damaged bytes: it
// has valid multi-byte characters and at most one invalid byte per eight of
// them. A truncated last character does not count as invalid.
// Text in a legacy encoding has almost no valid multi-byte sequences, so it
// fails; a UTF-8 page with a handful of corrupted bytes passes.
func mostlyUTF8(b []byte) bool {
	good, bad := 0, 0
	for i := charsetguess.FirstNonASCII(b); i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			if !utf8.FullRune(b[i:]) {
				break // truncated last character
			}
			bad++
		} else {
			good++
		}
		i += n
	}
	return good > 0 && bad*8 <= good
}

// contentTypeCharset returns the charset parameter of an HTTP Content-Type
// value, unquoted, or "".
func contentTypeCharset(ct string) string {
	for {
		semi := indexByteString(ct, ';')
		if semi < 0 {
			return ""
		}
		ct = ct[semi+1:]
		p := trimSpace(ct)
		if len(p) < 8 || !equalFold(p[:7], "charset") {
			continue
		}
		p = trimSpace(p[7:])
		if len(p) == 0 || p[0] != '=' {
			continue
		}
		p = trimSpace(p[1:])
		if len(p) > 0 && (p[0] == '"' || p[0] == '\'') {
			q := p[0]
			p = p[1:]
			if end := indexByteString(p, q); end >= 0 {
				p = p[:end]
			}
			return p
		}
		if end := indexByteString(p, ';'); end >= 0 {
			p = p[:end]
		}
		return trimSpace(p)
	}
}

// lookupLabel resolves an encoding label by the WHATWG Encoding Standard.
// The most common labels resolve without allocating.
func lookupLabel[S string | []byte](label S) (Charset, bool) {
	label = trimSpace(label)
	var buf [48]byte
	if len(label) == 0 || len(label) > len(buf) {
		return Charset{}, false
	}
	for i := 0; i < len(label); i++ {
		c := label[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	l := buf[:len(label)]
	switch string(l) {
	case "utf-8", "utf8", "unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "x-unicode20utf8":
		return charsetUTF8, true
	case "windows-1252", "iso-8859-1", "us-ascii", "ascii", "latin1", "l1", "cp1252", "iso8859-1", "iso_8859-1", "x-cp1252":
		return charset1252, true
	}
	e, err := htmlindex.Get(string(l))
	if err != nil {
		return Charset{}, false
	}
	name, err := htmlindex.Name(e)
	if err != nil {
		return Charset{}, false
	}
	c := Charset{Name: name, resolved: true}
	switch name {
	case "utf-8":
		return charsetUTF8, true
	case "utf-16le":
		c.kind = kindUTF16LE
	case "utf-16be":
		c.kind = kindUTF16BE
	case "replacement", "":
		return Charset{}, false
	case "gbk", "gb18030":
		// The Encoding Standard decodes gbk with the gb18030 decoder.
		c.kind, c.enc = kindTransform, simplifiedchinese.GB18030
	case "iso-2022-jp":
		c.kind, c.enc = kindISO2022JP, japanese.ISO2022JP
	case "iso-8859-8-i":
		c.kind, c.cm = kindSingle, charmap.ISO8859_8
	default:
		if cm, ok := e.(*charmap.Charmap); ok {
			c.kind, c.cm = kindSingle, cm
		} else {
			c.kind, c.enc = kindTransform, e
		}
	}
	return c, true
}

// resolve fills in the decoder of a Charset built by hand from a Name.
func (c Charset) resolve() Charset {
	if c.resolved {
		return c
	}
	if r, ok := lookupLabel(c.Name); ok {
		r.Source = c.Source
		return r
	}
	return charsetUTF8
}

// prescanMeta looks for a <meta> charset declaration in the head of b, in
// the manner of the HTML standard's prescan
// (https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding)
// but over the whole head: it stops at </head>, <body or maxHeadScan bytes,
// skips comments and the contents of script, style and other raw-text
// elements, and accepts attributes in any order and quoting. Unknown and
// implausible labels are skipped and the scan goes on.
func prescanMeta(b []byte, facts uint8) (Charset, bool) {
	if len(b) > maxHeadScan {
		b = b[:maxHeadScan]
	}
	for i := 0; i < len(b); {
		j := bytes.IndexByte(b[i:], '<')
		if j < 0 {
			break
		}
		i += j
		rest := b[i:]
		switch {
		case bytes.HasPrefix(rest, []byte("<!--")):
			// "<!-->" closes at once, so search from the second '-'.
			k := bytes.Index(rest[2:], []byte("-->"))
			if k < 0 {
				return Charset{}, false
			}
			i += 2 + k + 3
		case len(rest) >= 2 && isASCIILetter(rest[1]),
			len(rest) >= 3 && rest[1] == '/' && isASCIILetter(rest[2]):
			end := rest[1] == '/'
			start := 1
			if end {
				start = 2
			}
			n := start
			for n < len(rest) && !isSpace(rest[n]) && rest[n] != '/' && rest[n] != '>' {
				n++
			}
			name := rest[start:n]
			switch {
			case end && equalFold(name, "head"), !end && equalFold(name, "body"):
				return Charset{}, false
			case !end && equalFold(name, "meta"):
				c, ok, next := metaCharset(b, i+n)
				if ok && plausibleMeta(&c, b, facts) {
					return c, true
				}
				i = next
			default:
				i = skipAttributes(b, i+n)
				if !end && isRawText(name) {
					i = skipRawText(b, i, name)
				}
			}
		case len(rest) >= 2 && (rest[1] == '!' || rest[1] == '/' || rest[1] == '?'):
			k := bytes.IndexByte(rest, '>')
			if k < 0 {
				return Charset{}, false
			}
			i += k + 1
		default:
			i++
		}
	}
	return Charset{}, false
}

// plausibleMeta applies the standard's meta rules (UTF-16 means UTF-8,
// x-user-defined means windows-1252) and then the plausibility check.
func plausibleMeta(c *Charset, b []byte, facts uint8) bool {
	switch {
	case c.kind == kindUTF16LE || c.kind == kindUTF16BE:
		*c = charsetUTF8
	case c.Name == "x-user-defined":
		*c = charset1252
	}
	return plausible(*c, b, facts)
}

// metaCharset reads the attributes of a <meta> tag starting at b[i] and
// returns the charset it declares, if any, and the index after the tag.
func metaCharset(b []byte, i int) (c Charset, ok bool, next int) {
	const (
		dontKnow = iota
		needPragma
		noPragma
	)
	var gotEquiv, gotContent, gotCharset, gotPragma bool
	pragma := dontKnow
	for {
		name, val, n, more := nextAttribute(b, i)
		i = n
		if !more {
			break
		}
		switch {
		case equalFold(name, "http-equiv"):
			if !gotEquiv {
				gotEquiv = true
				gotPragma = equalFold(val, "content-type")
			}
		case equalFold(name, "content"):
			if !gotContent {
				gotContent = true
				if !ok {
					if label := charsetFromContent(val); label != nil {
						if c, ok = lookupLabel(label); ok {
							pragma = needPragma
						}
					}
				}
			}
		case equalFold(name, "charset"):
			if !gotCharset {
				gotCharset = true
				c, ok = lookupLabel(val)
				pragma = noPragma
			}
		}
	}
	if pragma == dontKnow || pragma == needPragma && !gotPragma {
		ok = false
	}
	return c, ok, i
}

// charsetFromContent extracts the label from a content attribute such as
// "text/html; charset=windows-1251", by the standard's algorithm for
// extracting a character encoding from a meta element.
func charsetFromContent(s []byte) []byte {
	for {
		k := indexFold(s, "charset")
		if k < 0 {
			return nil
		}
		s = trimLeftSpace(s[k+len("charset"):])
		if len(s) == 0 || s[0] != '=' {
			continue
		}
		s = trimLeftSpace(s[1:])
		if len(s) == 0 {
			return nil
		}
		if q := s[0]; q == '"' || q == '\'' {
			end := bytes.IndexByte(s[1:], q)
			if end < 0 {
				return nil
			}
			return s[1 : 1+end]
		}
		end := 0
		for end < len(s) && s[end] != ';' && !isSpace(s[end]) {
			end++
		}
		return s[:end]
	}
}

// nextAttribute reads one attribute of a tag at b[i], by the standard's
// "get an attribute" algorithm. more is false at the end of the tag, and
// next is then the index after '>'.
func nextAttribute(b []byte, i int) (name, val []byte, next int, more bool) {
	for i < len(b) && (isSpace(b[i]) || b[i] == '/') {
		i++
	}
	if i >= len(b) {
		return nil, nil, len(b), false
	}
	if b[i] == '>' {
		return nil, nil, i + 1, false
	}
	start := i
	for i < len(b) {
		c := b[i]
		if c == '=' && i > start || isSpace(c) || c == '/' || c == '>' {
			break
		}
		i++
	}
	name = b[start:i]
	j := i
	for j < len(b) && isSpace(b[j]) {
		j++
	}
	if j >= len(b) || b[j] != '=' {
		return name, nil, i, true
	}
	j++
	for j < len(b) && isSpace(b[j]) {
		j++
	}
	if j >= len(b) {
		return name, nil, j, true
	}
	if q := b[j]; q == '"' || q == '\'' {
		end := bytes.IndexByte(b[j+1:], q)
		if end < 0 {
			return name, b[j+1:], len(b), true
		}
		return name, b[j+1 : j+1+end], j + 1 + end + 1, true
	}
	start = j
	for j < len(b) && !isSpace(b[j]) && b[j] != '>' {
		j++
	}
	return name, b[start:j], j, true
}

// skipAttributes skips the attributes of a tag at b[i] and returns the index
// after its '>'. Quoted values may contain '>'.
func skipAttributes(b []byte, i int) int {
	for {
		_, _, n, more := nextAttribute(b, i)
		if !more {
			return n
		}
		if n <= i { // cannot happen; guards against an endless loop
			n = i + 1
		}
		i = n
	}
}

// rawTextElements hold text, not markup, up to their end tag: a <meta> inside
// them is not a declaration, and one that is not closed swallows the rest of
// the page (see repairUnclosed).
var rawTextElements = [...]string{"script", "style", "title", "textarea", "xmp", "noembed", "noframes", "iframe"}

func isRawText(name []byte) bool {
	for _, r := range rawTextElements {
		if equalFold(name, r) {
			return true
		}
	}
	return false
}

// skipRawText returns the index of the end tag </name starting at or after
// b[i], or len(b). Tag names match in any case ("<STYLE>" ... "</style>").
func skipRawText(b []byte, i int, name []byte) int {
	for i < len(b) {
		j := bytes.Index(b[i:], []byte("</"))
		if j < 0 {
			return len(b)
		}
		i += j
		if e := i + 2 + len(name); e <= len(b) && bytes.EqualFold(b[i+2:e], name) &&
			(e == len(b) || isSpace(b[e]) || b[e] == '>' || b[e] == '/') {
			return i
		}
		i += 2
	}
	return len(b)
}

// hasISO2022JPEscape reports whether ASCII input holds the escape sequences
// that switch ISO-2022-JP into JIS X 0208 or 0212.
func hasISO2022JPEscape(b []byte) bool {
	for i := 0; ; {
		j := bytes.IndexByte(b[i:], 0x1B)
		if j < 0 {
			return false
		}
		i += j
		if isISO2022JPEscape(b, i) && b[i+1] == '$' {
			return true
		}
		i++
	}
}

// isISO2022JPEscape reports whether b[i:] starts with an escape sequence
// that the ISO-2022-JP decoder recognises: each sets the decoder's state
// whatever the state before.
func isISO2022JPEscape(b []byte, i int) bool {
	if i+2 >= len(b) || b[i] != 0x1B {
		return false
	}
	switch c1, c2 := b[i+1], b[i+2]; {
	case c1 == '$' && (c2 == '@' || c2 == 'B'):
		return true
	case c1 == '$' && c2 == '(':
		return i+3 < len(b) && b[i+3] == 'D'
	case c1 == '(' && (c2 == 'B' || c2 == 'J' || c2 == 'I'):
		return true
	}
	return false
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

func isASCIILetter(c byte) bool {
	return 'a' <= c|0x20 && c|0x20 <= 'z'
}

func trimSpace[S string | []byte](s S) S {
	for len(s) > 0 && isSpace(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isSpace(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

func trimLeftSpace(s []byte) []byte {
	for len(s) > 0 && isSpace(s[0]) {
		s = s[1:]
	}
	return s
}

func indexByteString(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

// equalFold reports whether s equals the lower-case ASCII string lower,
// ignoring ASCII case.
func equalFold[S string | []byte](s S, lower string) bool {
	if len(s) != len(lower) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// indexFold returns the index of the lower-case ASCII string lower in s,
// ignoring ASCII case, or -1.
func indexFold(s []byte, lower string) int {
	for i := 0; i+len(lower) <= len(s); i++ {
		if equalFold(s[i:i+len(lower)], lower) {
			return i
		}
	}
	return -1
}

// Decode converts b to UTF-8 according to c and returns the text with a map
// from its byte offsets back to offsets in b. A BOM matching c at the start of
// b is dropped (offset 0 of the output then maps to the end of the BOM).
// Invalid byte sequences become U+FFFD; Decode never fails and never panics.
//
// When b is UTF-8 without BOM, or ASCII in an ASCII-compatible encoding, the
// output is b itself (no copy) and the map is nil, the identity. Decode
// reuses the validity check DetectCharset made on the same slice (which must
// not change in between), so the common case costs no second pass. The
// returned map refers to b.
func (c Charset) Decode(b []byte) (utf8Text []byte, m *OffsetMap) {
	c = c.resolve()
	var facts uint8
	known := len(b) > 0 && c.seen == &b[0] && c.seenLen == len(b)
	if known {
		facts = c.facts
	}
	switch c.kind {
	case kindUTF16LE, kindUTF16BE:
		start := 0
		if bytes.HasPrefix(b, bomUTF16LE) && c.kind == kindUTF16LE ||
			bytes.HasPrefix(b, bomUTF16BE) && c.kind == kindUTF16BE {
			start = 2
		}
		return decodeUTF16From(b, start, c.kind == kindUTF16BE)
	case kindUTF8:
		start := 0
		if bytes.HasPrefix(b, bomUTF8) {
			start = 3
		}
		if !known {
			facts = scanUTF8(b[start:])
		}
		if facts&factValid == 0 {
			return decodeUTF8Repair(b, start)
		}
		if start == 0 {
			return b, nil
		}
		return b[start:], shiftedMap(b, start)
	}
	// ASCII-compatible legacy encodings: ASCII input decodes to itself
	// (for ISO-2022-JP, as long as it has no escape sequence).
	ascii := facts&factASCII != 0
	if !known {
		ascii = charsetguess.FirstNonASCII(b) == len(b)
	}
	if ascii && (c.kind != kindISO2022JP || bytes.IndexByte(b, 0x1B) < 0) {
		return b, nil
	}
	switch c.kind {
	case kindSingle:
		return decodeSingle(b, 0, c.cm)
	default:
		return decodeTransform(b, 0, c.enc, c.kind == kindISO2022JP)
	}
}
