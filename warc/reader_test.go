package warc

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	for _, gz := range []bool{false, true} {
		for _, seekable := range []bool{false, true} {
			t.Run(fmt.Sprintf("gzip=%v/seekable=%v", gz, seekable), func(t *testing.T) {
				want := sampleRecords(12)
				data := buildArchive(t, want, gz)
				got, errs, _ := readAll(t, data, Options{}, seekable)
				if len(errs) > 0 {
					t.Fatalf("errors: %v", errs)
				}
				checkSame(t, got, want, true)
				for _, r := range got {
					if r.Shared || r.Truncated {
						t.Errorf("record at %d: shared %v truncated %v", r.Offset, r.Shared, r.Truncated)
					}
					if gz && r.MemberOffset != r.Offset || !gz && r.MemberOffset != -1 {
						t.Errorf("record at %d: member offset %d", r.Offset, r.MemberOffset)
					}
					if r.Version != "WARC/1.1" {
						t.Errorf("version %q", r.Version)
					}
				}
				if want[len(want)-1].Offset+want[len(want)-1].Length != int64(len(data)) {
					t.Errorf("records do not cover the file")
				}
			})
		}
	}
}

func TestWholeFileGzip(t *testing.T) {
	want := sampleRecords(9)
	plain := buildArchive(t, want, false)
	data := gzipWhole(plain)
	got, errs, _ := readAll(t, data, Options{}, true)
	if len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	checkSame(t, got, want, true) // decompressed offsets equal the plain ones
	for _, r := range got {
		if !r.Shared || r.MemberOffset != 0 {
			t.Errorf("record at %d: shared %v member %d", r.Offset, r.Shared, r.MemberOffset)
		}
	}
	// Two whole-file streams concatenated: the second member's records
	// count from its own start.
	data2 := append(append([]byte{}, data...), data...)
	got, errs, _ = readAll(t, data2, Options{}, false)
	if len(errs) > 0 || len(got) != 18 {
		t.Fatalf("%d records, errors %v", len(got), errs)
	}
	if got[9].MemberOffset != int64(len(data)) || got[9].Offset != 0 {
		t.Errorf("second stream: member %d offset %d", got[9].MemberOffset, got[9].Offset)
	}
}

func TestMixedPlainAndGzip(t *testing.T) {
	a := sampleRecords(4)
	b := sampleRecords(3)
	data := append(buildArchive(t, a, true), buildArchive(t, b, false)...)
	got, errs, _ := readAll(t, data, Options{}, true)
	if len(errs) > 0 || len(got) != 7 {
		t.Fatalf("%d records, errors %v", len(got), errs)
	}
}

func TestEmpty(t *testing.T) {
	for _, in := range []string{"", "\r\n\r\n"} {
		recs, errs, _ := readAll(t, []byte(in), Options{}, true)
		if len(recs)+len(errs) != 0 {
			t.Errorf("%q: %d records, errors %v", in, len(recs), errs)
		}
	}
	// An empty gzip member holds no record and is no error.
	recs, errs, _ := readAll(t, gzipWhole(nil), Options{}, true)
	if len(recs)+len(errs) != 0 {
		t.Errorf("empty gzip: %d records, errors %v", len(recs), errs)
	}
}

func TestNotArchive(t *testing.T) {
	var zipBuf bytes.Buffer
	zw := zip.NewWriter(&zipBuf)
	f, _ := zw.Create("a.txt")
	f.Write([]byte("hello"))
	zw.Close()
	rnd := make([]byte, 3000)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range rnd {
		rnd[i] = byte(r.IntN(256))
		if rnd[i] == 0x1f {
			rnd[i] = 0
		}
	}
	cases := []struct {
		name, in, want string
	}{
		{"html", "<!DOCTYPE html><html><body>hi</body></html>", "HTML"},
		{"zip", zipBuf.String(), "ZIP"},
		{"text", strings.Repeat("just some text\n", 10), "text"},
		{"binary", string(rnd), "binary"},
		{"gzip html", string(gzipWhole([]byte("<html><body>x</body></html>"))), "gzip-compressed and holds an HTML"},
		{"http", "HTTP/1.1 200 OK\r\n\r\nbody", "HTTP message"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			recs, errs, _ := readAll(t, []byte(c.in), Options{}, true)
			if len(recs) != 0 || len(errs) != 1 {
				t.Fatalf("%d records, errors %v", len(recs), errs)
			}
			if !errors.Is(errs[0], ErrNotArchive) || !strings.Contains(errs[0].Error(), c.want) {
				t.Errorf("error %q, want ErrNotArchive mentioning %q", errs[0], c.want)
			}
		})
	}
}

func TestCut(t *testing.T) {
	for _, gz := range []bool{false, true} {
		want := sampleRecords(8)
		data := buildArchive(t, want, gz)
		for k := 1; k < len(want); k++ {
			for _, frac := range []int64{1, 2, 3} {
				cut := want[k].Offset + want[k].Length*frac/4
				t.Run(fmt.Sprintf("gzip=%v/k=%d/%d", gz, k, frac), func(t *testing.T) {
					got, errs, _ := readAll(t, data[:cut], Options{}, frac%2 == 0)
					checkSame(t, got, want[:k], true)
					res := recordErrors(t, errs)
					if len(res) != 1 || res[0].Offset != want[k].Offset {
						t.Fatalf("errors %v, want one at %d", errs, want[k].Offset)
					}
				})
			}
		}
	}
	// Whole-file gzip cut in the middle: the records before the cut are
	// read, then the damage is reported.
	want := sampleRecords(8)
	plain := buildArchive(t, want, false)
	data := gzipWhole(plain)
	got, errs, _ := readAll(t, data[:len(data)/2], Options{}, true)
	if len(got) == 0 || len(got) >= 8 || len(errs) != 1 {
		t.Fatalf("%d records, errors %v", len(got), errs)
	}
	checkSame(t, got, want[:len(got)], true)
}

func TestFlippedByteInGzipMember(t *testing.T) {
	want := sampleRecords(8)
	data := buildArchive(t, want, true)
	for k := range want {
		for _, pos := range []int64{want[k].Length / 2, want[k].Length - 12, 20} {
			t.Run(fmt.Sprintf("k=%d/pos=%d", k, pos), func(t *testing.T) {
				bad := bytes.Clone(data)
				bad[want[k].Offset+pos] ^= 0x55
				for _, seekable := range []bool{true, false} {
					got, errs, _ := readAll(t, bad, Options{}, seekable)
					res := recordErrors(t, errs)
					if len(got) == len(want) {
						// The damage came after the record's block, which
						// its WARC-Block-Digest vouches for: the record
						// is yielded, from the member that fails.
						if g := got[k]; !g.Shared || g.MemberOffset != want[k].Offset || g.Digest != DigestBlock || !g.Unverified || !bytes.Equal(g.Content, want[k].Content) {
							t.Fatalf("record %d yielded from a damaged member: shared %v at %d, digest %d", k, g.Shared, g.MemberOffset, g.Digest)
						}
						got = without(got, k)
					}
					checkSame(t, got, without(want, k), true)
					if len(res) == 0 || res[len(res)-1].Offset != want[k].Offset {
						t.Fatalf("errors %v, want them at %d", errs, want[k].Offset)
					}
				}
			})
		}
	}
}

func TestGarbageBetweenRecords(t *testing.T) {
	garbages := []string{
		"some garbage\r\n",
		"\x00\x01\x02\xff binary \x1f\x8b junk",
		"WARC/1.0\r\nWARC-Type: resp", // a cut record start
		"\x1f\x8b\x08\x00 fake gzip header",
	}
	for _, gz := range []bool{false, true} {
		for gi, garbage := range garbages {
			for _, k := range []int{1, 4, 7} {
				t.Run(fmt.Sprintf("gzip=%v/%d/k=%d", gz, gi, k), func(t *testing.T) {
					want := sampleRecords(8)
					data := buildArchive(t, want, gz)
					at := want[k].Offset
					bad := append(append(append([]byte{}, data[:at]...), garbage...), data[at:]...)
					for _, r := range want[k:] {
						r.Offset += int64(len(garbage))
					}
					got, errs, _ := readAll(t, bad, Options{}, true)
					checkSame(t, got, want, true)
					res := recordErrors(t, errs)
					if len(res) != 1 || res[0].Offset != at {
						t.Fatalf("errors %v, want one at %d", errs, at)
					}
				})
			}
		}
	}
	// Garbage at the very start of a WARC file is damage, not "not an archive".
	want := sampleRecords(3)
	data := append([]byte("junk before the first record\n"), buildArchive(t, want, false)...)
	got, errs, _ := readAll(t, data, Options{}, true)
	if len(got) != 3 || len(errs) != 1 || errors.Is(errs[0], ErrNotArchive) {
		t.Fatalf("%d records, errors %v", len(got), errs)
	}
}

// editRecord rewrites the header of record k of a plain archive with edit
// and returns the new archive; later records' offsets are shifted.
func editRecord(data []byte, recs []*Record, k int, edit func(header string) string) []byte {
	r := recs[k]
	raw := string(data[r.Offset : r.Offset+r.Length])
	head, rest, _ := strings.Cut(raw, "\r\n\r\n")
	newRaw := edit(head) + "\r\n\r\n" + rest
	delta := int64(len(newRaw) - len(raw))
	for _, x := range recs[k+1:] {
		x.Offset += delta
	}
	return append(append(append([]byte{}, data[:r.Offset]...), newRaw...), data[r.Offset+r.Length:]...)
}

// lineEnd returns the index of the CRLF ending the line at i, or len(h).
func lineEnd(h string, i int) int {
	if j := strings.Index(h[i:], "\r\n"); j >= 0 {
		return i + j
	}
	return len(h)
}

func setLength(delta int64) func(string) string {
	return func(h string) string {
		i := strings.Index(h, "Content-Length: ")
		j := lineEnd(h, i)
		var n int64
		fmt.Sscan(h[i+len("Content-Length: "):j], &n)
		return h[:i] + fmt.Sprintf("Content-Length: %d", n+delta) + h[j:]
	}
}

func TestWrongContentLength(t *testing.T) {
	for _, delta := range []int64{+1, +2, +100, +5000, -1, -50, 1 << 40} {
		for _, k := range []int{1, 5, 7} {
			for _, seekable := range []bool{true, false} {
				t.Run(fmt.Sprintf("delta=%d/k=%d/seek=%v", delta, k, seekable), func(t *testing.T) {
					want := sampleRecords(8)
					data := buildArchive(t, want, false)
					bad := editRecord(data, want, k, setLength(delta))
					got, errs, _ := readAll(t, bad, Options{}, seekable)
					res := recordErrors(t, errs)
					if len(got) == len(want) {
						// The damage came after the record's block, which
						// its WARC-Block-Digest vouches for: the record
						// is yielded, from the member that fails.
						if g := got[k]; !g.Shared || g.MemberOffset != want[k].Offset || g.Digest != DigestBlock || !g.Unverified || !bytes.Equal(g.Content, want[k].Content) {
							t.Fatalf("record %d yielded from a damaged member: shared %v at %d, digest %d", k, g.Shared, g.MemberOffset, g.Digest)
						}
						got = without(got, k)
					}
					checkSame(t, got, without(want, k), true)
					if len(res) == 0 || res[len(res)-1].Offset != want[k].Offset {
						t.Fatalf("errors %v, want them at %d", errs, want[k].Offset)
					}
				})
			}
		}
	}
}

func TestWrongContentLengthInGzipMember(t *testing.T) {
	for _, delta := range []int64{+1, +100, -1, 1 << 40} {
		want := sampleRecords(6)
		plain := buildArchive(t, want, false)
		bad := editRecord(plain, want, 3, setLength(delta))
		// Re-compress record by record.
		var data []byte
		var offs []int64
		for i, r := range want {
			offs = append(offs, int64(len(data)))
			end := int64(len(bad))
			if i+1 < len(want) {
				end = want[i+1].Offset
			}
			data = append(data, gzipWhole(bad[r.Offset:end])...)
		}
		got, errs, _ := readAll(t, data, Options{}, false)
		if len(got) != 5 {
			t.Fatalf("delta %d: %d records, errors %v", delta, len(got), errs)
		}
		res := recordErrors(t, errs)
		if len(res) != 1 || res[0].Offset != offs[3] {
			t.Fatalf("delta %d: errors %v, want one at %d", delta, errs, offs[3])
		}
	}
}

func TestMissingFields(t *testing.T) {
	for _, field := range []string{"WARC-Type", "WARC-Record-ID", "WARC-Date", "Content-Length"} {
		t.Run(field, func(t *testing.T) {
			want := sampleRecords(6)
			data := buildArchive(t, want, false)
			bad := editRecord(data, want, 2, func(h string) string {
				i := strings.Index(h, "\r\n"+field+":")
				j := lineEnd(h, i+2)
				return h[:i] + h[j:]
			})
			got, errs, _ := readAll(t, bad, Options{}, true)
			checkSame(t, got, without(want, 2), true)
			res := recordErrors(t, errs)
			if len(res) != 1 || res[0].Offset != want[2].Offset || !strings.Contains(res[0].Reason, field) {
				t.Fatalf("errors %v, want one at %d about %s", errs, want[2].Offset, field)
			}
		})
	}
}

func TestHugeDeclaredLength(t *testing.T) {
	want := sampleRecords(5)
	data := buildArchive(t, want, false)
	bad := editRecord(data, want, 1, setLength(1<<50))
	for _, seekable := range []bool{true, false} {
		var ms0, ms1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms0)
		got, errs, _ := readAll(t, bad, Options{}, seekable)
		runtime.ReadMemStats(&ms1)
		checkSame(t, got, without(want, 1), true)
		if len(errs) != 1 {
			t.Fatalf("errors %v", errs)
		}
		if alloc := ms1.TotalAlloc - ms0.TotalAlloc; alloc > 8<<20 {
			t.Errorf("allocated %d bytes for a %d-byte input", alloc, len(bad))
		}
	}
}

func TestMaxRecordBytes(t *testing.T) {
	want := sampleRecords(6)
	data := buildArchive(t, want, true)
	got, errs, _ := readAll(t, data, Options{MaxRecordBytes: 40}, false)
	if len(errs) > 0 || len(got) != 6 {
		t.Fatalf("%d records, errors %v", len(got), errs)
	}
	for i, r := range got {
		full := want[i].Content
		if len(full) > 40 != r.Truncated || !bytes.Equal(r.Content, full[:min(40, len(full))]) {
			t.Errorf("record %d: truncated %v, %d bytes", i, r.Truncated, len(r.Content))
		}
		if r.Offset != want[i].Offset || r.Length != want[i].Length {
			t.Errorf("record %d: offset %d length %d", i, r.Offset, r.Length)
		}
	}
	got, errs, _ = readAll(t, data, Options{HeadersOnly: true}, false)
	if len(errs) > 0 || len(got) != 6 {
		t.Fatalf("%d records, errors %v", len(got), errs)
	}
	for _, r := range got {
		if r.Content != nil || r.Truncated || r.ID() == "" {
			t.Errorf("headers only: %d bytes, truncated %v", len(r.Content), r.Truncated)
		}
	}
}

func TestVerifyDigests(t *testing.T) {
	want := sampleRecords(5)
	data := buildArchive(t, want, false)
	bad := bytes.Clone(data)
	bad[want[2].Offset+want[2].Length-10] ^= 1 // inside the block
	got, errs, _ := readAll(t, bad, Options{SkipDigests: true}, true)
	if len(got) != 5 || len(errs) != 0 {
		t.Fatalf("without verification: %d records, errors %v", len(got), errs)
	}
	got, errs, _ = readAll(t, bad, Options{}, true)
	checkSame(t, got, without(want, 2), true)
	if res := recordErrors(t, errs); len(res) != 1 || res[0].Offset != want[2].Offset || !strings.Contains(res[0].Reason, "Digest") {
		t.Fatalf("errors %v", errs)
	}
	// Blocks longer than the cap are checked over their whole length.
	got, errs, _ = readAll(t, bad, Options{MaxRecordBytes: 50}, true)
	if len(got) != 4 || len(errs) != 1 {
		t.Fatalf("capped: %d records, errors %v", len(got), errs)
	}
}

func TestResume(t *testing.T) {
	want := sampleRecords(6)
	data := buildArchive(t, want, true)
	rd := NewReader(bytes.NewReader(data), Options{})
	var got []*Record
	for rec, err := range rd.Records() {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, rec)
		if len(got) == 2 {
			break
		}
	}
	for rec, err := range rd.Records() {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, rec)
	}
	checkSame(t, got, want, true)
}

func TestLenientWARC(t *testing.T) {
	// LF line ends, WARC/1.0, a folded field, a line without a colon,
	// angle brackets around the URI, no trailing CRLF CRLF at the end.
	in := "WARC/1.0\n" +
		"WARC-Type: resource\n" +
		"WARC-Record-ID: <urn:uuid:1>\n" +
		"WARC-Date: 2001-02-03T04:05:06.789Z\n" +
		"WARC-Target-URI: <http://example.com/a>\n" +
		"X-Long: one\n two\n" +
		"not a field\n" +
		"Content-Length: 5\n\nhello\n\n" +
		"WARC/1.0\r\nWARC-Type: metadata\r\nWARC-Record-ID: <urn:uuid:2>\r\nWARC-Date: 2001\r\nContent-Length: 3\r\n\r\nabc"
	got, errs, _ := readAll(t, []byte(in), Options{}, true)
	if len(errs) > 0 || len(got) != 2 {
		t.Fatalf("%d records, errors %v", len(got), errs)
	}
	r := got[0]
	if r.TargetURI != "http://example.com/a" || string(r.Content) != "hello" || r.Header.Get("x-long") != "one two" ||
		r.Date.Nanosecond() != 789000000 || r.Version != "WARC/1.0" {
		t.Errorf("got %+v", r)
	}
	if got[1].Offset != int64(strings.Index(in, "WARC/1.0\r\n")) || string(got[1].Content) != "abc" || got[1].Date.Year() != 2001 {
		t.Errorf("second record %+v", got[1])
	}
}

func TestReadFile(t *testing.T) {
	want := sampleRecords(4)
	path := filepath.Join(t.TempDir(), "a.warc.gz")
	if err := os.WriteFile(path, buildArchive(t, want, true), 0o644); err != nil {
		t.Fatal(err)
	}
	var got []*Record
	for rec, err := range ReadFile(path, Options{}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, rec)
	}
	checkSame(t, got, want, true)
	n := 0
	for _, err := range ReadFile(filepath.Join(t.TempDir(), "missing"), Options{}) {
		n++
		if !errors.Is(err, os.ErrNotExist) {
			t.Errorf("got %v", err)
		}
	}
	if n != 1 {
		t.Errorf("%d items for a missing file", n)
	}
}

// errReader fails after some bytes.
type errReader struct {
	data []byte
	err  error
}

func (e *errReader) Read(p []byte) (int, error) {
	if len(e.data) == 0 {
		return 0, e.err
	}
	n := copy(p, e.data)
	e.data = e.data[n:]
	return n, nil
}

func TestReadErrorEnds(t *testing.T) {
	want := sampleRecords(6)
	data := buildArchive(t, want, true)
	boom := errors.New("disk on fire")
	var got []*Record
	var errs []error
	for rec, err := range NewReader(&errReader{data[:want[3].Offset+10], boom}, Options{}).Records() {
		if err != nil {
			errs = append(errs, err)
		} else {
			got = append(got, rec)
		}
	}
	checkSame(t, got, want[:3], true)
	if len(errs) != 1 || !errors.Is(errs[0], boom) {
		t.Fatalf("errors %v", errs)
	}
}

// Records larger than the resync window: wrong lengths are still found and
// the records after them read, whether the input can seek or not.
func TestLargeRecords(t *testing.T) {
	want := sampleRecords(5)
	big := bytes.Repeat([]byte("0123456789abcdef"), 64<<10) // 1 MiB
	want[2].Content = append([]byte("HTTP/1.1 200 OK\r\n\r\n"), big...)
	data := buildArchive(t, want, false)
	opts := Options{ResyncWindow: 256 << 10, MaxRecordBytes: 300 << 10}
	for _, seekable := range []bool{true, false} {
		got, errs, _ := readAll(t, data, opts, seekable)
		if len(errs) > 0 || len(got) != 5 || !got[2].Truncated || len(got[2].Content) != 300<<10 {
			t.Fatalf("%d records, errors %v", len(got), errs)
		}
		for _, delta := range []int64{+3, -3, 1 << 30} {
			recs := sampleRecords(5)
			recs[2].Content = want[2].Content
			data := buildArchive(t, recs, false)
			bad := editRecord(data, recs, 2, setLength(delta))
			got, errs, _ := readAll(t, bad, opts, seekable)
			if len(got) != 4 || len(errs) != 1 || recordErrors(t, errs)[0].Offset != recs[2].Offset {
				t.Fatalf("delta %d seekable %v: %d records, errors %v", delta, seekable, len(got), errs)
			}
			if got[2].Offset != recs[3].Offset || got[3].Offset != recs[4].Offset {
				t.Errorf("delta %d: offsets %d %d, want %d %d", delta, got[2].Offset, got[3].Offset, recs[3].Offset, recs[4].Offset)
			}
		}
	}
}

// When the input cannot seek and a wrong length runs far past the window,
// the records in between cannot be found again: the error says so.
func TestLostRegionIsReported(t *testing.T) {
	recs := sampleRecords(3000)
	data := buildArchive(t, recs, false)
	bad := editRecord(data, recs, 1, setLength(1<<40))
	got, errs, _ := readAll(t, bad, Options{ResyncWindow: 256 << 10}, false)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "could not be rescanned") {
		t.Fatalf("errors %v", errs)
	}
	if len(got) < 2 || len(got) >= 2999 {
		t.Fatalf("%d records", len(got))
	}
	// A seekable input loses nothing.
	got, errs, _ = readAll(t, bad, Options{ResyncWindow: 256 << 10}, true)
	if len(errs) != 1 || len(got) != 2999 {
		t.Fatalf("seekable: %d records, errors %v", len(got), errs)
	}
}
