package inputs

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"testing"
)

func gz(t *testing.T, parts ...[]byte) []byte {
	t.Helper()
	var zb bytes.Buffer
	for _, p := range parts { // one member each
		zw := gzip.NewWriter(&zb)
		if _, err := zw.Write(p); err != nil || zw.Close() != nil {
			t.Fatal("gzip")
		}
	}
	return zb.Bytes()
}

// Gunzip reads every member, whatever size the trailer claims, and a cut
// stream gives what it held.
func TestGunzip(t *testing.T) {
	a := bytes.Repeat([]byte("<p>the mill wheel turns</p>\n"), 300)
	b := []byte("<p>and the second member</p>")
	both := append(append([]byte{}, a...), b...)
	if got, err := Gunzip(gz(t, a, b), 1<<20); err != nil || !bytes.Equal(got, both) {
		t.Errorf("two members: %d bytes, %v", len(got), err)
	}
	for _, size := range []uint32{0, 1, 100, 1 << 31, 1<<32 - 1} { // forged trailers
		z := gz(t, a)
		binary.LittleEndian.PutUint32(z[len(z)-4:], size)
		got, err := Gunzip(z, 1<<20)
		if !bytes.Equal(got, a) || err == nil {
			t.Errorf("trailer %d: %d bytes, %v (want the data and a size error)", size, len(got), err)
		}
		if n := gunzippedSize(z, 1<<20); n > 1032*len(z)+512 || n > 1<<20+1 {
			t.Errorf("trailer %d: room for %d bytes from %d", size, n, len(z))
		}
	}
	z := gz(t, a)
	if got, err := Gunzip(z[:len(z)/2], 1<<20); err == nil || len(got) == 0 || !bytes.HasPrefix(a, got) {
		t.Errorf("cut: %d bytes, %v", len(got), err)
	}
	if _, err := Gunzip(z, int64(len(a)-1)); !errors.Is(err, ErrTooLarge) {
		t.Errorf("over the cap: %v", err)
	}
	if got, err := Gunzip(z, int64(len(a))); err != nil || !bytes.Equal(got, a) {
		t.Errorf("at the cap: %d bytes, %v", len(got), err)
	}
}
