package segment

import (
	"bytes"
	"strings"

	"github.com/sluice-project/sluice/dom"
	"github.com/sluice-project/sluice/page"
)

// refs is what the builder records of the open block's links and images
// (Options.Links, Options.Images) until the block is flushed.
type refs struct {
	links  []openLink
	open   int // index in links of the <a href> being read, -1 when none
	images []page.Image
	anchor []byte // scratch space for a link's text
}

// openLink is a link of the open block: its text is builder.buf[start:end]
// (end -1 while the element is open).
type openLink struct {
	start, end int
	href       string
	kept       bool // recorded by flushLinks: its text is not empty
}

// startLink records the start of <a href> element n at the end of the
// open block's text. Links beyond the bounds are not recorded.
func (b *builder) startLink(n dom.Node) {
	href := b.keep.keep(boundedAttr(n, "href"))
	if href == "" || len(b.refs.links) >= page.MaxBlockLinks {
		return
	}
	b.refs.links = append(b.refs.links, openLink{start: len(b.buf), end: -1, href: href})
	b.refs.open = len(b.refs.links) - 1
}

// endLink records the end of the open link, if one is recorded.
func (b *builder) endLink() {
	if b.refs.open >= 0 {
		b.refs.links[b.refs.open].end = len(b.buf)
		b.refs.open = -1
	}
}

// image records <img> element n, when it has a src, on the open block.
func (b *builder) image(n dom.Node) {
	src := b.keep.keep(boundedAttr(n, "src"))
	if src == "" || len(b.refs.images) >= page.MaxBlockLinks {
		return
	}
	raw := attr(n, "alt")
	alt := raw
	if strings.IndexFunc(raw, isSpace) >= 0 {
		alt = strings.Join(strings.FieldsFunc(raw, isSpace), " ")
	}
	inText := b.opts.ImageAlt && strings.TrimSpace(raw) != "" && !fileName(raw)
	b.refs.images = append(b.refs.images, page.Image{After: int32(len(b.refs.links)), InLink: b.refs.open >= 0,
		Src: src, Alt: b.keep.keep(alt), InText: inText && alt != ""})
}

// flushRefs moves the links and images of the open block to the page, as
// those of block blk, whose text has just been made from buf; with blk
// nil (the block had no text) they are dropped. A link still open goes on
// in the next block.
func (b *builder) flushRefs(blk *page.Block, idx int32) {
	if blk != nil {
		b.flushLinks(blk.Text, idx)
		// After counted the links started before each image; count
		// those recorded.
		j, kept := 0, int32(0)
		for _, im := range b.refs.images {
			for ; j < int(im.After) && j < len(b.refs.links); j++ {
				if b.refs.links[j].kept {
					kept++
				}
			}
			im.Block, im.After = idx, kept
			im.InLink = im.InLink && kept > 0 && b.refs.links[j-1].kept
			b.p.Images = append(b.p.Images, im)
		}
	}
	b.refs.images = b.refs.images[:0]
	if b.refs.open < 0 {
		b.refs.links = b.refs.links[:0]
		return
	}
	href := b.refs.links[b.refs.open].href
	b.refs.links = append(b.refs.links[:0], openLink{start: 0, end: -1, href: href})
	b.refs.open = 0
}

// flushLinks appends the links of the open block to the page, their texts
// normalised as the block's text is (b.scratch holds its bytes) and,
// where it holds them in order (it always should), sharing its memory.
func (b *builder) flushLinks(text string, idx int32) {
	at := 0
	for k := range b.refs.links {
		l := &b.refs.links[k]
		end := l.end
		if end < 0 {
			end = len(b.buf)
		}
		b.refs.anchor, _ = normalize(b.refs.anchor[:0], b.buf[l.start:end], false)
		anchor := b.refs.anchor
		if len(anchor) == 0 {
			continue
		}
		l.kept = true
		var s string
		if i := bytes.Index(b.scratch[at:], anchor); i >= 0 && len(b.scratch) == len(text) {
			s = text[at+i : at+i+len(anchor)]
			at += i + len(anchor)
		} else {
			s = string(anchor)
		}
		b.p.Links = append(b.p.Links, page.Link{Block: idx, Text: s, Href: l.href})
	}
}

// boundedAttr returns attribute key of n trimmed, or "" when it is longer
// than page.MaxHref; a trimmed value is copied, so that it does not hold
// a long attribute's memory.
func boundedAttr(n dom.Node, key string) string {
	raw := attr(n, key)
	v := strings.TrimSpace(raw)
	if len(v) > page.MaxHref {
		return ""
	}
	if len(v) < len(raw) {
		v = strings.Clone(v)
	}
	return v
}
