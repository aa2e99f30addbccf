package label

import (
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"strings"
)

// The cue tables' part of a model file: each table (the class/id cues,
// then the text cues) as its number of entries, a little-endian uint32,
// then its entries in key order, each the key's length (a uvarint), the
// key, and the value's float32 bits (a little-endian uint32). Reading it makes one string of
// all of a table's keys and a map of the table's size, where decoding the
// same tables from JSON made a string per key and grew each map entry by
// entry.

// appendCueTables appends the part of tables to dst.
func appendCueTables(dst []byte, tables ...map[string]float32) []byte {
	for _, t := range tables {
		dst = binary.LittleEndian.AppendUint32(dst, uint32(len(t)))
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			dst = binary.AppendUvarint(dst, uint64(len(k)))
			dst = append(dst, k...)
			dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(t[k]))
		}
	}
	return dst
}

// errCueTables is the error of a damaged cue tables' part.
var errCueTables = errors.New("label: model file: its cue tables are damaged")

// readCueTables reads the part appendCueTables wrote for two tables; an
// empty table reads as nil.
func readCueTables(b []byte) (cues, text map[string]float32, err error) {
	var tables [2]map[string]float32
	for i := range tables {
		if len(b) < 4 {
			return nil, nil, errCueTables
		}
		n := int(binary.LittleEndian.Uint32(b))
		b = b[4:]
		if n > len(b)/5 { // an entry takes 5 bytes at least
			return nil, nil, errCueTables
		}
		tables[i], b, err = readCueTable(b, n)
		if err != nil {
			return nil, nil, err
		}
	}
	if len(b) != 0 {
		return nil, nil, errCueTables
	}
	return tables[0], tables[1], nil
}

// readCueTable reads n entries from b and returns what follows them.
func readCueTable(b []byte, n int) (map[string]float32, []byte, error) {
	if n == 0 {
		return nil, b, nil
	}
	// First pass: the keys' total length, so that they share one string.
	size, rest := 0, b
	for range n {
		k, w := binary.Uvarint(rest)
		if w <= 0 || k > uint64(len(rest)-w) || uint64(len(rest)-w)-k < 4 {
			return nil, nil, errCueTables
		}
		size += int(k)
		rest = rest[w+int(k)+4:]
	}
	var all strings.Builder
	all.Grow(size)
	for at := b; len(at) > len(rest); {
		k, w := binary.Uvarint(at)
		all.Write(at[w : w+int(k)])
		at = at[w+int(k)+4:]
	}
	keys := all.String()
	t := make(map[string]float32, n)
	off := 0
	for range n {
		k, w := binary.Uvarint(b)
		key := keys[off : off+int(k)]
		v := math.Float32frombits(binary.LittleEndian.Uint32(b[w+int(k):]))
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return nil, nil, errCueTables
		}
		t[key] = v
		off += int(k)
		b = b[w+int(k)+4:]
	}
	return t, rest, nil
}
