package render

import (
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"
)

// AppendJSON appends d as one line of JSON, exactly as encoding/json's
// Encoder with SetEscapeHTML(false) writes it (newline included), without
// reflection: sluice corpus renders every page with it (TestAppendJSON
// checks the equality).
func (d *JSONDocument) AppendJSON(b []byte) []byte {
	b = append(b, `{"url":`...)
	b = appendJSONString(b, d.URL)
	b = append(b, `,"host":`...)
	b = appendJSONString(b, d.Host)
	if d.Date != "" {
		b = append(b, `,"date":`...)
		b = appendJSONString(b, d.Date)
	}
	if d.File != "" {
		b = append(b, `,"file":`...)
		b = appendJSONString(b, d.File)
	}
	b = append(b, `,"title":`...)
	b = appendJSONString(b, d.Title)
	b = append(b, `,"encoding":`...)
	b = appendJSONString(b, d.Encoding)
	if d.Language != "" {
		b = appendJSONString(append(b, `,"language":`...), d.Language)
	}
	if d.DeclaredLanguage != "" {
		b = appendJSONString(append(b, `,"declared_language":`...), d.DeclaredLanguage)
	}
	if d.Metadata != nil {
		b = d.Metadata.appendJSON(append(b, `,"metadata":`...))
	}
	b = append(b, `,"text":`...)
	b = appendJSONString(b, d.Text)
	b = appendJSONArray(append(b, `,"blocks":`...), d.Blocks, (*JSONBlock).appendJSON)
	b = appendJSONArray(append(b, `,"segments":`...), d.Segments, (*JSONSegment).appendJSON)
	if len(d.Tables) > 0 {
		b = appendJSONArray(append(b, `,"tables":`...), d.Tables, (*JSONTable).appendJSON)
	}
	if d.Source != nil {
		b = d.Source.appendJSON(append(b, `,"source":`...))
	}
	if d.Site != nil {
		b = append(b, `,"site":{"pages":`...)
		b = strconv.AppendInt(b, int64(d.Site.Pages), 10)
		b = append(b, `,"dropped":`...)
		b = strconv.AppendInt(b, int64(d.Site.Dropped), 10)
		b = append(b, `,"rescued":`...)
		b = strconv.AppendInt(b, int64(d.Site.Rescued), 10)
		b = append(b, '}')
	}
	return append(b, "}\n"...)
}

func (m *JSONMetadata) appendJSON(b []byte) []byte {
	b = append(b, '{')
	sep := ""
	for _, f := range [...]struct{ key, val string }{
		{"title", m.Title}, {"author", m.Author}, {"published", m.Published}, {"modified", m.Modified},
		{"site_name", m.SiteName}, {"description", m.Description}, {"language", m.Language},
		{"canonical", m.Canonical}, {"image", m.Image}, {"license", m.License},
	} {
		if f.val != "" {
			b = appendJSONString(append(append(append(b, sep...), '"'), f.key+`":`...), f.val)
			sep = ","
		}
	}
	for _, f := range [...]struct {
		key  string
		vals []string
	}{{"categories", m.Categories}, {"tags", m.Tags}} {
		if len(f.vals) > 0 {
			b = append(append(append(b, sep...), '"'), f.key+`":`...)
			b = appendJSONArray(b, f.vals, func(s *string, b []byte) []byte { return appendJSONString(b, *s) })
			sep = ","
		}
	}
	return append(b, '}')
}

func (bl *JSONBlock) appendJSON(b []byte) []byte {
	b = append(b, `{"index":`...)
	b = strconv.AppendInt(b, int64(bl.Index), 10)
	b = append(b, `,"label":`...)
	b = appendJSONString(b, bl.Label)
	b = append(b, `,"text":`...)
	b = appendJSONString(b, bl.Text)
	b = append(b, `,"score":`...)
	b = appendJSONFloat(b, bl.Score)
	b = append(b, `,"start":`...)
	b = strconv.AppendInt(b, int64(bl.Start), 10)
	b = append(b, `,"end":`...)
	b = strconv.AppendInt(b, int64(bl.End), 10)
	if bl.Lang != "" {
		b = appendJSONString(append(b, `,"lang":`...), bl.Lang)
	}
	if len(bl.Links) > 0 {
		b = appendJSONArray(append(b, `,"links":`...), bl.Links, func(l *JSONLink, b []byte) []byte {
			b = appendJSONString(append(b, `{"text":`...), l.Text)
			return append(appendJSONString(append(b, `,"href":`...), l.Href), '}')
		})
	}
	if len(bl.Images) > 0 {
		b = appendJSONArray(append(b, `,"images":`...), bl.Images, func(im *JSONImage, b []byte) []byte {
			b = appendJSONString(append(b, `{"src":`...), im.Src)
			return append(appendJSONString(append(b, `,"alt":`...), im.Alt), '}')
		})
	}
	return append(b, '}')
}

func (s *JSONSegment) appendJSON(b []byte) []byte {
	b = append(b, `{"label":`...)
	b = appendJSONString(b, s.Label)
	b = append(b, `,"text":`...)
	b = appendJSONString(b, s.Text)
	b = appendJSONArray(append(b, `,"blocks":`...), s.Blocks, func(k *int, b []byte) []byte { return strconv.AppendInt(b, int64(*k), 10) })
	return append(b, '}')
}

func (t *JSONTable) appendJSON(b []byte) []byte {
	b = append(b, `{"index":`...)
	b = strconv.AppendInt(b, int64(t.Index), 10)
	b = append(b, `,"kind":`...)
	b = appendJSONString(b, t.Kind)
	b = append(b, `,"rows":`...)
	b = strconv.AppendInt(b, int64(t.Rows), 10)
	b = append(b, `,"cols":`...)
	b = strconv.AppendInt(b, int64(t.Cols), 10)
	if t.Caption != "" {
		b = append(b, `,"caption":`...)
		b = appendJSONString(b, t.Caption)
	}
	b = appendJSONArray(append(b, `,"cells":`...), t.Cells, (*JSONCell).appendJSON)
	return append(b, '}')
}

func (c *JSONCell) appendJSON(b []byte) []byte {
	b = append(b, `{"row":`...)
	b = strconv.AppendInt(b, int64(c.Row), 10)
	b = append(b, `,"col":`...)
	b = strconv.AppendInt(b, int64(c.Col), 10)
	b = append(b, `,"rowspan":`...)
	b = strconv.AppendInt(b, int64(c.RowSpan), 10)
	b = append(b, `,"colspan":`...)
	b = strconv.AppendInt(b, int64(c.ColSpan), 10)
	b = append(b, `,"role":`...)
	b = appendJSONString(b, c.Role)
	b = append(b, `,"text":`...)
	b = appendJSONString(b, c.Text)
	b = appendJSONArray(append(b, `,"blocks":`...), c.Blocks, func(k *int, b []byte) []byte { return strconv.AppendInt(b, int64(*k), 10) })
	return append(b, '}')
}

// appendJSONArray appends xs as a JSON array, each element by appendElem;
// a nil slice is null, as encoding/json writes it.
func appendJSONArray[T any](b []byte, xs []T, appendElem func(*T, []byte) []byte) []byte {
	if xs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendElem(&xs[i], b)
	}
	return append(b, ']')
}

func (s *JSONSource) appendJSON(b []byte) []byte {
	b = append(b, `{"file":`...)
	b = appendJSONString(b, s.File)
	b = append(b, `,"offset":`...)
	b = strconv.AppendInt(b, s.Offset, 10)
	b = append(b, `,"length":`...)
	b = strconv.AppendInt(b, s.Length, 10)
	if s.MemberOffset != nil {
		b = append(b, `,"member_offset":`...)
		b = strconv.AppendInt(b, *s.MemberOffset, 10)
	}
	if s.RecordID != "" {
		b = append(b, `,"record_id":`...)
		b = appendJSONString(b, s.RecordID)
	}
	return append(b, '}')
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string, as encoding/json does
// without HTML escaping: quotes, backslashes and control characters
// escaped, invalid UTF-8 as U+FFFD, U+2028 and U+2029 escaped.
func appendJSONString[S ~string | ~[]byte](b []byte, s S) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		// Eight bytes at a time while none needs a look: printable
		// ASCII other than the quote and the backslash.
		i = skipPlainJSON8(s, i)
		if i >= len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		// At most 4 bytes converted: no copy of s.
		r, size := utf8.DecodeRuneInString(string(s[i:min(i+utf8.UTFMax, len(s))]))
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// skipPlainJSON8 returns the first i' >= i such that s[i':i'+8] is not
// plainJSON8, or is shorter than 8 bytes.
func skipPlainJSON8[S ~string | ~[]byte](s S, i int) int {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(s); i += 8 {
		w := s[i : i+8]
		x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
			uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
		q := x ^ '"'*lo   // zero where x has a '"'
		bs := x ^ '\\'*lo // zero where x has a '\\'
		// A byte below 0x20, a zero byte of q or bs (exact tests of
		// whether there is one), or a byte of 0x80 and above.
		if ((x-0x20*lo)&^x|(q-lo)&^q|(bs-lo)&^bs|x)&hi != 0 {
			break
		}
	}
	return i
}

// plainJSON8 reports whether the 8 bytes of s are all printable ASCII
// other than '"' and '\\', which a JSON string holds as they are.
func plainJSON8(s string) bool { return skipPlainJSON8(s[:8], 0) == 8 }

// appendJSONFloat appends f as encoding/json does; the scores written are
// in [0, 1] with three decimals, so the exponent form is left to it.
func appendJSONFloat(b []byte, f float64) []byte {
	if a := math.Abs(f); math.IsNaN(f) || math.IsInf(f, 0) || a != 0 && (a < 1e-6 || a >= 1e21) {
		enc, err := json.Marshal(f)
		if err != nil {
			return append(b, '0')
		}
		return append(b, enc...)
	}
	return strconv.AppendFloat(b, f, 'f', -1, 64)
}
