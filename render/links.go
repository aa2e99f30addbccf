package render

import (
	"bufio"
	"cmp"
	"slices"
	"strings"

	"github.com/sluice-project/sluice/page"
)

// The links and images of a page (page.Page.Links and Images, recorded
// when segmentation is asked to) are written by the markdown and html
// formats in the text of their segments, and listed by the json format
// with their blocks; the other formats have no place for them.
//
// A page records each link's anchor text, not where it is: a block's
// links are found in its text in order, each searched forward from the
// end of the previous one, so that an anchor text that comes twice maps
// to its occurrences in turn. An image whose alt text the block's text
// holds (page.Image.InText) is placed in its place: its first occurrence
// after the link or image before it (page.Image.After and InLink say
// which), so that an alt text that also comes earlier in that stretch of
// text takes the earlier place. Any other image goes at the end of its
// block.

// mark is a link or an image placed in a segment's text: text[start:end]
// is the link's anchor text or the image's alt text. An image with
// start == end is not in the text and is written at that point.
type mark struct {
	start, end int
	link       *page.Link
	img        *page.Image
}

// segmentMarks returns the links and images of segment s placed in its
// text, ordered by start, a link before an image that starts with it (and
// lies inside it); nil when p records none.
func segmentMarks(p *page.Page, s *Segment) []mark {
	if len(p.Links) == 0 && len(p.Images) == 0 {
		return nil
	}
	text := s.Text
	var ms []mark
	pos := 0 // where the next block's text is searched from
	for _, bi := range s.Blocks {
		if bi < 0 || bi >= len(p.Blocks) {
			continue
		}
		// The block's text in the segment's; in a clause of a table
		// (TablesLinear) it may not be: then its links are searched in
		// the rest of the text.
		bs, be := pos, len(text)
		found := false
		if bt := p.Blocks[bi].Text; bt != "" {
			if i := strings.Index(text[pos:], bt); i >= 0 {
				bs, be, found = pos+i, pos+i+len(bt), true
			}
		}
		var at int
		ms, at = placeBlock(ms, p.BlockLinks(bi), p.BlockImages(bi), text, bs, be)
		if pos = at; found {
			pos = be
		}
	}
	slices.SortStableFunc(ms, func(a, b mark) int {
		if c := cmp.Compare(a.start, b.start); c != 0 {
			return c
		}
		return cmp.Compare(a.kind(), b.kind())
	})
	return ms
}

// kind orders marks that start together: a link first, then an image in
// the text, then an image placed at a point.
func (m *mark) kind() int {
	switch {
	case m.link != nil:
		return 0
	case m.end > m.start:
		return 1
	}
	return 2
}

// placeBlock appends to ms the links and images of a block whose text is
// text[bs:be] (parts of page.Page.Links and Images), in their order: each
// link searched from the end of the previous link or image, each image
// among the links as its After and InLink say; an image whose alt text is
// not in the text (or not found) goes at the end of the block. It returns
// the end of the last mark found in the text.
func placeBlock(ms []mark, links []page.Link, imgs []page.Image, text string, bs, be int) ([]mark, int) {
	at := bs
	ls, le, in := -1, -1, -1 // the last link placed, and where in it images are searched from
	k := 0
	for j := 0; j <= len(links); j++ {
		for ; k < len(imgs) && int(imgs[k].After) <= j; k++ {
			im := &imgs[k]
			m := mark{start: be, end: be, img: im}
			switch {
			case !im.InText || im.Alt == "":
			case im.InLink && ls >= 0:
				if i := strings.Index(text[in:le], im.Alt); i >= 0 {
					m.start, m.end = in+i, in+i+len(im.Alt)
					in = m.end
				}
			default:
				if i := strings.Index(text[at:be], im.Alt); i >= 0 {
					m.start, m.end = at+i, at+i+len(im.Alt)
					at, ls = m.end, -1
				}
			}
			ms = append(ms, m)
		}
		if j == len(links) {
			break
		}
		l := &links[j]
		ls = -1
		if i := strings.Index(text[at:be], l.Text); i >= 0 {
			ls, le = at+i, at+i+len(l.Text)
			in, at = ls, le
			ms = append(ms, mark{start: ls, end: le, link: l})
		}
	}
	return ms, at
}

// inline is how a format writes a segment's text with links and images.
type inline interface {
	// text writes s[from:to] as plain text, reading the text around
	// it in s; inLink says it is a link's anchor text, beforeMark that a
	// link or image follows it.
	text(s string, from, to int, inLink, beforeMark bool)
	// openLink starts link l and reports whether it did: false for a
	// target the format refuses, whose anchor text is then written as
	// plain text.
	openLink(l *page.Link) bool
	closeLink(l *page.Link)
	// image writes image im and reports whether it did (false for a
	// source the format refuses); alone says it is not in the text.
	image(im *page.Image, alone bool) bool
}

// writeMarked writes text[from:to] through w with the marks of ms that lie
// inside it (a mark crossing another is left out: its text is written as
// the other's).
func writeMarked(w inline, text string, from, to int, ms []mark) {
	pos := from
	for k := 0; k < len(ms); k++ {
		m := &ms[k]
		if m.start < pos || m.end > to {
			continue
		}
		w.text(text, pos, m.start, false, true)
		pos = m.end
		if m.img != nil {
			if !w.image(m.img, m.start == m.end) {
				w.text(text, m.start, m.end, false, false)
			}
			continue
		}
		open := w.openLink(m.link)
		in := m.start
		for k+1 < len(ms) && ms[k+1].img != nil && ms[k+1].start >= in && ms[k+1].start < ms[k+1].end && ms[k+1].end <= m.end {
			k++
			n := &ms[k]
			w.text(text, in, n.start, open, true)
			if !w.image(n.img, false) {
				w.text(text, n.start, n.end, open, false)
			}
			in = n.end
		}
		w.text(text, in, m.end, open, false)
		if open {
			w.closeLink(m.link)
		}
	}
	w.text(text, pos, to, false, false)
}

// urlScheme returns the scheme of address u in lower case, "" for a
// relative address, reading it as browsers do: leading spaces and control
// characters, and tabs and line breaks anywhere, ignored.
func urlScheme(u string) string {
	var sb []byte
	for i := 0; i < len(u); i++ {
		c := u[i]
		switch {
		case c == '\t' || c == '\n' || c == '\r' || c <= ' ' && len(sb) == 0:
		case isLetter(c) || len(sb) > 0 && (isDigit(c) || c == '+' || c == '-' || c == '.'):
			if len(sb) < 32 {
				sb = append(sb, c|0x20)
			}
		case c == ':' && len(sb) > 0:
			return string(sb)
		default:
			return ""
		}
	}
	return ""
}

// linkAllowed reports whether the markdown and html formats write a link
// to href: a relative address, http, https or mailto.
func linkAllowed(href string) bool {
	switch urlScheme(href) {
	case "", "http", "https", "mailto":
		return true
	}
	return false
}

// imageAllowed reports whether the markdown and html formats write an
// image from src: a relative address, http, https, or a data: address of
// a PNG, GIF, JPEG or WebP image of at most page.MaxHref bytes.
func imageAllowed(src string) bool {
	switch urlScheme(src) {
	case "", "http", "https":
		return true
	case "data":
		if len(src) > page.MaxHref {
			return false
		}
		_, rest, _ := strings.Cut(strings.ToLower(src), ":")
		for _, t := range [...]string{"image/png", "image/gif", "image/jpeg", "image/webp"} {
			if strings.HasPrefix(rest, t) && len(rest) > len(t) && (rest[len(t)] == ';' || rest[len(t)] == ',') {
				return true
			}
		}
	}
	return false
}

// mdLineMarked writes one line of text as mdLine does, with the links and
// images ms in it.
func mdLineMarked(b *bufio.Writer, s string, heading bool, ms []mark) {
	if ms == nil {
		mdLine(b, s, heading)
		return
	}
	from, to := trimRange(s, 0, len(s))
	writeMarked(&mdInline{b: b, heading: heading}, s, from, to, ms)
}

// mdMarkedLines is mdLines with the links and images ms in text.
func mdMarkedLines(b *bufio.Writer, text, indent string, ms []mark) {
	first := true
	for start := 0; start < len(text); {
		end := len(text)
		if i := strings.IndexByte(text[start:], '\n'); i >= 0 {
			end = start + i
		}
		if from, to := trimRange(text, start, end); from < to {
			if !first {
				b.WriteString(indent)
			}
			first = false
			writeMarked(&mdInline{b: b}, text, from, to, ms)
			b.WriteByte('\n')
		}
		start = end + 1
	}
	if first {
		b.WriteByte('\n')
	}
}

// trimRange returns the range s[from:to] without the white space at its
// ends that mdLine trims.
func trimRange(s string, from, to int) (int, int) {
	const space = " \t\r\f\v"
	for from < to && strings.IndexByte(space, s[from]) >= 0 {
		from++
	}
	for to > from && strings.IndexByte(space, s[to-1]) >= 0 {
		to--
	}
	return from, to
}

// mdInline writes a line of Markdown with links and images: a link as
// [anchor](href), an image as ![alt](src), in a link's anchor as
// [![alt](src)](href). Anchor and alt texts are escaped as other text is,
// "]" too; a destination is written by mdDest.
type mdInline struct {
	b                *bufio.Writer
	heading, started bool // started: the line has begun
}

func (w *mdInline) text(s string, from, to int, inLink, beforeMark bool) {
	if from >= to {
		return
	}
	if !w.started {
		from += mdLineStart(w.b, s[from:to])
	}
	w.started = true
	mdEscape(w.b, s, from, to, w.heading, inLink, beforeMark)
}

func (w *mdInline) openLink(l *page.Link) bool {
	if !linkAllowed(l.Href) {
		return false
	}
	w.started = true
	w.b.WriteByte('[')
	return true
}

func (w *mdInline) closeLink(l *page.Link) {
	w.b.WriteString("](")
	mdDest(w.b, l.Href)
	w.b.WriteByte(')')
}

func (w *mdInline) image(im *page.Image, alone bool) bool {
	if !imageAllowed(im.Src) {
		return false
	}
	if alone && w.started {
		w.b.WriteByte(' ')
	}
	w.started = true
	w.b.WriteString("![")
	mdEscape(w.b, im.Alt, 0, len(im.Alt), false, true, false)
	w.b.WriteString("](")
	mdDest(w.b, im.Src)
	w.b.WriteByte(')')
	return true
}

// mdDest writes address u as a CommonMark link destination: in <...>
// when it holds a space, else bare with "(" and ")" escaped; "\", "<",
// ">" and an "&" that starts an entity escaped in both; control
// characters, which no destination may hold, percent-encoded.
func mdDest(b *bufio.Writer, u string) {
	angle := strings.IndexByte(u, ' ') >= 0
	if angle {
		b.WriteByte('<')
	}
	for i := 0; i < len(u); i++ {
		switch c := u[i]; {
		case c < ' ' || c == 0x7f:
			b.WriteByte('%')
			b.WriteByte(upperHex[c>>4])
			b.WriteByte(upperHex[c&0xf])
		case c == '\\' || c == '<' || c == '>' || !angle && (c == '(' || c == ')') || c == '&' && looksLikeEntity(u[i+1:]):
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	if angle {
		b.WriteByte('>')
	}
}

const upperHex = "0123456789ABCDEF"

// htmlSegmentText writes the text of segment s escaped, with its links
// as <a href="..."> and its images as <img src="..." alt="...">.
func htmlSegmentText(b *bufio.Writer, p *page.Page, s *Segment) {
	ms := segmentMarks(p, s)
	if ms == nil {
		escapeHTML(b, s.Text)
		return
	}
	writeMarked(&htmlInline{b: b}, s.Text, 0, len(s.Text), ms)
}

// htmlInline writes HTML text with links and images, every text and
// attribute value escaped.
type htmlInline struct {
	b       *bufio.Writer
	started bool // something was written
}

func (w *htmlInline) text(s string, from, to int, _, _ bool) {
	if from < to {
		w.started = true
		escapeHTML(w.b, s[from:to])
	}
}

func (w *htmlInline) openLink(l *page.Link) bool {
	if !linkAllowed(l.Href) {
		return false
	}
	w.started = true
	w.b.WriteString(`<a href="`)
	escapeURL(w.b, l.Href)
	w.b.WriteString(`">`)
	return true
}

func (w *htmlInline) closeLink(*page.Link) { w.b.WriteString("</a>") }

func (w *htmlInline) image(im *page.Image, alone bool) bool {
	if !imageAllowed(im.Src) {
		return false
	}
	if alone && w.started {
		w.b.WriteByte(' ')
	}
	w.started = true
	w.b.WriteString(`<img src="`)
	escapeURL(w.b, im.Src)
	w.b.WriteString(`" alt="`)
	escapeHTML(w.b, im.Alt)
	w.b.WriteString(`">`)
	return true
}

// escapeURL writes address u as an HTML attribute value: escaped, with
// control characters (which HTML does not allow) percent-encoded.
func escapeURL(b *bufio.Writer, u string) {
	last := 0
	for i := 0; i < len(u); i++ {
		if c := u[i]; c < ' ' || c == 0x7f {
			escapeHTML(b, u[last:i])
			b.WriteByte('%')
			b.WriteByte(upperHex[c>>4])
			b.WriteByte(upperHex[c&0xf])
			last = i + 1
		}
	}
	escapeHTML(b, u[last:])
}
