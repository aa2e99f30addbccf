package fingerprint

import (
	"unicode"
	"unicode/utf8"

	"github.com/sluice-project/sluice/page"
)

// minParagraphWords is the length, in word-equivalents, below which a
// block is not compared: the headings that many pages share ("Conclusion",
// "Frequently asked questions", "Pros") and lone numbers are content, and
// a repeated boilerplate sentence is longer.
const minParagraphWords = 5

// EachParagraph calls fn, with its key, for each block of p that paragraph
// deduplication compares: kept, of minParagraphWords or more, with letters or digits.
func EachParagraph(p *page.Page, fn func(b *page.Block, key uint64)) {
	for i := range p.Blocks {
		b := &p.Blocks[i]
		if !b.Label.Kept() || b.Words < minParagraphWords {
			continue
		}
		if h, ok := ParagraphKey(b.Text); ok {
			fn(b, h)
		}
	}
}

// ParagraphKeys returns the keys of the paragraphs of p that
// corpus.Options.ParagraphDedup counts, each once, in the order of the blocks:
// the hashes of the kept blocks of five words or more, normalised (letters
// in lower case, every run of digits as one 0). A paragraph is dropped from
// a page when corpus.Options.ParagraphDedup earlier pages held its key (see
// DropParagraphs); a page holds the keys it was not dropped for.
func ParagraphKeys(p *page.Page) []uint64 {
	var keys []uint64
	seen := map[uint64]bool{}
	EachParagraph(p, func(_ *page.Block, h uint64) {
		if !seen[h] {
			seen[h] = true
			keys = append(keys, h)
		}
	})
	return keys
}

// DropParagraphs drops from p the paragraphs whose key (see ParagraphKeys)
// drop holds, and returns how many blocks it dropped.
func DropParagraphs(p *page.Page, drop map[uint64]bool) int {
	dropped := 0
	EachParagraph(p, func(b *page.Block, h uint64) {
		if drop[h] {
			b.Label = page.Other
			dropped++
		}
	})
	return dropped
}

// ParagraphKey hashes a paragraph's letters in lower case and its runs of
// digits as one 0 (FNV-1a); ok is false for text with neither. ASCII bytes
// are read without decoding (the labeller keys every long block of a
// page: label.DropFarCopies); the hash is the same either way.
func ParagraphKey(s string) (uint64, bool) {
	h := uint64(14695981039346656037)
	ok, digits := false, false
	var buf [utf8.UTFMax]byte
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			i++
			switch {
			case '0' <= c && c <= '9':
				if digits {
					continue
				}
				c, digits = '0', true
			case 'a' <= c && c <= 'z':
				digits = false
			case 'A' <= c && c <= 'Z':
				c, digits = c+'a'-'A', false
			default:
				digits = false
				continue
			}
			ok = true
			h ^= uint64(c)
			h *= 1099511628211
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case unicode.IsDigit(r):
			if digits {
				continue
			}
			r, digits = '0', true
		case unicode.IsLetter(r):
			r, digits = unicode.ToLower(r), false
		default:
			digits = false
			continue
		}
		ok = true
		n := utf8.EncodeRune(buf[:], r)
		for _, c := range buf[:n] {
			h ^= uint64(c)
			h *= 1099511628211
		}
	}
	return h, ok
}
