package corpus

import (
	"unicode"
	"unicode/utf8"

	"github.com/sluice-project/sluice/page"
)

// Paragraph deduplication across the corpus, as CCNet does it for Common
// Crawl: a paragraph (a kept block) that earlier pages of the run already
// hold is boilerplate the model did not catch (a newsletter pitch, a
// licence line, a "related stories" heading under every article of a
// site), and is dropped from the page. Paragraphs are compared after
// normalising: letters in lower case, every run of digits as one 0,
// everything else left out. The writer applies it in input order, so the first
// Options.ParagraphDedup pages holding a paragraph keep it, whatever the
// number of workers.

// minParagraphWords is the length, in word-equivalents, below which a
// block is not compared: the headings that many pages share ("Conclusion",
// "Frequently asked questions", "Pros") and lone numbers are content, and
// a repeated boilerplate sentence is longer.
const minParagraphWords = 5

// paraDedup counts, for each normalised paragraph, the pages that held
// it: two generations of maps of at most window entries each, as dedup
// does (about 40 bytes an entry). Only the writer uses it.
type paraDedup struct {
	after    uint32 // a paragraph held by this many earlier pages is dropped
	window   int
	cur, old map[uint64]uint32
	seen     map[uint64]bool // the page's own paragraphs, reused
}

func newParaDedup(after, window int) *paraDedup {
	return &paraDedup{after: uint32(after), window: window, cur: map[uint64]uint32{}, seen: map[uint64]bool{}}
}

// apply drops from p the kept blocks that enough earlier pages held, then
// counts p's paragraphs, and returns how many blocks it dropped.
func (d *paraDedup) apply(p *page.Page) int {
	clear(d.seen)
	dropped := 0
	eachParagraph(p, func(b *page.Block, h uint64) {
		if d.count(h) >= d.after {
			b.Label = page.Other
			dropped++
			return
		}
		d.seen[h] = true
	})
	for h := range d.seen {
		n := d.count(h) + 1
		if len(d.cur) >= d.window {
			d.old, d.cur = d.cur, make(map[uint64]uint32, min(d.window, 1<<16))
		}
		d.cur[h] = n
	}
	return dropped
}

// eachParagraph calls fn for each block of p that paragraph deduplication
// compares: kept, of minParagraphWords or more, with letters or digits.
func eachParagraph(p *page.Page, fn func(b *page.Block, key uint64)) {
	for i := range p.Blocks {
		b := &p.Blocks[i]
		if !b.Label.Kept() || b.Words < minParagraphWords {
			continue
		}
		if h, ok := paragraphKey(b.Text); ok {
			fn(b, h)
		}
	}
}

// ParagraphKeys returns the keys of the paragraphs of p that
// Options.ParagraphDedup counts, each once, in the order of the blocks:
// the hashes of the kept blocks of five words or more, normalised (letters
// in lower case, every run of digits as one 0). A paragraph is dropped from
// a page when Options.ParagraphDedup earlier pages held its key (see
// DropParagraphs); a page holds the keys it was not dropped for.
func ParagraphKeys(p *page.Page) []uint64 {
	var keys []uint64
	seen := map[uint64]bool{}
	eachParagraph(p, func(_ *page.Block, h uint64) {
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
	eachParagraph(p, func(b *page.Block, h uint64) {
		if drop[h] {
			b.Label = page.Other
			dropped++
		}
	})
	return dropped
}

// count returns how many earlier pages held the paragraph.
func (d *paraDedup) count(h uint64) uint32 {
	if n, ok := d.cur[h]; ok {
		return n
	}
	return d.old[h]
}

// bytes is about the memory d holds when full.
func (d *paraDedup) bytes() int64 { return 2 * int64(d.window) * 40 }

// paragraphKey hashes a paragraph's letters in lower case and its runs of
// digits as one 0 (FNV-1a); ok is false for text with neither.
func paragraphKey(s string) (uint64, bool) {
	h := uint64(14695981039346656037)
	ok, digits := false, false
	var buf [utf8.UTFMax]byte
	for _, r := range s {
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
