package site

import (
	"unicode"
	"unicode/utf8"

	mixpkg "github.com/sluice-project/sluice/internal/mix"
	"github.com/sluice-project/sluice/page"
)

// Fingerprints are 64-bit FNV-1a hashes. Zero is never a fingerprint: it
// stands for "no text" (a block whose normalised text is empty), and such
// blocks are never template evidence.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
	linkSalt  = 0x6c696e6b // "link"
)

// Key chooses what a block's fingerprint covers.
type Key uint8

const (
	// TextKey (the default) fingerprints the block's normalised text and
	// whether the block is a link: the same words anywhere on two pages
	// are the same block, except that a headline on its own page and the
	// same headline as a link in another page's "most read" box are not.
	TextKey Key = iota
	// PathKey adds the block's container path: the tags from the content
	// root down to the block's element, and the classes of the three
	// nearest elements. The same words elsewhere in the layout are then
	// another block. It is stricter: a menu that sits in another wrapper
	// on another kind of page is not recognised.
	PathKey
)

// String returns "text" or "path".
func (k Key) String() string {
	if k == PathKey {
		return "path"
	}
	return "text"
}

// TextHash returns the fingerprint of a text: the FNV-1a hash of its
// normalised form, where letters are lowercased, every run of decimal
// digits is folded to one '0' (so "12 comments" and "7 comments", or two
// dates, are the same text) and runs of white space become one space,
// trimmed. It
// returns 0 when the normalised text is empty. It does not allocate.
func TextHash(s string) uint64 {
	h := uint64(fnvOffset)
	n := 0         // characters hashed
	space := false // a space is pending
	digit := false // the last character hashed was a digit
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
				space = n > 0
				continue
			case 'A' <= c && c <= 'Z':
				c += 'a' - 'A'
			case '0' <= c && c <= '9':
				if digit && !space {
					continue
				}
				c = '0'
			}
			if space {
				h = (h ^ ' ') * fnvPrime
				space = false
			}
			digit = c == '0'
			h = (h ^ uint64(c)) * fnvPrime
			n++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case unicode.IsSpace(r):
			space = n > 0
			continue
		case unicode.IsDigit(r):
			if digit && !space {
				continue
			}
			r = '0'
		default:
			r = unicode.ToLower(r)
		}
		if space {
			h = (h ^ ' ') * fnvPrime
			space = false
		}
		digit = r == '0'
		var buf [utf8.UTFMax]byte
		for _, b := range buf[:utf8.EncodeRune(buf[:], r)] {
			h = (h ^ uint64(b)) * fnvPrime
		}
		n++
	}
	if n == 0 {
		return 0
	}
	return nonZero(h)
}

// nonZero keeps 0 free for "no text".
func nonZero(h uint64) uint64 {
	if h == 0 {
		return 1
	}
	return h
}

// hashString folds s into h, digits folded to '0' (class names such as
// "post-1234" or "pos-2" then agree across pages), and a separator.
func hashString(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if '0' <= c && c <= '9' {
			c = '0'
		}
		h = (h ^ uint64(c)) * fnvPrime
	}
	return (h ^ 0xff) * fnvPrime // 0xff never occurs in UTF-8
}

// mix combines two hashes (SplitMix64's finaliser over a weighted sum).
func mix(a, b uint64) uint64 { return mixpkg.Mix64(a + 0x9e3779b97f4a7c15*b) }

// tagPaths returns, for every node of p, the hash of the tags on the path
// from the content root down to it. Parents precede their children in
// p.Nodes, so one pass computes them all.
func tagPaths(dst []uint64, p *page.Page) []uint64 {
	dst = dst[:0]
	for i := range p.Nodes {
		nd := &p.Nodes[i]
		h := uint64(fnvOffset)
		if nd.Parent >= 0 && int(nd.Parent) < i {
			h = dst[nd.Parent]
		}
		dst = append(dst, hashString(h, nd.Tag))
	}
	return dst
}

// pathClasses is how many elements, from a block's container up, add their
// class to the block's path. Classes far up the tree often name the page's
// section or kind ("business", "single-post") and differ between pages
// built from one template; near the block they name its role.
const pathClasses = 3

// blockPath returns the path hash of element n: its tag path (tags[n]) and
// the classes of the pathClasses nearest elements.
func blockPath(p *page.Page, tags []uint64, n int32) uint64 {
	if n < 0 || int(n) >= len(tags) {
		return fnvOffset
	}
	h := tags[n]
	for k := 0; k < pathClasses && n >= 0 && int(n) < len(p.Nodes); k++ {
		h = hashString(h, p.Nodes[n].Class)
		n = p.Nodes[n].Parent
	}
	return h
}

// Fingerprint is what identifies a block across the pages of a host.
type Fingerprint struct {
	// Text is TextHash of the block's text, combined with a link mark when
	// more than half of the block's characters are link text; 0 when the
	// block has no text.
	Text uint64
	// Path is Text combined with the block's container path (see
	// PathKey); 0 when Text is 0.
	Path uint64
}

// Of returns the fingerprint that key selects.
func (f Fingerprint) Of(k Key) uint64 {
	if k == PathKey {
		return f.Path
	}
	return f.Text
}

// Fingerprints returns the fingerprint of every block of p. Each block's
// text is hashed once, and each element's path once.
func Fingerprints(p *page.Page) []Fingerprint {
	var s scratch
	return s.fingerprints(p, true)
}

// scratch holds buffers reused from page to page.
type scratch struct {
	fps   []Fingerprint
	tags  []uint64
	hs    []uint64
	keys  []uint64
	means []pathMean
}

// fingerprints returns the fingerprints of p's blocks in s.fps; with paths
// false only Text is set.
func (s *scratch) fingerprints(p *page.Page, paths bool) []Fingerprint {
	s.fps = s.fps[:0]
	if paths {
		s.tags = tagPaths(s.tags, p)
	}
	for i := range p.Blocks {
		b := &p.Blocks[i]
		t := TextHash(b.Text)
		if t != 0 && 2*b.LinkChars > b.Chars {
			t = nonZero(mix(t, linkSalt))
		}
		f := Fingerprint{Text: t}
		if t != 0 && paths {
			f.Path = nonZero(mix(t, blockPath(p, s.tags, b.Node)))
		}
		s.fps = append(s.fps, f)
	}
	return s.fps
}
