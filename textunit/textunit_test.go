package textunit

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// units renders the units of s as "text/kind" strings.
func units(s string) []string {
	var out []string
	for u := range All(s) {
		if s[u.Start:u.Start+len(u.Text)] != u.Text {
			panic(fmt.Sprintf("unit %q at %d is not s[%d:]", u.Text, u.Start, u.Start))
		}
		out = append(out, u.Text+"/"+u.Kind.String()[:1])
	}
	return out
}

func TestScripts(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"latin", "Don't panic, e.g. at 3.14 o'clock: 1,000 cafés_x.", []string{"Don't/w", "panic/w", "e.g/w", "at/w", "3.14/n", "o'clock/w", "1,000/n", "cafés_x/w"}},
		{"latin curly apostrophe", "it’s naïve", []string{"it’s/w", "naïve/w"}},
		{"latin decomposed", "nai\u0308ve", []string{"nai\u0308ve/w"}},
		{"cyrillic", "Съешь же ещё этих мягких булок.", []string{"Съешь/w", "же/w", "ещё/w", "этих/w", "мягких/w", "булок/w"}},
		{"greek", "Η γρήγορη καφέ αλεπού.", []string{"Η/w", "γρήγορη/w", "καφέ/w", "αλεπού/w"}},
		{"han", "中国人民，2018年GDP增长。", []string{"中/c", "国/c", "人/c", "民/c", "2018/n", "年/c", "GDP/w", "增/c", "长/c"}},
		{"japanese", "東京でカレーを食べた。iPhoneも", []string{"東/c", "京/c", "で/c", "カ/c", "レ/c", "ー/c", "を/c", "食/c", "べ/c", "た/c", "iPhone/w", "も/c"}},
		{"halfwidth katakana", "ｶﾀｶﾅ", []string{"ｶ/c", "ﾀ/c", "ｶ/c", "ﾅ/c"}},
		{"arabic", "مرحبا بالعالم، ١٢٣", []string{"مرحبا/w", "بالعالم/w", "١٢٣/n"}},
		{"thai", "ภาษาไทย ง่าย", []string{"ภ/c", "า/c", "ษ/c", "า/c", "ไ/c", "ท/c", "ย/c", "ง่/c", "า/c", "ย/c"}},
		{"korean", "한국어는 띄어쓰기를 한다.", []string{"한국어는/w", "띄어쓰기를/w", "한다/w"}},
		{"hebrew", "שלום עולם, צה\"ל", []string{"שלום/w", "עולם/w", "צה\"ל/w"}},
		{"devanagari", "हिन्दी भाषा", []string{"हिन्दी/w", "भाषा/w"}},
		{"digits and punctuation", "-- 42 -- (7) ... $5 — ¶", []string{"42/n", "7/n", "5/n"}},
		{"emoji", "hi 👋🏽 👨‍👩‍👧 🇫🇷 ok", []string{"hi/w", "ok/w"}},
		{"underscores", "_ __ a_ _b", []string{"a_/w", "_b/w"}},
		{"han with variation selector", "葛\U000E0100城", []string{"葛\U000E0100/c", "城/c"}},
		{"empty", "", nil},
		{"spaces", " \t\n\u3000\u00a0", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := units(tt.in)
			if !slices.Equal(got, tt.want) {
				t.Errorf("units(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
			if n := Count(tt.in); n != len(tt.want) {
				t.Errorf("Count(%q) = %d, want %d", tt.in, n, len(tt.want))
			}
		})
	}
}

func TestInvalidUTF8(t *testing.T) {
	for _, s := range []string{"\xff", "ab\xffcd", "中\xe4\xb8", "\xe4\xb8\xad\xe6", "a\x80b c"} {
		n := 0
		for u := range All(s) {
			n++
			if u.Text == "" {
				t.Errorf("%q: empty unit", s)
			}
		}
		if c := Count(s); c != n {
			t.Errorf("Count(%q) = %d, All gives %d", s, c, n)
		}
	}
	if got := units("ab\xffcd"); !slices.Equal(got, []string{"ab/w", "cd/w"}) {
		t.Errorf("units(ab\\xffcd) = %q", got)
	}
}

func TestBigrams(t *testing.T) {
	var got []string
	Bigrams("中国人 and 我。Go 日本", func(u Unit) bool {
		got = append(got, u.Text)
		return true
	})
	want := []string{"中国", "国人", "and", "我", "Go", "日本"}
	if !slices.Equal(got, want) {
		t.Errorf("Bigrams = %q, want %q", got, want)
	}
	n := 0
	Bigrams("中国人民", func(Unit) bool { n++; return false })
	if n != 1 {
		t.Errorf("Bigrams did not stop: %d calls", n)
	}
}

func TestEarlyStop(t *testing.T) {
	for _, s := range []string{"a b c", "中国人", "café naïve x"} {
		n := 0
		for range All(s) {
			n++
			break
		}
		if n != 1 {
			t.Errorf("%q: %d units after break", s, n)
		}
	}
}

func TestWordEquivalents(t *testing.T) {
	if got := WordEquivalents("the quick brown fox"); got != 4 {
		t.Errorf("English: %v", got)
	}
	if got := WordEquivalents("中华人民共和国国务院"); got != 10/PerWord(Han) {
		t.Errorf("Chinese: %v", got)
	}
	if PerWord(Han) >= PerWord(Latin) || PerWord(Script(200)) != PerWord(Other) {
		t.Error("PerWord figures")
	}
	if UnitScript("Привет") != Cyrillic || UnitScript("42") != Other || ScriptOf('ก') != Thai {
		t.Error("scripts")
	}
}

// unisegUnitsOf is UAX #29 by uniseg alone: the segments of s that hold a
// letter or a digit.
func unisegUnitsOf(s string) []string {
	var out []string
	state := -1
	for len(s) > 0 {
		var w string
		w, s, state = uniseg.FirstWordInString(s, state)
		if segmentKind(w) != 0 {
			out = append(out, w)
		}
	}
	return out
}

func hasChar(s string) bool {
	for _, r := range s {
		if IsChar(r) {
			return true
		}
	}
	return false
}

func texts(s string) []string {
	var out []string
	for u := range All(s) {
		out = append(out, u.Text)
	}
	return out
}

// On text with no character of IsChar the units are exactly uniseg's word
// segments with a letter or digit: the ASCII fast path and the cutting at
// white space change nothing.
func TestASCIIMatchesUniseg(t *testing.T) {
	for _, s := range []string{
		"a.b a..b 1.2 1..2 a:b 1:2 1,2 a,b 1;2 a'b 1'2 a.1 1.a _a_ a_1 1_a x_.y",
		"e.g. U.S.A. 3,000.50 it's 'quoted' \"dq\" a-b a/b a@b.com http://x.org/a_b?c=1",
		"abc\u0301def a\u200db café's\u00a0x ‘y’ a’b",
	} {
		if got, want := texts(s), unisegUnitsOf(s); !slices.Equal(got, want) {
			t.Errorf("%q:\n got %q\nwant %q", s, got, want)
		}
	}
}

func FuzzUnits(f *testing.F) {
	for _, s := range []string{"Don't 3.14 a_b", "e.g. x. .y 1 .5 a' 'b _ __a\t3:30 ,1,", "中国人民，2018年", "ภาษาไทย", "한국어 e.g.", "a\u0301 \u0301b", "\xff\xfe", "👨‍👩‍👧 x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := 0
		end := 0
		for u := range All(s) {
			n++
			if u.Text == "" || u.Start < end || s[u.Start:u.Start+len(u.Text)] != u.Text {
				t.Fatalf("%q: bad unit %+v after %d", s, u, end)
			}
			end = u.Start + len(u.Text)
		}
		if c := Count(s); c != n {
			t.Fatalf("%q: Count %d, All %d", s, c, n)
		}
		if isASCII(s) { // segmented whole: as chunk by chunk
			var whole, pieces []Unit
			asciiUnits(s, 0, func(u Unit) bool { whole = append(whole, u); return true })
			walkChunks(s, func(u Unit) bool { pieces = append(pieces, u); return true })
			if !slices.Equal(whole, pieces) {
				t.Fatalf("%q: whole %v, chunk by chunk %v", s, whole, pieces)
			}
		}
		if utf8.ValidString(s) && !hasChar(s) {
			if got, want := texts(s), unisegUnitsOf(s); !slices.Equal(got, want) {
				t.Fatalf("%q:\n got %q\nwant %q", s, got, want)
			}
		}
	})
}

// Benchmark texts of about 40 KB, written for the test.
var (
	benchEnglish = repeatTo(`The committee met on Tuesday, March 3rd, to review the 2024 budget. `+
		`Members didn't agree on the $1,250.75 figure; "we'll revisit it," said the chair. `+
		`See https://example.org/minutes_2024 for details — or e-mail the clerk.`+"\n\n", 40<<10)
	benchChinese = repeatTo(`委员会于三月三日星期二开会，审议二零二四年的预算。`+
		`成员们对一千二百五十元这个数字意见不一；主席说：“我们会再讨论。”`+
		`详情请见会议纪要（2024年版），或发邮件给秘书。`+"\n\n", 40<<10)
)

func repeatTo(s string, n int) string {
	return strings.Repeat(s, n/len(s))
}

func benchCount(b *testing.B, s string, count func(string) int) {
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		n = count(s)
	}
	b.ReportMetric(float64(n), "units")
}

func fields(s string) int { return len(strings.Fields(s)) }

func BenchmarkCountEnglish(b *testing.B)  { benchCount(b, benchEnglish, Count) }
func BenchmarkCountChinese(b *testing.B)  { benchCount(b, benchChinese, Count) }
func BenchmarkFieldsEnglish(b *testing.B) { benchCount(b, benchEnglish, fields) }
func BenchmarkFieldsChinese(b *testing.B) { benchCount(b, benchChinese, fields) }
func BenchmarkUnisegEnglish(b *testing.B) { benchCount(b, benchEnglish, unisegCount) }
func BenchmarkWordEquivalentsChinese(b *testing.B) {
	benchCount(b, benchChinese, func(s string) int { return int(WordEquivalents(s)) })
}

func TestPieces(t *testing.T) {
	var got []string
	Pieces("ab 中文，x ง่าย", func(p string, char bool) bool {
		if char {
			p = "[" + p + "]"
		}
		got = append(got, p)
		return true
	})
	want := []string{"ab ", "[中]", "[文]", "，x ", "[ง่]", "[า]", "[ย]"}
	if !slices.Equal(got, want) {
		t.Errorf("Pieces = %q, want %q", got, want)
	}
}

func TestHasWord(t *testing.T) {
	for s, want := range map[string]bool{"___": false, "•": false, "* * *": false, "": false, "a": true, "3": true, "中": true, "— ٣ —": true} {
		if got := HasWord(s); got != want {
			t.Errorf("HasWord(%q) = %v, want %v", s, got, want)
		}
	}
}

// isASCII finds a byte outside ASCII at every place of texts of every
// length around its eight-byte step.
func TestIsASCII(t *testing.T) {
	for n := range 20 {
		base := strings.Repeat("a", n)
		if !isASCII(base) {
			t.Errorf("isASCII(%q) = false", base)
		}
		for i := range n {
			s := base[:i] + "\x80" + base[i+1:]
			if isASCII(s) {
				t.Errorf("isASCII(%q) = true", s)
			}
		}
	}
}
