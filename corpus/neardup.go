package corpus

import (
	"unsafe"

	"github.com/sluice-project/sluice/fingerprint"
)

// Near-duplicates: syndicated news, mirrors and printer versions give
// pages whose kept text differs by a few words. Each page's kept text is
// summarised by a MinHash signature over shingles of 5 text units (words,
// or characters of Han, kana and Thai: package textunit), computed by the
// worker that cleaned it; the writer, which sees the pages in input order,
// looks the signature up in LSH bands and skips the page when the
// signature of an earlier page written, with which it shares a band,
// agrees on at least Options.NearDuplicate of its positions (an estimate
// of the Jaccard similarity of their shingle sets). The first page of a
// group, in the order the pages are written, is kept, so the result does
// not depend on the number of workers; a page skipped as a near duplicate
// is not compared with later ones. sluice-beam (beam/pipeline) decides the
// same from the same signatures and bands, with a shuffle on the bands.

// nearDup remembers the signatures of the last window pages written, in
// a ring, and for each LSH band the pages holding each band value: two
// generations of maps of half a window of band values each, as dedup
// does, so that memory stays bounded (bytes). Only the writer uses it.
type nearDup struct {
	threshold float64
	ring      []fingerprint.Signature
	next      uint64 // pages remembered so far; page k is at ring[k%len]
	cur, old  []map[uint64][]uint64
}

func newNearDup(threshold float64, window int) *nearDup {
	d := &nearDup{threshold: threshold, ring: make([]fingerprint.Signature, window)}
	d.cur, d.old = make([]map[uint64][]uint64, fingerprint.SignatureBands), make([]map[uint64][]uint64, fingerprint.SignatureBands)
	for b := range d.cur {
		d.cur[b] = map[uint64][]uint64{}
	}
	return d
}

// seen reports whether a page much like s was written before (within the
// window) with which s shares a band, and remembers s otherwise.
func (d *nearDup) seen(s *fingerprint.Signature) bool {
	if !s.Comparable() {
		return false
	}
	keys := s.Bands()
	for b, h := range keys {
		for _, m := range [2]map[uint64][]uint64{d.cur[b], d.old[b]} {
			for _, k := range m[h] {
				if k+uint64(len(d.ring)) >= d.next && s.Similar(&d.ring[k%uint64(len(d.ring))], d.threshold) {
					return true
				}
			}
		}
	}
	k := d.next
	d.ring[k%uint64(len(d.ring))] = *s
	d.next++
	for b, h := range keys {
		if len(d.cur[b]) >= max(len(d.ring)/2, 1) {
			d.old[b], d.cur[b] = d.cur[b], make(map[uint64][]uint64, len(d.ring)/4)
		}
		d.cur[b][h] = append(d.cur[b][h], k)
	}
	return false
}

// bytes is about the memory d holds when full: the ring, and two
// generations of band maps of up to half a window of entries each (some
// 64 bytes an entry, its list of pages included).
func (d *nearDup) bytes() int64 { return nearDupBytes(len(d.ring)) }

// nearDupBytes is the memory of a near-duplicate window of n pages (see
// nearDup.bytes).
func nearDupBytes(n int) int64 {
	return int64(n)*int64(unsafe.Sizeof(fingerprint.Signature{})) + fingerprint.SignatureBands*int64(n)*64
}
