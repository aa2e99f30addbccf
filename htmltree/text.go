package htmltree

import (
	"bytes"

	"github.com/sluice-project/sluice/internal/htmlscan"
)

// piece is one part of a text node that the builder merged from tokens
// that are not contiguous in the input (around a dropped tag, or foster
// parented text): the parts are joined once, at the end of the build,
// into the side buffer, so that merging stays linear.
type piece struct {
	s    str
	next int32 // the next piece, or -1
}

// addText inserts text s, of the raw span raw, at the appropriate place,
// merging it into the text node before that place if there is one.
func (b *Builder) addText(s str, raw Span) {
	if s.n == 0 {
		return
	}
	parent, before, merge := b.place()
	ns := b.tree.Nodes
	prev := ns[parent].LastChild
	if before != Nil {
		prev = ns[before].PrevSibling
	}
	if merge && prev != Nil && ns[prev].Type == TextNode {
		b.appendText(prev, s, raw)
		return
	}
	n := b.newNode(TextNode)
	b.tree.Nodes[n].data = s
	b.tree.Nodes[n].Raw = raw
	b.tree.insertBefore(parent, n, before)
}

// contiguous reports whether b follows a in the same buffer.
func contiguous(a, b str) bool {
	return a.off&sideBit == b.off&sideBit && a.off+a.n == b.off
}

// appendText appends s to text node n.
func (b *Builder) appendText(n NodeID, s str, raw Span) {
	nd := &b.tree.Nodes[n]
	if raw.End > raw.Start {
		if nd.Raw.End <= nd.Raw.Start {
			nd.Raw = raw
		} else {
			nd.Raw.Start = min(nd.Raw.Start, raw.Start)
			nd.Raw.End = max(nd.Raw.End, raw.End)
		}
	}
	if nd.nattr == 0 {
		if contiguous(nd.data, s) {
			nd.data.n += s.n
			return
		}
		nd.attr = int32(len(b.pieces))
		b.pieces = append(b.pieces, piece{s: nd.data, next: -1})
		nd.nattr = nd.attr + 1
		b.merged = append(b.merged, n)
	}
	last := &b.pieces[nd.nattr-1]
	if contiguous(last.s, s) {
		last.s.n += s.n
		return
	}
	last.next = int32(len(b.pieces))
	b.pieces = append(b.pieces, piece{s: s, next: -1})
	nd.nattr = last.next + 1
}

// joinPieces writes the merged text nodes' pieces to the side buffer.
func (b *Builder) joinPieces() {
	t := &b.tree
	for _, n := range b.merged {
		nd := &t.Nodes[n]
		off := len(t.side)
		for i := nd.attr; i >= 0; i = b.pieces[i].next {
			t.side = append(t.side, t.bytes(b.pieces[i].s)...)
		}
		nd.data = str{off: uint32(off) | sideBit, n: uint32(len(t.side) - off)}
		nd.attr, nd.nattr = 0, 0
	}
}

// splitSpace splits s into its leading white space and the rest.
func (b *Builder) splitSpace(s str) (lead, rest str) {
	bs := b.tree.bytes(s)
	i := 0
	for i < len(bs) && htmlscan.IsSpace(bs[i]) {
		i++
	}
	return str{off: s.off, n: uint32(i)}, str{off: s.off + uint32(i), n: s.n - uint32(i)}
}

// allSpace reports whether s is only white space.
func (b *Builder) allSpace(s str) bool {
	_, rest := b.splitSpace(s)
	return rest.n == 0
}

// dropByte returns s without the bytes c, copied to the side buffer when
// it holds any; repl replaces each (U+FFFD for NUL in foreign content).
func (b *Builder) dropByte(s str, c byte, repl string) str {
	bs := b.tree.bytes(s)
	if bytes.IndexByte(bs, c) < 0 {
		return s
	}
	off := len(b.tree.side)
	for _, x := range bs {
		if x == c {
			b.tree.side = append(b.tree.side, repl...)
		} else {
			b.tree.side = append(b.tree.side, x)
		}
	}
	return str{off: uint32(off) | sideBit, n: uint32(len(b.tree.side) - off)}
}

// onlySpace returns the white space of s (the rest dropped), for frameset
// modes.
func (b *Builder) onlySpace(s str) str {
	bs := b.tree.bytes(s)
	n := 0
	for _, x := range bs {
		if htmlscan.IsSpace(x) {
			n++
		}
	}
	if n == len(bs) {
		return s
	}
	off := len(b.tree.side)
	for _, x := range bs {
		if htmlscan.IsSpace(x) {
			b.tree.side = append(b.tree.side, x)
		}
	}
	return str{off: uint32(off) | sideBit, n: uint32(n)}
}
