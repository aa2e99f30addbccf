package segment

import (
	"bytes"
	"strings"

	"github.com/sluice-project/sluice/internal/lower"
	"github.com/sluice-project/sluice/page"
)

// Alt texts. An image's alt text is kept as inline text (Options.ImageAlt),
// so that a picture in a sentence still reads, unless it is a file name
// or a slug. On a product card or a teaser the alt usually repeats the
// name printed beside the picture ("<img alt="Pink Nina Bag"> Pink Nina
// Bag"), which would then come out twice: an alt text whose words the
// rest of its block already holds is left out.

// altReach is how far beyond an alt text's length a copy of it is looked
// for on either side: a card's name sits next to its picture.
const altReach = 256

// altSpan is where an alt text sits in the block's buffer, and whether it
// was inside a link.
type altSpan struct {
	start, end int
	link       bool
}

// alt adds an image's alt text to the block, recording where it is.
func (b *builder) alt(s string, el int32) {
	start := len(b.buf) + 1
	b.add(" "+s+" ", el, page.Span{})
	b.alts = append(b.alts, altSpan{start: start, end: len(b.buf) - 1, link: b.inLink > 0})
}

// dropRepeatedAlts blanks, in the block's buffer, each alt text that the
// buffer holds again within altReach bytes of it (ASCII case folded), so
// that the text keeps one copy; the buffer keeps its length, so the
// links' offsets in it hold. The reach bounds the work on a block of many
// images to linear.
func (b *builder) dropRepeatedAlts() {
	for _, a := range b.alts {
		alt := bytes.TrimSpace(b.buf[a.start:a.end])
		reach := len(alt) + altReach
		before, after := b.buf[max(a.start-reach, 0):a.start], b.buf[a.end:min(a.end+reach, len(b.buf))]
		if len(alt) < 2 || !(containsFold(before, alt) || containsFold(after, alt)) {
			continue
		}
		if a.link {
			b.linkChars -= countChars(string(alt))
		}
		for i := a.start; i < a.end; i++ {
			b.buf[i] = ' '
		}
	}
}

// containsFold reports whether s holds sub as words of their own (not
// next to an ASCII letter or digit: "item 1" is not in "item 10"), ASCII
// letters compared without their case.
func containsFold(s, sub []byte) bool {
	first := lower.Byte(sub[0])
	for i := 0; i+len(sub) <= len(s); i++ {
		if lower.Byte(s[i]) == first && equalFold(s[i:i+len(sub)], sub) &&
			(i == 0 || !alnum(s[i-1])) && (i+len(sub) == len(s) || !alnum(s[i+len(sub)])) {
			return true
		}
	}
	return false
}

// alnum reports whether c is an ASCII letter or digit.
func alnum(c byte) bool {
	c = lower.Byte(c)
	return 'a' <= c && c <= 'z' || '0' <= c && c <= '9'
}

// equalFold reports whether a and b, of one length, are equal with ASCII
// letters compared without their case.
func equalFold(a, b []byte) bool {
	for i := range a {
		if lower.Byte(a[i]) != lower.Byte(b[i]) {
			return false
		}
	}
	return true
}

// fileName reports whether an alt text is only a file name, an address
// or a slug ("35.jpg", "/img/logo.png", "staple-tee-front",
// "hero_banner_2"), which pages put in alt attributes but no reader sees
// as text. A slug is one word of three parts or more joined by hyphens or
// underscores: of the 902 such alt texts on WCXB's pages, 7 are in their
// gold (as names in the text: "Dave-in-Decatur", "LLMs-from-scratch"),
// where of the 648 with one joint ("Half-Life", "PAC-MAN") 26 are.
func fileName(s string) bool {
	s = strings.ToLower(strings.TrimSpace(s))
	if strings.ContainsAny(s, " \t") {
		return false
	}
	if strings.HasPrefix(s, "http:") || strings.HasPrefix(s, "https:") || strings.Count(s, "-")+strings.Count(s, "_") >= 2 {
		return true
	}
	for _, ext := range [...]string{".jpg", ".jpeg", ".png", ".gif", ".webp", ".svg", ".bmp", ".avif"} {
		if strings.HasSuffix(s, ext) {
			return true
		}
	}
	return false
}
