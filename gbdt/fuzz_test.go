package gbdt

import (
	"bytes"
	"math"
	"testing"
)

// FuzzUnmarshal checks that corrupt model files give an error, never a
// panic, and that whatever decodes predicts (Margins as Margin does) and
// encodes to the same bytes.
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
			marginsAgree(t, m)
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

// marginsAgree checks that Margins, which walks its splits without bounds
// checks, gives Margin's result on rows with missing and infinite values.
func marginsAgree(t *testing.T, m *Model) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	vals := []float32{nan, inf, -inf, 0, 0.25, -3, 1e9}
	width := m.NumFeatures() + 1
	if width > 64 {
		return
	}
	rows := 40
	x := make([]float32, rows*width)
	for i := range x {
		x[i] = vals[(i*7+i/width)%len(vals)]
	}
	out := make([]float64, rows)
	m.Margins(x, width, out)
	for r := range rows {
		if want := m.Margin(x[r*width : (r+1)*width]); out[r] != want && !(math.IsNaN(out[r]) && math.IsNaN(want)) {
			t.Fatalf("row %d: Margins %v, Margin %v", r, out[r], want)
		}
	}
}
