package corpus

import "hash/maphash"

// dedup remembers the 64-bit hashes of the payloads seen, in a bounded
// set: two generations of at most window hashes each; when the current one
// is full it becomes the old one and the older is forgotten. A payload is
// therefore recognised as a duplicate if its first copy was among the last
// window to 2*window distinct payloads. Memory: about 40 bytes per hash.
//
// 64-bit hashes of a few million payloads collide with a probability of
// about n²/2⁶⁵ (one in a million for 6 million pages); a collision skips a
// page as a duplicate. Only the reader goroutine uses it.
type dedup struct {
	seed     maphash.Seed
	window   int
	cur, old map[uint64]struct{}
}

func newDedup(window int) *dedup {
	return &dedup{seed: maphash.MakeSeed(), window: window, cur: make(map[uint64]struct{}, min(window, 1<<16))}
}

// seen reports whether payload was seen before, and remembers it.
func (d *dedup) seen(payload []byte) bool {
	h := maphash.Bytes(d.seed, payload)
	if _, ok := d.cur[h]; ok {
		return true
	}
	_, dup := d.old[h]
	if len(d.cur) >= d.window {
		d.old, d.cur = d.cur, make(map[uint64]struct{}, min(d.window, 1<<16))
	}
	d.cur[h] = struct{}{}
	return dup
}
