package label

import (
	"encoding/binary"
	"errors"
	"math"
	"slices"

	"github.com/sluice-project/sluice/features"
)

// The cue tables' part of a model file: each table (the class/id cues,
// then the text cues) as its number of entries, a little-endian uint32,
// then its entries in key order, each the key's length (a uvarint), the
// key, and the value's float32 bits (a little-endian uint32). A model
// file's labeller reads the tables from it in place (cueSources); maps are
// made only when asked for (Labeller.Features).

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

// cueSources checks the part appendCueTables wrote for two tables and
// returns a source for each (nil for an empty table) that reads b in
// place: the tables go from the file's bytes into the extractor's hash
// tables without a map between (27,655 keys in the embedded model, whose
// map was about 15 M instructions of starting up, and scanned by every
// collection after).
func cueSources(b []byte) (cues, text *features.CueSource, err error) {
	var srcs [2]*features.CueSource
	for i := range srcs {
		if len(b) < 4 {
			return nil, nil, errCueTables
		}
		n := int(binary.LittleEndian.Uint32(b))
		b = b[4:]
		if n > len(b)/5 { // an entry takes 5 bytes at least
			return nil, nil, errCueTables
		}
		rest, err := checkCueTable(b, n)
		if err != nil {
			return nil, nil, err
		}
		if n > 0 {
			srcs[i] = &features.CueSource{Len: n, Entries: cueEntries(b[:len(b)-len(rest)])}
		}
		b = rest
	}
	if len(b) != 0 {
		return nil, nil, errCueTables
	}
	return srcs[0], srcs[1], nil
}

// checkCueTable checks n entries of b (well formed, values finite) and
// returns what follows them.
func checkCueTable(b []byte, n int) ([]byte, error) {
	for range n {
		k, w := binary.Uvarint(b)
		if w <= 0 || k > uint64(len(b)-w) || uint64(len(b)-w)-k < 4 {
			return nil, errCueTables
		}
		v := math.Float32frombits(binary.LittleEndian.Uint32(b[w+int(k):]))
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return nil, errCueTables
		}
		b = b[w+int(k)+4:]
	}
	return b, nil
}

// cueEntries yields the entries of b, checked by checkCueTable.
func cueEntries(b []byte) features.CueEntries {
	return func(yield func([]byte, float32) bool) {
		for at := b; len(at) > 0; {
			k, w := binary.Uvarint(at)
			key := at[w : w+int(k)]
			v := math.Float32frombits(binary.LittleEndian.Uint32(at[w+int(k):]))
			if !yield(key, v) {
				return
			}
			at = at[w+int(k)+4:]
		}
	}
}

// sourceMap returns the table of src as a map; nil for none.
func sourceMap(src *features.CueSource) map[string]float32 {
	if src == nil {
		return nil
	}
	m := make(map[string]float32, src.Len)
	for k, v := range src.Entries {
		m[string(k)] = v
	}
	return m
}
