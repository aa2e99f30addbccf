package segment

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// normalized is what normalize must give, built another way: the fields
// between runs of space joined by one space, after the spaces and tabs of
// the leading space run for preformatted text, nothing if there are no
// fields; and the number of runes in the fields.
func normalized(s string, pre bool) (string, int32) {
	fields := strings.FieldsFunc(s, isSpace)
	if len(fields) == 0 {
		return "", 0
	}
	text := strings.Join(fields, " ")
	if pre {
		lead := s[:strings.Index(s, fields[0])]
		text = strings.Map(func(r rune) rune {
			if r == ' ' || r == '\t' {
				return r
			}
			return -1
		}, lead) + text
	}
	return text, int32(utf8.RuneCountInString(strings.Join(fields, "")))
}

func TestNormalizeMatchesFields(t *testing.T) {
	for _, s := range []string{
		"", "   ", "a", "  two  words ", "\t\tindented\tline  ", "a\u00a0\u00a0b \t\n c\u2003d  ",
		"x\x7fy\x00z", "~!{}|", "caf\u00e9 na\u00efve\u200bzero\ufeffbom", "\xff\xfe bad utf-8 \xc3",
		"\u3000全角\u3000空白", "end ", " \u00a0 ",
	} {
		for _, pre := range []bool{false, true} {
			got, gotChars := normalize(nil, []byte(s), pre)
			want, wantChars := normalized(s, pre)
			if string(got) != want || gotChars != wantChars {
				t.Errorf("normalize(%q, pre %v) = %q, %d; want %q, %d", s, pre, got, gotChars, want, wantChars)
			}
		}
	}
}
