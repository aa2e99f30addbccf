package cuetable

import (
	"slices"
	"testing"
)

// tokenTexts are texts for the token readers: ASCII with every kind of
// unit (words, numbers, one-letter words, underscores, joined
// punctuation), and texts with letters outside ASCII, Han, kana and Thai.
var tokenTexts = []string{
	"",
	"   ",
	"Home | About us | Contact",
	"The 3 rivers of e.g. Bavaria don't meet at 3.14 or 1,000 km: a:b",
	"I a x _ __ _a a_ A1 1a 12 UPPER lower MiXeD",
	"one two three four five six seven eight nine ten eleven twelve thirteen fourteen",
	"...!!! ??? --- ((()))",
	"Café crème, naïve façade",
	"hello,wörld a.é x\u0301y",
	"中文网页的正文提取 and English",
	"日本語のテキスト、カタカナ",
	"ภาษาไทย ไม่มีช่องว่าง",
	"Москва — столица России",
}

// TestTextTokenHashesAsTextTokens: TextTokenHashes gives the hashes and
// places of TextTokens' tokens, for every limit.
func TestTextTokenHashesAsTextTokens(t *testing.T) {
	for _, text := range tokenTexts {
		for limit := 1; limit <= 20; limit++ {
			checkTokenHashes(t, text, limit)
		}
	}
}

// FuzzTextTokenHashes checks TextTokenHashes against TextTokens on any
// text.
func FuzzTextTokenHashes(f *testing.F) {
	for _, text := range tokenTexts {
		f.Add(text, 12)
	}
	f.Fuzz(func(t *testing.T, text string, limit int) {
		checkTokenHashes(t, text, min(max(limit, 1), 64))
	})
}

type hashAt struct {
	h    uint64
	unit int
}

func checkTokenHashes(t *testing.T, text string, limit int) {
	t.Helper()
	var want, got []hashAt
	TextTokens(text, limit, nil, func(tok []byte, unit int) { want = append(want, hashAt{TokenHash(tok), unit}) })
	TextTokenHashes(text, limit, nil, func(h uint64, unit int) { got = append(got, hashAt{h, unit}) })
	if !slices.Equal(got, want) {
		t.Fatalf("%q, limit %d: TextTokenHashes %v, TextTokens %v", text, limit, got, want)
	}
}

// TestTokenHash checks the hash against FNV-1a's published values.
func TestTokenHash(t *testing.T) {
	for tok, want := range map[string]uint64{"": 0xcbf29ce484222325, "a": 0xaf63dc4c8601ec8c, "foobar": 0x85944171f73967e8} {
		if got := TokenHash([]byte(tok)); got != want {
			t.Errorf("TokenHash(%q) = %#x, want %#x", tok, got, want)
		}
	}
}
