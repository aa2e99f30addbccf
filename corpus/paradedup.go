package corpus

import (
	"github.com/sluice-project/sluice/fingerprint"
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

// paraDedup counts, for each normalised paragraph, the pages that held
// it: two generations of maps of at most window entries each, as dedup
// does (about 40 bytes an entry). Only the writer uses it.
type paraDedup struct {
	after    uint32 // a paragraph held by this many earlier pages is dropped
	window   int
	cur, old map[uint64]uint32
	seen     map[uint64]bool // the page's own paragraphs, reused
	order    []uint64        // the same, in the page's order, reused
}

func newParaDedup(after, window int) *paraDedup {
	return &paraDedup{after: uint32(after), window: window, cur: map[uint64]uint32{}, seen: map[uint64]bool{}}
}

// apply drops from p the kept blocks that enough earlier pages held, then
// counts p's paragraphs, and returns how many blocks it dropped.
func (d *paraDedup) apply(p *page.Page) int {
	clear(d.seen)
	d.order = d.order[:0]
	dropped := 0
	fingerprint.EachParagraph(p, func(b *page.Block, h uint64) {
		if d.count(h) >= d.after {
			b.Label = page.Other
			dropped++
			return
		}
		if !d.seen[h] {
			d.seen[h] = true
			d.order = append(d.order, h)
		}
	})
	// In the page's order, not the map's: which paragraphs land in the
	// new generation when it turns over must not change from run to run.
	for _, h := range d.order {
		n := d.count(h) + 1
		if len(d.cur) >= d.window {
			d.old, d.cur = d.cur, make(map[uint64]uint32, min(d.window, 1<<16))
		}
		d.cur[h] = n
	}
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
