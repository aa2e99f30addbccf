package segment

import "unsafe"

// keeper copies the strings a page keeps from an htmltree tree (class,
// id, tag names without an atom, hrefs, image sources and alt texts,
// table summaries), whose memory the tree's Builder reuses for the next
// page. The copies go into chunks of one buffer, not one allocation
// each; a chunk lives as long as a string in it. On the html.Node path
// (copy false) strings are the tree's own heap strings and are kept as
// they are. Block texts are copied into chunks of a keeper of their own
// on both paths (a string each was the most frequent allocation of a
// page).
type keeper struct {
	copy bool
	buf  []byte
}

// keepChunk is the size of keeper's chunks.
const keepChunk = 4096

// keep returns s, copied when k copies.
func (k *keeper) keep(s string) string {
	if !k.copy {
		return s
	}
	return keepCopy(k, s)
}

// keepCopy returns a copy of s in k's chunks.
func keepCopy[T string | []byte](k *keeper, s T) string {
	if len(s) == 0 {
		return ""
	}
	if len(k.buf)+len(s) > cap(k.buf) {
		k.buf = make([]byte, 0, max(keepChunk, len(s)))
	}
	k.buf = append(k.buf, s...)
	return unsafe.String(&k.buf[len(k.buf)-len(s)], len(s))
}
