package warc

import (
	"bytes"
	"os"
	"testing"
)

// checkInvariants reads data and checks what must hold for any input: every
// call returns, items are bounded by the input size, offsets move forward
// and stay inside the input, Content stays under the cap.
func checkInvariants(t *testing.T, data []byte, seekable bool) {
	const max = 1 << 16
	var in = bytes.NewReader(data)
	var rd *Reader
	if seekable {
		rd = NewReader(in, Options{MaxRecordBytes: max})
	} else {
		rd = NewReader(onlyReader{in}, Options{MaxRecordBytes: max})
	}
	items := 0
	last := int64(-1)
	for rec, err := range rd.Records() {
		items++
		if items > len(data)+2 {
			t.Fatalf("%d items from %d bytes", items, len(data))
		}
		if err != nil {
			if re, ok := err.(*RecordError); ok {
				if re.Offset < 0 || re.Offset >= int64(len(data)) {
					t.Fatalf("error offset %d outside the input: %v", re.Offset, err)
				}
				if re.Kind <= DamageOther || int(re.Kind) >= len(damageNames) {
					t.Fatalf("error of kind %v: %v", re.Kind, err)
				}
			}
			continue
		}
		if len(rec.Content) > max {
			t.Fatalf("content of %d bytes over the cap", len(rec.Content))
		}
		at := rec.Offset
		if rec.Shared {
			at = rec.MemberOffset
		} else if rec.Offset < 0 || rec.Length <= 0 || rec.Offset+rec.Length > int64(len(data)) {
			t.Fatalf("record %d+%d outside the input of %d bytes", rec.Offset, rec.Length, len(data))
		}
		if at < last || at >= int64(len(data)) {
			t.Fatalf("record at %d after %d", at, last)
		}
		last = at
	}
}

func FuzzReader(f *testing.F) {
	recs := sampleRecords(4)
	plain := buildArchive(f, recs, false)
	gzipped := buildArchive(f, sampleRecords(4), true)
	f.Add(plain)
	f.Add(gzipped)
	f.Add(gzipWhole(plain))
	f.Add(plain[:len(plain)/2])
	f.Add(gzipped[:len(gzipped)*2/3])
	f.Add(append([]byte("junk\n"), plain...))
	f.Add([]byte("WARC/1.0\r\nContent-Length: 99999999999\r\n\r\nabc"))
	f.Add([]byte("WARC/1.1\nWARC-Type: resource\nWARC-Record-ID: <x>\nWARC-Date: 2001\nContent-Length: 2\n\nab\n\n"))
	f.Add([]byte{})
	// Issue 19: a stream with a flipped bit; members with a flipped data
	// byte and a flags byte of 0xE0.
	stream := gzipWhole(stripDigests(plain))
	stream[len(stream)*2/3] ^= 0x10
	f.Add(stream)
	members := bytes.Clone(gzipped)
	members[len(members)/4] ^= 0x55
	if i := bytes.LastIndex(members, []byte{0x1f, 0x8b, 0x08}); i > 0 {
		members[i+3] = 0xe0
	}
	f.Add(members)
	f.Fuzz(func(t *testing.T, data []byte) {
		checkInvariants(t, data, true)
		checkInvariants(t, data, false)
	})
}

func FuzzARC(f *testing.F) {
	arc, err := os.ReadFile("testdata/sample.arc")
	if err != nil {
		f.Fatal(err)
	}
	gz, _ := gzipPerRecord(arc, arcOffsets(arc))
	f.Add(arc)
	f.Add(gz)
	f.Add(arc[:len(arc)/2])
	f.Add([]byte("filedesc://x 0 20010101000000 text/plain 3\n1 0\nhttp://a 1.2.3.4 20010101000000 text/html 99999999999\nabc"))
	f.Add([]byte("http://a/ 1.2.3.4 20010101000000 text/html 10 ABC - 0 f.arc 3\nabc\n"))
	f.Add(setARCLengthText(arc, 3, "12x")) // issue 19
	f.Fuzz(func(t *testing.T, data []byte) {
		checkInvariants(t, data, true)
		checkInvariants(t, data, false)
	})
}

func FuzzHTTP(f *testing.F) {
	f.Add(httpBlock(3))
	f.Add(resp("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n\r\n", chunk(gz([]byte(page)), 10)))
	f.Add(resp("HTTP/1.1 200 OK\r\nContent-Encoding: br\r\n\r\n", br([]byte(page))))
	f.Add(resp("HTTP/1.1 200 OK\r\nContent-Encoding: deflate\r\n\r\n", rawDeflate([]byte(page))))
	f.Add(resp("HTTP/1.1 200 OK\r\nContent-Encoding: deflate\r\n\r\n", zlibData([]byte(page))))
	f.Add([]byte("HTTP/1.0 200\nX\n\nbody"))
	f.Add([]byte("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffff\r\nx"))
	f.Fuzz(func(t *testing.T, data []byte) {
		const max = 1 << 20
		r, err := ParseHTTPResponseLimit(data, max)
		if r == nil {
			t.Fatalf("nil response (error %v)", err)
		}
		if he, ok := err.(*HTTPError); err != nil && (!ok || he.Kind <= HTTPOther || int(he.Kind) >= len(httpErrorNames)) {
			t.Fatalf("error %v (%T) is not an *HTTPError of a known kind", err, err)
		}
		if len(r.Body) > max && len(r.Body) > len(data) {
			t.Fatalf("body of %d bytes from %d", len(r.Body), len(data))
		}
	})
}
