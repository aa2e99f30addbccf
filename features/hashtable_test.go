package features

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/cuetable"
)

// TestHashTableAgreesWithMap checks the table against a map of the same
// hashes: every key found with its value, absent keys not found, at sizes
// around the sizes where the table grows (five eighths of a power of two).
func TestHashTableAgreesWithMap(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7, 8, 9, 10, 11, 255, 256, 257, 5000, 20480, 20481} {
		table := make(map[string]float32, n)
		for i := range n {
			table[fmt.Sprintf("tok%d", i)] = float32(i) - float32(n)/2
		}
		h := mustHashTable(t, table)
		if 8*n > 5*len(h.keys) || 16*n <= 5*len(h.keys) && n > 1 {
			t.Fatalf("n=%d: %d slots, more than five eighths full or not the fewest that are not", n, len(h.keys))
		}
		for k, v := range table {
			got, ok := h.get(cuetable.TokenHash([]byte(k)))
			if !ok || got != v {
				t.Fatalf("n=%d: %q = %v, %v; want %v", n, k, got, ok, v)
			}
		}
		for i := range 2 * n {
			k := fmt.Sprintf("absent%d", i)
			if got, ok := h.get(cuetable.TokenHash([]byte(k))); ok {
				t.Fatalf("n=%d: absent %q found with %v", n, k, got)
			}
		}
	}
}

// TestHashTableEdges covers what a map did without thought: the nil and
// empty tables, the key 0 (the empty slot's mark), a key put twice (the
// larger value stays) and probes that wrap around the end of the array.
func TestHashTableEdges(t *testing.T) {
	var nilTable *hashTable
	if _, ok := nilTable.get(cuetable.TokenHash([]byte("a"))); ok {
		t.Error("a nil table has a key")
	}
	if mustHashTable(t, nil) != nil || mustHashTable(t, map[string]float32{}) != nil {
		t.Error("an empty table is not nil")
	}
	h := mustHashTable(t, map[string]float32{"x": 1})
	if _, ok := h.get(0); ok {
		t.Error("key 0 found before it was put")
	}
	h.put(0, -2)
	h.put(0, -3)
	if v, ok := h.get(0); !ok || v != -2 {
		t.Errorf("key 0 = %v, %v; want -2, true", v, ok)
	}
	k := cuetable.TokenHash([]byte("x"))
	h.put(k, 0.5)
	h.put(k, 4)
	if v, ok := h.get(k); !ok || v != 4 {
		t.Errorf("a key put with 1, 0.5 and 4 = %v, %v; want 4", v, ok)
	}
	// Keys that all start at the last slot wrap to the first ones.
	w := &hashTable{keys: make([]uint64, 8), vals: make([]float32, 8), shift: 61}
	var wrapped []uint64
	for c := uint64(1); len(wrapped) < 4; c++ {
		if w.slot(c) == 7 {
			wrapped = append(wrapped, c)
		}
	}
	for i, c := range wrapped {
		w.put(c, float32(i))
	}
	for i, c := range wrapped {
		if v, ok := w.get(c); !ok || v != float32(i) {
			t.Errorf("wrapped key %d = %v, %v; want %d", c, v, ok, i)
		}
	}
}

// mustHashTable builds a text cue table or fails the test.
func mustHashTable(t *testing.T, table map[string]float32) *hashTable {
	t.Helper()
	h, err := newHashTable("text cue", table, nil)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestHashTableRefusesNonFinite: a value that is not a number names its
// table and token.
func TestHashTableRefusesNonFinite(t *testing.T) {
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		_, err := newHashTable("learned cue", map[string]float32{"ok": 1, "bad": float32(v)}, nil)
		if err == nil || !strings.Contains(err.Error(), `learned cue "bad"`) {
			t.Errorf("value %v: error %v, want one naming learned cue \"bad\"", v, err)
		}
	}
}
