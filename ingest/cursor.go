package ingest

import "sort"

// Cursor maps offsets of a Document's Text back to its Source as
// Document.Original does, faster when the offsets come in increasing
// order, as block boundaries do: it remembers where the last query
// ended and, when the next offset lies ahead of that within the same
// stretch between checkpoints or the next, goes on decoding from there
// instead of from the checkpoint. A Cursor is not safe for concurrent
// use; the zero Cursor of a Document is ready.
type Cursor struct {
	doc *Document
	at  checkpoint // a character boundary found by the last query
	ok  bool
}

// Cursor returns a Cursor over d.
func (d *Document) Cursor() Cursor { return Cursor{doc: d} }

// Original returns d.Original(off).
func (c *Cursor) Original(off int) int {
	m := c.doc.offsets
	if m == nil || m.identity || off <= 0 || off >= m.outLen || m.kind == kindTransform || m.kind == kindISO2022JP {
		return c.doc.Original(off)
	}
	i := sort.Search(len(m.cps), func(i int) bool { return m.cps[i].out > off }) - 1
	cp := m.cps[i]
	if cp.out == off {
		return cp.in
	}
	if c.ok && c.at.out > cp.out && c.at.out <= off {
		cp = c.at
	}
	in, out := m.step(cp, off)
	c.at, c.ok = checkpoint{out: out, in: in}, true
	return in
}
