package fingerprint

import (
	"hash/fnv"
	"strings"
	"testing"
	"unicode"

	"github.com/sluice-project/sluice/page"
)

// keptPage is a page of one kept block of each text.
func keptPage(texts ...string) *page.Page {
	p := &page.Page{}
	for _, s := range texts {
		p.Blocks = append(p.Blocks, page.Block{Text: s, Label: page.Paragraph, Words: int32(len(strings.Fields(s)))})
	}
	return p
}

// TestSignature: a page and a copy with a word changed are similar at 0.8,
// a different text is not, a short text is not comparable, and the binary
// form gives the signature back.
func TestSignature(t *testing.T) {
	text := "The river rose through the night and by morning the lower mill stood in water to its sills, " +
		"while the millers carried the sacks of flour up to the loft one by one. When the water fell again on the third day " +
		"they found the wheel whole but the race choked with branches, stones and mud, and it took the village a week " +
		"of work with spades and carts before the mill could grind again for the market in the town."
	a := SignatureOf(keptPage(text))
	b := SignatureOf(keptPage(strings.Replace(text, "morning", "dawn", 1)))
	c := SignatureOf(keptPage("A different page about the price of tea in the harbour towns of the north coast, in winter and in summer alike."))
	if !a.Comparable() || !a.Similar(&b, 0.8) || a.Similar(&c, 0.8) {
		t.Errorf("comparable %v, similar to the copy %v, to another text %v", a.Comparable(), a.Similar(&b, 0.8), a.Similar(&c, 0.8))
	}
	if short := SignatureOf(keptPage("Too short to say.")); short.Comparable() {
		t.Error("a four-word page is comparable")
	}
	bin, err := a.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var back Signature
	if err := back.UnmarshalBinary(bin); err != nil || back != a {
		t.Errorf("round trip: %v, equal %v", err, back == a)
	}
	if err := back.UnmarshalBinary(bin[1:]); err == nil {
		t.Error("a short binary form was taken")
	}
}

// TestParagraphKeys: paragraphs are keyed on their letters in lower case
// and their runs of digits, short ones are not keyed, and DropParagraphs
// drops the blocks of the keys it is given.
func TestParagraphKeys(t *testing.T) {
	p := keptPage("Subscribe to our newsletter for 12 issues a year!", "subscribe to our NEWSLETTER for 3 issues a year", "Pros")
	keys := ParagraphKeys(p)
	if len(keys) != 1 {
		t.Fatalf("keys = %v, want one (two equal paragraphs, one too short)", keys)
	}
	if n := DropParagraphs(p, map[uint64]bool{keys[0]: true}); n != 2 || p.Blocks[0].Label.Kept() || !p.Blocks[2].Label.Kept() {
		t.Errorf("dropped %d blocks", n)
	}
}

// paragraphKeyRunes is ParagraphKey's definition written out another way,
// the oracle its ASCII reading must agree with: the text reduced to its
// letters in lower case and a 0 for each run of digits, hashed by
// hash/fnv's FNV-1a.
func paragraphKeyRunes(s string) (uint64, bool) {
	var sb strings.Builder
	digits := false
	for _, r := range s {
		isDigit := unicode.IsDigit(r)
		switch {
		case isDigit && !digits:
			sb.WriteByte('0')
		case unicode.IsLetter(r):
			sb.WriteRune(unicode.ToLower(r))
		}
		digits = isDigit
	}
	h := fnv.New64a()
	h.Write([]byte(sb.String()))
	return h.Sum64(), sb.Len() > 0
}

func FuzzParagraphKey(f *testing.F) {
	for _, s := range []string{
		"", "Hello, World 2026!", "Order by 12 May", "١٢٣ digits ٤", "Ünïcödé and ASCII",
		"中文段落，共12字。", "\xff\xfe broken \xc3", "İstanbul", "ΑΒΓ abc", "a1b22c333", "- * 9",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h, ok := ParagraphKey(s)
		wh, wok := paragraphKeyRunes(s)
		if h != wh || ok != wok {
			t.Fatalf("ParagraphKey(%q) = %x, %v; rune by rune %x, %v", s, h, ok, wh, wok)
		}
	})
}
