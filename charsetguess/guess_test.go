package charsetguess

import (
	"strings"
	"testing"
	"unicode"

	"golang.org/x/text/encoding/htmlindex"
)

// Guess tells the legacy encodings of texts in several languages apart,
// and gives up on a sample with too few letters or no byte above 0x7F.
func TestGuess(t *testing.T) {
	for _, tc := range []struct{ text, enc string }{
		{"Река поднялась за ночь на два метра, и мост был закрыт в шесть часов вечера.", "windows-1251"},
		{"Река поднялась за ночь на два метра, и мост был закрыт в шесть часов вечера.", "koi8-r"},
		{"Der Fluss stieg über Nacht um zwei Meter; die Brücke wurde für Fußgänger gesperrt.", "windows-1252"},
		{"Rzeka wezbrała w nocy o dwa metry, a most zamknięto o szóstej wieczorem, mówią służby.", "windows-1250"},
		{"Ο ποταμός ανέβηκε δύο μέτρα μέσα στη νύχτα και η γέφυρα έκλεισε στις έξι το απόγευμα.", "windows-1253"},
		{"河水一夜之间上涨了两米，桥梁于下午六点关闭。官员表示，附近的居民应当尽快撤离到安全的地方。", "gb18030"},
		{"川の水位は一晩で二メートル上がり、橋は午後六時に閉鎖されました。住民は避難しています。", "shift_jis"},
		{"강물이 밤사이 이 미터나 불어나서 다리는 오후 여섯 시에 폐쇄되었습니다. 주민들은 대피했습니다.", "euc-kr"},
	} {
		enc, err := htmlindex.Get(tc.enc)
		if err != nil {
			t.Fatal(err)
		}
		b, err := enc.NewEncoder().Bytes([]byte(tc.text))
		if err != nil {
			t.Fatalf("%s: %v", tc.enc, err)
		}
		got, ok := Guess(b)
		if want, _ := htmlindex.Name(enc); !ok || got != tc.enc && got != want {
			t.Errorf("%s text: guessed %q (%v)", tc.enc, got, ok)
		}
	}
	for _, s := range []string{"", "plain ASCII text only, no byte above 0x7F at all", "\xe9t\xe9"} {
		if got, ok := Guess([]byte(s)); ok {
			t.Errorf("Guess(%q) = %q, want no guess", s, got)
		}
	}
}

func TestFirstNonASCII(t *testing.T) {
	for _, s := range []string{"", "a", "abcdefgh", "abcdefghé", "é", "abcdefg\x80", strings.Repeat("x", 17) + "\xff"} {
		want := len(s)
		for i := range len(s) {
			if s[i] >= 0x80 {
				want = i
				break
			}
		}
		if got := FirstNonASCII([]byte(s)); got != want {
			t.Errorf("FirstNonASCII(%q) = %d, want %d", s, got, want)
		}
	}
}

// TestAlphabetMasks checks the letters' language masks against a reading
// of the alphabets letter by letter, for every rune of the planes the
// single-byte encodings decode to.
func TestAlphabetMasks(t *testing.T) {
	for r := rune(0xA0); r < 0x3000; r++ {
		if !unicode.IsLetter(r) && !unicode.IsMark(r) {
			continue
		}
		var langs, rare uint64
		lr := unicode.ToLower(r)
		for l, alphabet := range languages {
			common, rareLetters, _ := strings.Cut(alphabet, "|")
			switch {
			case strings.ContainsRune(common, lr), strings.ContainsRune(common, r):
				langs |= 1 << l
			case strings.ContainsRune(rareLetters, lr):
				langs |= 1 << l
				rare |= 1 << l
			}
		}
		in := classify(r)
		if in.langs&^scriptLanguage(in.script) != langs || in.rare != rare {
			t.Fatalf("%q: languages %b, rare %b; want %b, %b", r, in.langs&^scriptLanguage(in.script), in.rare, langs, rare)
		}
	}
}
