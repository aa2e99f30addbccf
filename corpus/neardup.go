package corpus

import (
	"strings"
	"unsafe"

	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/textunit"
)

// Near-duplicates: syndicated news, mirrors and printer versions give
// pages whose kept text differs by a few words. Each page's kept text is
// summarised by a MinHash signature over shingles of 5 text units (words,
// or characters of Han, kana and Thai: package textunit), computed by the
// worker that cleaned it; the writer, which sees the pages in input order,
// looks the signature up in LSH bands and skips the page when an earlier
// page's signature agrees on at least Options.NearDuplicate of its
// positions (an estimate of the Jaccard similarity of their shingle sets).
// The first page of a group is kept, so the result does not depend on
// the number of workers.

const (
	sigSize    = 128 // MinHash positions
	sigBands   = 32  // LSH bands of sigRows positions each
	sigRows    = sigSize / sigBands
	shingleLen = 5
	// minShingles is the least number of shingles a page needs to be
	// compared: shorter texts say too little.
	minShingles = 8
)

// signature is a page's MinHash signature; ok is false for a page too
// short to compare.
type signature struct {
	v  [sigSize]uint32
	ok bool
}

// sigSeeds are the per-position seeds of the hash family.
var sigSeeds = func() (s [sigSize]uint64) {
	x := uint64(0x9E3779B97F4A7C15)
	for i := range s {
		x = splitmix(x)
		s[i] = x
	}
	return s
}()

func splitmix(x uint64) uint64 {
	x += 0x9E3779B97F4A7C15
	x = (x ^ x>>30) * 0xBF58476D1CE4E5B9
	x = (x ^ x>>27) * 0x94D049BB133111EB
	return x ^ x>>31
}

// signatureOf returns the signature of p's kept text.
func signatureOf(p *page.Page) signature {
	var s signature
	for i := range s.v {
		s.v[i] = ^uint32(0)
	}
	var ring [shingleLen]uint64
	n, shingles := 0, 0
	for i := range p.Blocks {
		b := &p.Blocks[i]
		if !b.Label.Kept() {
			continue
		}
		textunit.Units(b.Text, func(u textunit.Unit) bool {
			ring[n%shingleLen] = fnv64(strings.ToLower(u.Text))
			n++
			if n < shingleLen {
				return true
			}
			h := uint64(14695981039346656037)
			for k := range shingleLen {
				h = splitmix(h ^ ring[(n+k)%shingleLen])
			}
			for j, seed := range sigSeeds {
				if v := uint32(splitmix(h^seed) >> 32); v < s.v[j] {
					s.v[j] = v
				}
			}
			shingles++
			return true
		})
	}
	s.ok = shingles >= minShingles
	return s
}

func fnv64(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// nearDup remembers the signatures of the last window pages written, in
// a ring, and for each LSH band the pages holding each band value: two
// generations of maps of half a window each, as dedup does, so that
// memory stays bounded (bytes). Only the writer uses it.
type nearDup struct {
	threshold float64
	ring      []signature
	next      uint64 // pages remembered so far; page k is at ring[k%len]
	cur, old  []map[uint64]uint64
}

func newNearDup(threshold float64, window int) *nearDup {
	d := &nearDup{threshold: threshold, ring: make([]signature, window)}
	d.cur, d.old = make([]map[uint64]uint64, sigBands), make([]map[uint64]uint64, sigBands)
	for b := range d.cur {
		d.cur[b] = map[uint64]uint64{}
	}
	return d
}

// seen reports whether a page much like s was written before (within the
// window), and remembers s otherwise.
func (d *nearDup) seen(s *signature) bool {
	if !s.ok {
		return false
	}
	var keys [sigBands]uint64
	for b := range keys {
		h := uint64(b) + 1
		for _, v := range s.v[b*sigRows : (b+1)*sigRows] {
			h = splitmix(h ^ uint64(v))
		}
		keys[b] = h
		for _, m := range [2]map[uint64]uint64{d.cur[b], d.old[b]} {
			if k, ok := m[h]; ok && k+uint64(len(d.ring)) >= d.next && d.similar(s, &d.ring[k%uint64(len(d.ring))]) {
				return true
			}
		}
	}
	k := d.next
	d.ring[k%uint64(len(d.ring))] = *s
	d.next++
	for b, h := range keys {
		if len(d.cur[b]) >= max(len(d.ring)/2, 1) {
			d.old[b], d.cur[b] = d.cur[b], make(map[uint64]uint64, len(d.ring)/4)
		}
		d.cur[b][h] = k
	}
	return false
}

// bytes is about the memory d holds when full: the ring, and two
// generations of band maps of up to half a window of entries each (some
// 40 bytes an entry).
func (d *nearDup) bytes() int64 { return nearDupBytes(len(d.ring)) }

// nearDupBytes is the memory of a near-duplicate window of n pages (see
// nearDup.bytes).
func nearDupBytes(n int) int64 {
	return int64(n)*int64(unsafe.Sizeof(signature{})) + sigBands*int64(n)*40
}

// similar reports whether two signatures agree on at least the threshold
// share of their positions.
func (d *nearDup) similar(a, b *signature) bool {
	same := 0
	for i := range a.v {
		if a.v[i] == b.v[i] {
			same++
		}
	}
	return float64(same) >= d.threshold*sigSize
}
