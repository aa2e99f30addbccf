package fingerprint

import (
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/sluice-project/sluice/internal/mix"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/textunit"
)

const (
	sigSize    = 128 // MinHash positions
	sigBands   = 32  // LSH bands of sigRows positions each
	sigRows    = sigSize / sigBands
	shingleLen = 5
	// minShingles is the least number of shingles a page needs to be
	// compared: shorter texts say too little.
	minShingles = 8
)

// SignatureBands is the number of LSH bands of a Signature, and
// SignatureSize its number of positions (MinHash values).
const (
	SignatureBands = sigBands
	SignatureSize  = sigSize
)

// Signature is the MinHash signature of a page's kept text, for the
// near-duplicate check (corpus.Options.NearDuplicate); see SignatureOf. Its
// binary form (MarshalBinary) is 4 bytes a position and one for whether
// it is comparable.
type Signature struct {
	v  [sigSize]uint32
	ok bool // false for a page too short to compare
}

// Comparable reports whether the page was long enough to be compared: a
// page that is not is never a near duplicate.
func (s *Signature) Comparable() bool { return s.ok }

// Bands returns the keys of the signature's LSH bands: two pages are
// compared when they share the key of one band (of the same index).
func (s *Signature) Bands() [SignatureBands]uint64 {
	var keys [sigBands]uint64
	for b := range keys {
		h := uint64(b) + 1
		for _, v := range s.v[b*sigRows : (b+1)*sigRows] {
			h = splitmix(h ^ uint64(v))
		}
		keys[b] = h
	}
	return keys
}

// Similar reports whether s and o agree on at least the threshold share
// of their positions: the pages are near duplicates at that threshold.
func (s *Signature) Similar(o *Signature, threshold float64) bool {
	same := 0
	for i := range s.v {
		if s.v[i] == o.v[i] {
			same++
		}
	}
	return float64(same) >= threshold*sigSize
}

// MarshalBinary encodes the signature.
func (s *Signature) MarshalBinary() ([]byte, error) {
	b := make([]byte, 0, 4*sigSize+1)
	for _, v := range s.v {
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	if s.ok {
		return append(b, 1), nil
	}
	return append(b, 0), nil
}

// UnmarshalBinary decodes a signature MarshalBinary encoded.
func (s *Signature) UnmarshalBinary(b []byte) error {
	if len(b) != 4*sigSize+1 {
		return fmt.Errorf("fingerprint: a signature of %d bytes, want %d", len(b), 4*sigSize+1)
	}
	for i := range s.v {
		s.v[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	s.ok = b[4*sigSize] == 1
	return nil
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

func splitmix(x uint64) uint64 { return mix.Mix64(x + 0x9E3779B97F4A7C15) }

// SignatureOf returns the signature of p's kept text: MinHash over the
// shingles of 5 text units (package textunit) in lower case.
func SignatureOf(p *page.Page) Signature {
	var s Signature
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
