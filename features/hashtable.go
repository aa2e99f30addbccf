package features

import (
	"fmt"
	"math"

	"github.com/sluice-project/sluice/cuetable"
)

// hashTable is a read-only table from token hashes (cuetable.TokenHash)
// to values, the text cue table as labelling reads it: open addressing
// with linear probing over a power-of-two array of keys at most five
// eighths full, the values in an array of their own. A lookup reads one
// cache line of keys in the common case and the value only on a hit,
// where a Go map reads a group's control word and then its slot (the map
// lookups of the text cues were 2% of Clean's time, mostly waiting on
// memory). Five eighths rather than a half: the embedded model's 20,000
// text cues take 32,768 slots, not 65,536, 384 KB less to fault in and
// fill at every start, with Clean as fast (BenchmarkCleanArena).
type hashTable struct {
	keys  []uint64 // 0 for an empty slot
	vals  []float32
	shift uint8 // 64 − log2(len(keys))
	// zero and hasZero hold the value of the key 0, which marks an empty
	// slot in keys.
	zero    float32
	hasZero bool
}

// newHashTable returns the table of a cue table given as a map, or, when
// the map is nil, by its source, keyed by its keys' cuetable.TokenHash; or
// an error naming the first key of a value that is not finite (kind says which
// table). Two keys with one hash (for a table of 100,000 tokens, about
// one chance in 4·10^9) keep the larger value.
func newHashTable(kind string, table map[string]float32, src *CueSource) (*hashTable, error) {
	n, entries := len(table), CueEntries(func(yield func([]byte, float32) bool) {
		for k, v := range table {
			if !yield([]byte(k), v) {
				return
			}
		}
	})
	if table == nil && src != nil {
		n, entries = src.Len, src.Entries
	}
	if n == 0 {
		return nil, nil
	}
	bits := uint8(1)
	for 5<<bits < 8*n {
		bits++
	}
	t := &hashTable{keys: make([]uint64, 1<<bits), vals: make([]float32, 1<<bits), shift: 64 - bits}
	for k, v := range entries {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return nil, fmt.Errorf("features: %s %q has value %v", kind, k, v)
		}
		t.put(cuetable.TokenHash(k), v)
	}
	return t, nil
}

// slot returns the first slot to probe for key h.
func (t *hashTable) slot(h uint64) uint64 { return (h * 0x9E3779B97F4A7C15) >> t.shift }

// put stores v for h, keeping the larger value when h is there already.
func (t *hashTable) put(h uint64, v float32) {
	if h == 0 {
		if !t.hasZero || v > t.zero {
			t.zero, t.hasZero = v, true
		}
		return
	}
	mask := uint64(len(t.keys) - 1)
	for i := t.slot(h); ; i = (i + 1) & mask {
		switch t.keys[i] {
		case 0:
			t.keys[i], t.vals[i] = h, v
			return
		case h:
			t.vals[i] = max(t.vals[i], v)
			return
		}
	}
}

// get returns the value of h and whether the table has it; a nil table
// has none.
func (t *hashTable) get(h uint64) (float32, bool) {
	if t == nil {
		return 0, false
	}
	if h == 0 {
		return t.zero, t.hasZero
	}
	mask := uint64(len(t.keys) - 1)
	for i := t.slot(h); ; i = (i + 1) & mask {
		switch t.keys[i] {
		case h:
			return t.vals[i], true
		case 0:
			return 0, false
		}
	}
}
