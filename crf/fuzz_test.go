package crf

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"math/rand/v2"
	"testing"
)

// fuzzSeedModel returns a small valid model file using every section of the
// format.
func fuzzSeedModel(tb testing.TB) []byte {
	rng := rand.New(rand.NewPCG(15, 16))
	data := pageLike(rng, 5, 10, 5, 4, 3)
	m, err := trainLBFGS(context.Background(), data, TrainOptions{
		Labels: labelNames(3), Template: pageTemplate, MaxIterations: 3,
	})
	if err != nil {
		tb.Fatal(err)
	}
	b, err := m.MarshalBinary()
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// withCRC replaces the last four bytes of b by the checksum of the rest, so
// that the fuzzer reaches the parser behind the checksum.
func withCRC(b []byte) []byte {
	if len(b) < 4 {
		return b
	}
	out := bytes.Clone(b)
	binary.LittleEndian.PutUint32(out[len(out)-4:], crc32.ChecksumIEEE(out[:len(out)-4]))
	return out
}

// FuzzLoad checks that a corrupt model file gives an error, never a panic,
// and that whatever loads can decode.
func FuzzLoad(f *testing.F) {
	seed := fuzzSeedModel(f)
	f.Add(seed)
	f.Add(seed[:len(seed)/2])
	f.Add([]byte(magic))
	f.Add(withCRC([]byte("SLCRF\x01\x01\x01a\x02B\n\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00")))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, in := range [][]byte{data, withCRC(data)} {
			m, err := Unmarshal(in)
			if err != nil {
				continue
			}
			var seq [][]Attr
			for i, n := range m.fs.names {
				if i >= 8 {
					break
				}
				seq = append(seq, []Attr{{Name: n}, {Name: "unknown"}})
			}
			seq = append(seq, nil)
			lat := m.Score(seq)
			lat.Viterbi()
			lat.Marginals()
			out, err := m.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Unmarshal(out); err != nil {
				t.Fatalf("re-encoded model does not load: %v", err)
			}
		}
	})
}

func TestLoadRejectsCorruption(t *testing.T) {
	seed := fuzzSeedModel(t)
	for i := range seed {
		b := bytes.Clone(seed)
		b[i] ^= 0x55
		if _, err := Unmarshal(b); err == nil {
			t.Errorf("flipping byte %d went unnoticed", i)
		}
	}
	if _, err := Unmarshal([]byte("not a model")); err == nil {
		t.Error("no error for a non-model")
	}
}
