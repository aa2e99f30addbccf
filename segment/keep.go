package segment

import "unsafe"

// keeper copies the strings a page keeps from an htmltree tree (class,
// id, tag names without an atom, hrefs, image sources and alt texts,
// table summaries), whose memory the tree's Builder reuses for the next
// page. The copies go into chunks of one buffer, not one allocation
// each; a chunk lives as long as a string in it. On the html.Node path
// (copy false) strings are the tree's own heap strings and are kept as
// they are.
type keeper struct {
	copy bool
	buf  []byte
}

// keepChunk is the size of keeper's chunks.
const keepChunk = 4096

// keep returns s, copied when k copies.
func (k *keeper) keep(s string) string {
	if !k.copy || s == "" {
		return s
	}
	if len(k.buf)+len(s) > cap(k.buf) {
		k.buf = make([]byte, 0, max(keepChunk, len(s)))
	}
	k.buf = append(k.buf, s...)
	return unsafe.String(&k.buf[len(k.buf)-len(s)], len(s))
}
