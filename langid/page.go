package langid

import (
	"strings"

	"github.com/sluice-project/sluice/page"
)

// Page returns the language of p: p.Meta.Language when it is set, else
// Document of the first SampleBytes of its kept text, with p.Meta.Lang,
// the declared language, as evidence. Cleaning does not tell it (it
// costs about a hundredth of what cleaning does, docs/langid.md): the json
// format, sluice.Extract and sluice corpus call Page, and SetPage.
func Page(p *page.Page) string {
	if p.Meta.Language != "" {
		return p.Meta.Language
	}
	lang, _ := Document(keptSample(p), p.Meta.Lang)
	return lang
}

// SetPage sets p.Meta.Language to Page(p) and returns it.
func SetPage(p *page.Page) string {
	p.Meta.Language = Page(p)
	return p.Meta.Language
}

// Blocks returns, for each block of p, its language when it is kept and
// in another language than the page's (Block); "" otherwise.
func Blocks(p *page.Page) []string {
	doc := Page(p)
	out := make([]string, len(p.Blocks))
	for i := range p.Blocks {
		if p.Blocks[i].Label.Kept() {
			out[i] = Block(p.Blocks[i].Text, doc)
		}
	}
	return out
}

// keptSample returns the kept blocks' text, joined by spaces, as far as
// SampleBytes (Detect cuts the rest): the blocks of MinBlockLetters
// characters or more first, in order, then the shorter ones, so that a
// page's prose speaks before its headings, names and captions.
func keptSample(p *page.Page) string {
	var b strings.Builder
	for _, long := range []bool{true, false} {
		for i := range p.Blocks {
			blk := &p.Blocks[i]
			if !blk.Label.Kept() || blk.Text == "" || (blk.Chars >= MinBlockLetters) != long {
				continue
			}
			if b.Len() == 0 && len(blk.Text) >= SampleBytes {
				return blk.Text // no copy
			}
			if b.Len() == 0 {
				b.Grow(SampleBytes + 64)
			} else {
				b.WriteByte(' ')
			}
			b.WriteString(blk.Text)
			if b.Len() >= SampleBytes {
				return b.String()
			}
		}
	}
	return b.String()
}
