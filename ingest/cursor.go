package ingest

// Cursor maps offsets of a Document's Text back to its Source as
// Document.Original does, faster when the offsets come in increasing
// order, as block boundaries do: it remembers the character boundary
// where the last query ended and, when the next offset lies at or after
// it and it lies after the checkpoint before that offset, goes on
// decoding from there instead of from the checkpoint. (Encodings decoded
// by a transformer, the multi-byte CJK ones, always go to Original.)
// Document.Cursor returns one; a Cursor is not safe for concurrent use.
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
	_, cp := m.before(off)
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
