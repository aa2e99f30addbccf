package features

import (
	"cmp"
	"slices"
	"unicode"
	"unicode/utf8"

	"github.com/sluice-project/sluice/internal/grow"
	"github.com/sluice-project/sluice/page"
)

// Items: the parts of a repeated item and the page's repeated groups
// (issue 22, item 5). On a product grid, a listing or a thread, the repeat
// group says that a block sits in a repeated item; it does not say whether
// the item's run is the page's main one, nor which part of the item the
// block is. The title of each card is text of its own, while "Add to
// cart", "12 reviews" or a rating line come back, the same but for their
// digits, in most items of the run: the item group tells them apart.

// itemMaxChars bounds the texts compared across items: furniture is
// short, and a long text is not repeated verbatim.
const itemMaxChars = 200

// itemInfo is what the item group knows of one block.
type itemInfo struct {
	item int32   // the repeated item (repeatItem, whole), -1 for none
	rank int32   // the rank of its run among the page's runs by words, 0 the largest
	same float32 // the share of the run's items holding the same text, digits aside
}

// itemText counts the items of one run that hold one text.
type itemText struct {
	items, last int32
}

// itemPage holds the page-level values of the item group.
type itemPage struct {
	topShare float64 // the largest run's share of the page's words
	topItems int32   // its number of items
	prices   int32   // short blocks with a currency sign and a digit
}

// items fills s.item for every block and s.itemPg. It reads the repeated
// items of repeat.go.
func (s *scratch) items(p *page.Page) {
	n := len(p.Blocks)
	s.item = grow.Slice(s.item, n)
	if s.texts == nil {
		s.texts = map[uint64]itemText{}
	}
	clear(s.texts)
	if s.ranks == nil {
		s.ranks = map[uint64]int32{}
	}
	clear(s.ranks)
	s.runKeys = s.runKeys[:0]
	s.itemPg = itemPage{}
	for i := range p.Blocks {
		b := &p.Blocks[i]
		if b.Words <= 6 && priceLike(b.Text) {
			s.itemPg.prices++
		}
		item, _, _ := s.repeatItem(p, b.Node, true)
		s.item[i] = itemInfo{item: item}
		if item < 0 {
			continue
		}
		k := s.sig[item]
		if _, ok := s.ranks[k]; !ok {
			s.ranks[k] = 0
			s.runKeys = append(s.runKeys, k)
		}
		if b.Chars > itemMaxChars {
			continue
		}
		tk := k ^ textKey(b.Text)
		t := s.texts[tk]
		if t.items == 0 || t.last != item {
			t.items++
			t.last = item
		}
		s.texts[tk] = t
	}
	slices.SortFunc(s.runKeys, func(a, b uint64) int {
		if c := cmp.Compare(s.runs[b].words, s.runs[a].words); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	for r, k := range s.runKeys {
		s.ranks[k] = int32(r)
	}
	if len(s.runKeys) > 0 {
		top := s.runs[s.runKeys[0]]
		s.itemPg.topShare = safeDiv(float64(top.words), float64(s.docWords))
		s.itemPg.topItems = top.count
	}
	for i := range p.Blocks {
		it := &s.item[i]
		if it.item < 0 {
			continue
		}
		k := s.sig[it.item]
		it.rank = s.ranks[k]
		it.same = 1 / float32(s.runs[k].count)
		if p.Blocks[i].Chars <= itemMaxChars {
			it.same = float32(s.texts[k^textKey(p.Blocks[i].Text)].items) / float32(s.runs[k].count)
		}
	}
}

// textKey hashes a text's letters in lower case, digits, spaces and
// punctuation left out, so that "4 reviews" and "12 reviews" are one text
// (FNV-1a over the runes).
func textKey(s string) uint64 {
	h := uint64(14695981039346656037)
	for _, r := range s {
		if !unicode.IsLetter(r) {
			continue
		}
		r = unicode.ToLower(r)
		for j := 0; j < utf8.RuneLen(r); j++ {
			h ^= uint64(byte(r >> (8 * j)))
			h *= 1099511628211
		}
	}
	return h | 1 // never 0, so that a letterless text is not the run's key
}

// priceLike reports whether s holds a currency sign (Unicode Sc) and a
// digit.
func priceLike(s string) bool {
	cur, digit := false, false
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digit = true
		case r < 0x80 && r != '$':
		case unicode.Is(unicode.Sc, r):
			cur = true
		}
		if cur && digit {
			return true
		}
	}
	return false
}
