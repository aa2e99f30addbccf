package gbdt

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math"
	"strings"
	"testing"
)

// withCRC returns a copy of b whose last four bytes are the checksum of
// the rest, so that a corrupted body reaches the checks behind the
// checksum.
func withCRC(b []byte) []byte {
	out := bytes.Clone(b)
	if len(out) >= 4 {
		binary.LittleEndian.PutUint32(out[len(out)-4:], crc32.Checksum(out[:len(out)-4], castagnoli))
	}
	return out
}

// tinyModel is a hand-made model of 3 features and two trees, a split with
// two leaves and a single leaf. Its file has the header in bytes 0-27, the
// first tree's node count at 28, its split at 32 (feature 33, threshold
// 37, children 41 and 45), leaves at 49 and 58, the second tree at 67 with
// its leaf at 71, and the checksum at 80.
func tinyModel() *Model {
	return modelOf(3, 0.25, []node{
		{feature: 1, threshold: 0.5, left: 1, right: 2, defLeft: true},
		{feature: -1, value: -0.5},
		{feature: -1, value: 0.75},
	}, []node{
		{feature: -1, value: 0.125},
	})
}

// modelOf returns a model of the trees given, whose children are indices
// in their tree.
func modelOf(features int, base float64, trees ...[]node) *Model {
	m := &Model{features: features, base: base}
	for _, t := range trees {
		m.addTree(t, depthOf(t))
	}
	return m
}

func TestTinyModel(t *testing.T) {
	m := tinyModel()
	nan := float32(math.NaN())
	for _, tc := range []struct {
		row  []float32
		want float64
	}{
		{[]float32{0, 0.5, 0}, 0.25 - 0.5 + 0.125},
		{[]float32{0, 0.6, 0}, 0.25 + 0.75 + 0.125},
		{[]float32{0, nan, 0}, 0.25 - 0.5 + 0.125},
		{[]float32{0}, 0.25 - 0.5 + 0.125},
	} {
		if got := m.Margin(tc.row); got != tc.want {
			t.Errorf("Margin(%v) = %v, want %v", tc.row, got, tc.want)
		}
	}
	b := mustMarshal(t, m)
	if len(b) != 84 {
		t.Fatalf("file of %d bytes, want 84", len(b))
	}
	if got, err := Unmarshal(b); err != nil || got.Margin([]float32{0, 0.6}) != 0.25+0.75+0.125 {
		t.Errorf("Unmarshal = %v, %v", got, err)
	}
}

func TestRoundTrip(t *testing.T) {
	d := noisyData(3000, 7, 20)
	m := mustTrain(t, d, nil, Options{Trees: 30, Depth: 6})
	b := mustMarshal(t, m)
	got, err := Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	if got.NumFeatures() != m.NumFeatures() || got.NumTrees() != m.NumTrees() {
		t.Errorf("decoded %d features, %d trees; want %d, %d", got.NumFeatures(), got.NumTrees(), m.NumFeatures(), m.NumTrees())
	}
	for r := range d.y {
		if a, b := got.Margin(d.row(r)), m.Margin(d.row(r)); a != b {
			t.Fatalf("row %d: decoded model's margin %v, trained model's %v", r, a, b)
		}
	}
	if !bytes.Equal(mustMarshal(t, got), b) {
		t.Errorf("re-encoding the decoded model gives other bytes")
	}
}

func TestUnmarshalTruncatedOrFlipped(t *testing.T) {
	b := mustMarshal(t, mustTrain(t, noisyData(500, 4, 21), nil, Options{Trees: 4, Depth: 3}))
	for n := range len(b) {
		if m, err := Unmarshal(b[:n]); err == nil {
			t.Fatalf("Unmarshal of the first %d of %d bytes = %v, want an error", n, len(b), m)
		}
	}
	if _, err := Unmarshal(append(bytes.Clone(b), 0)); err == nil {
		t.Errorf("Unmarshal with a byte appended succeeded")
	}
	for i := range len(b) * 8 {
		c := bytes.Clone(b)
		c[i/8] ^= 1 << (i % 8)
		if m, err := Unmarshal(c); err == nil {
			t.Fatalf("Unmarshal with bit %d flipped = %v, want an error", i, m)
		}
	}
}

func TestUnmarshalInvalid(t *testing.T) {
	good := mustMarshal(t, tinyModel())
	u32 := func(off int, v uint32) func([]byte) {
		return func(b []byte) { binary.LittleEndian.PutUint32(b[off:], v) }
	}
	f64 := func(off int, v float64) func([]byte) {
		return func(b []byte) { binary.LittleEndian.PutUint64(b[off:], math.Float64bits(v)) }
	}
	tests := []struct {
		name   string
		spoil  func([]byte)
		keep   bool // the checksum is left as it was
		errHas string
	}{
		{"magic", func(b []byte) { b[0] = 'X' }, false, "not a model file"},
		{"version", u32(8, 2), false, "version 2"},
		{"checksum", func(b []byte) { b[60] ^= 4 }, true, "checksum"},
		{"no features", u32(12, 0), false, "0 features"},
		{"too many trees", u32(16, 1000), false, "1000 trees"},
		{"too few trees", u32(16, 1), false, "after the last tree"},
		{"base NaN", f64(20, math.NaN()), false, "base score"},
		{"base Inf", f64(20, math.Inf(-1)), false, "base score"},
		{"no nodes", u32(28, 0), false, "no nodes"},
		{"too many nodes", u32(28, 100), false, "room for"},
		{"node kind", func(b []byte) { b[32] = 7 }, false, "kind 7"},
		{"feature out of range", u32(33, 3), false, "feature 3"},
		{"threshold NaN", u32(37, math.Float32bits(float32(math.NaN()))), false, "NaN"},
		{"child points back", u32(41, 0), false, "children"},
		{"child beyond the tree", u32(45, 3), false, "children"},
		{"same child twice", u32(45, 1), false, "both children"},
		{"leaf NaN", f64(50, math.NaN()), false, "leaf value"},
		{"leaf Inf", f64(59, math.Inf(1)), false, "leaf value"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := bytes.Clone(good)
			tc.spoil(b)
			if !tc.keep {
				b = withCRC(b)
			}
			m, err := Unmarshal(b)
			if err == nil {
				t.Fatalf("Unmarshal = %v, want an error", m)
			}
			if !strings.Contains(err.Error(), tc.errHas) {
				t.Errorf("error %q does not mention %q", err, tc.errHas)
			}
			t.Log(err)
		})
	}

	// A proper orphan: a tree of a leaf and an extra leaf nobody points to.
	m := modelOf(1, 0, []node{{feature: -1}, {feature: -1}})
	if _, err := Unmarshal(mustMarshal(t, m)); err == nil || !strings.Contains(err.Error(), "nobody's child") {
		t.Errorf("Unmarshal of a tree with an unreachable node: %v", err)
	}
	// A node with two parents.
	m = modelOf(1, 0, []node{{feature: 0, left: 1, right: 2}, {feature: 0, left: 2, right: 3}, {feature: -1}, {feature: -1}})
	if _, err := Unmarshal(mustMarshal(t, m)); err == nil || !strings.Contains(err.Error(), "already has a parent") {
		t.Errorf("Unmarshal of a node with two parents: %v", err)
	}
}
