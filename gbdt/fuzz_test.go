package gbdt

import (
	"bytes"
	"testing"
)

// FuzzUnmarshal checks that corrupt model files give an error, never a
// panic, and that whatever decodes predicts and encodes to the same bytes.
func FuzzUnmarshal(f *testing.F) {
	good, err := tinyModel().MarshalBinary()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte{})
	f.Add([]byte(magic))
	trained, err := Train(f.Context(), xorData(200, 3, 1).x, 3, xorData(200, 3, 1).y, nil, Options{Trees: 3, Depth: 3})
	if err != nil {
		f.Fatal(err)
	}
	if b, err := trained.MarshalBinary(); err == nil {
		f.Add(b)
	}
	row := []float32{0.1, -0.2, 0.3}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, in := range [][]byte{data, withCRC(data)} {
			m, err := Unmarshal(in)
			if err != nil {
				continue
			}
			m.Margin(row)
			m.Margin(nil)
			out, err := m.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out, in) {
				t.Fatalf("decoded model encodes to other bytes:\n in %x\nout %x", in, out)
			}
		}
	})
}
