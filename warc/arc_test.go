package warc

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

type arcWant struct {
	typ, uri, ctype string
	date            time.Time
	length          int
}

var sampleARC = []arcWant{
	{TypeWarcinfo, "filedesc://sample.arc", "text/plain", time.Date(2005, 6, 14, 7, 1, 44, 0, time.UTC), 80},
	{TypeResponse, "http://www.example.com/", "text/html", time.Date(2005, 6, 14, 7, 1, 59, 0, time.UTC), 290},
	{TypeResponse, "dns:www.example.com", "text/dns", time.Date(2005, 6, 14, 7, 1, 44, 0, time.UTC), 53},
	{TypeResponse, "http://www.example.com/about.html", "text/html", time.Date(2005, 6, 14, 7, 2, 3, 0, time.UTC), 147},
	{TypeResponse, "http://www.example.com/robots.txt", "text/plain", time.Date(2005, 6, 14, 7, 2, 5, 0, time.UTC), 64},
}

// arcOffsets returns the offsets of the URL lines of the fixture.
func arcOffsets(data []byte) []int64 {
	var offs []int64
	for _, w := range sampleARC {
		offs = append(offs, int64(bytes.Index(data, []byte(w.uri+" "))))
	}
	return offs
}

func readFixture(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/sample.arc")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func checkARC(t *testing.T, got []*Record, want []arcWant, offs []int64, ends []int64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d records, want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Type != w.typ || g.TargetURI != w.uri || g.ContentType() != w.ctype || !g.Date.Equal(w.date) || len(g.Content) != w.length {
			t.Errorf("record %d: got %s %s %s %v %d", i, g.Type, g.TargetURI, g.ContentType(), g.Date, len(g.Content))
		}
		if g.Offset != offs[i] || g.Offset+g.Length != ends[i] {
			t.Errorf("record %d: offset %d length %d, want %d..%d", i, g.Offset, g.Length, offs[i], ends[i])
		}
		if g.Version != "ARC/1" || g.Header.Get(FieldContentLength) != fmt.Sprint(w.length) {
			t.Errorf("record %d: version %s, header %v", i, g.Version, g.Header)
		}
	}
}

func TestARCFixture(t *testing.T) {
	data := readFixture(t)
	offs := arcOffsets(data)
	ends := append(offs[1:len(offs):len(offs)], int64(len(data)))
	for _, seekable := range []bool{true, false} {
		got, errs, _ := readAll(t, data, Options{}, seekable)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		checkARC(t, got, sampleARC, offs, ends)
		if ip := got[1].Header.Get("warc-ip-address"); ip != "192.0.2.10" {
			t.Errorf("ip %q", ip)
		}
		resp, err := got[1].HTTPResponse()
		if err != nil || resp.Status != 200 || !strings.Contains(string(resp.Body), "<h1>Welcome</h1>") {
			t.Errorf("HTTP: %v %+v", err, resp)
		}
		resp, err = got[4].HTTPResponse()
		if err != nil || resp.Status != 404 || resp.Reason != "Not Found" || string(resp.Body) != "no robots here\n" {
			t.Errorf("HTTP: %v %+v", err, resp)
		}
	}
}

// gzipPerRecord compresses each [offs[i], offs[i+1]) slice as a member and
// returns the data and the member offsets.
func gzipPerRecord(data []byte, offs []int64) ([]byte, []int64) {
	var out []byte
	var moffs []int64
	for i, o := range offs {
		end := int64(len(data))
		if i+1 < len(offs) {
			end = offs[i+1]
		}
		moffs = append(moffs, int64(len(out)))
		out = append(out, gzipWhole(data[o:end])...)
	}
	return out, moffs
}

func TestARCGzip(t *testing.T) {
	data := readFixture(t)
	gz, moffs := gzipPerRecord(data, arcOffsets(data))
	got, errs, _ := readAll(t, gz, Options{}, false)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	checkARC(t, got, sampleARC, moffs, append(moffs[1:len(moffs):len(moffs)], int64(len(gz))))

	// One gzip stream for the whole file.
	got, errs, _ = readAll(t, gzipWhole(data), Options{}, false)
	if len(errs) > 0 || len(got) != 5 || !got[3].Shared {
		t.Fatalf("%d records, errors %v", len(got), errs)
	}

	// A flipped byte in the third member.
	bad := bytes.Clone(gz)
	bad[moffs[2]+(moffs[3]-moffs[2])/2] ^= 0x40
	got, errs, _ = readAll(t, bad, Options{}, false)
	if len(got) != 4 || len(errs) != 1 || recordErrors(t, errs)[0].Offset != moffs[2] {
		t.Fatalf("%d records, errors %v", len(got), errs)
	}
}

func TestARCDamage(t *testing.T) {
	data := readFixture(t)
	offs := arcOffsets(data)
	line := func(i int) (int64, int64) { // the URL line of record i
		return offs[i], offs[i] + int64(bytes.IndexByte(data[offs[i]:], '\n'))
	}
	for _, delta := range []int{+1, +7, -1, -30, +100000} {
		for _, k := range []int{1, 3} {
			t.Run(fmt.Sprintf("length%+d/k=%d", delta, k), func(t *testing.T) {
				s, e := line(k)
				old := string(data[s:e])
				i := strings.LastIndexByte(old, ' ')
				var n int
				fmt.Sscan(old[i+1:], &n)
				bad := append(append(append([]byte{}, data[:s]...), fmt.Sprintf("%s %d", old[:i], n+delta)...), data[e:]...)
				got, errs, _ := readAll(t, bad, Options{}, delta%2 == 0)
				if len(got) != 4 || len(errs) != 1 || recordErrors(t, errs)[0].Offset != offs[k] {
					t.Fatalf("%d records, errors %v", len(got), errs)
				}
				for _, g := range got {
					if g.TargetURI == sampleARC[k].uri {
						t.Errorf("damaged record %s returned", g.TargetURI)
					}
				}
			})
		}
	}
	// Cut inside the last record.
	got, errs, _ := readAll(t, data[:len(data)-20], Options{}, true)
	if len(got) != 4 || len(errs) != 1 || recordErrors(t, errs)[0].Offset != offs[4] {
		t.Fatalf("cut: %d records, errors %v", len(got), errs)
	}
	// Garbage between records cannot be told from a wrong Archive-length
	// of the record before it: that record is reported with the garbage.
	bad := append(append(append([]byte{}, data[:offs[2]]...), "garbage garbage\n"...), data[offs[2]:]...)
	got, errs, _ = readAll(t, bad, Options{}, true)
	if len(got) != 4 || len(errs) != 1 || recordErrors(t, errs)[0].Offset != offs[1] || got[1].TargetURI != sampleARC[2].uri {
		t.Fatalf("garbage: %d records, errors %v", len(got), errs)
	}
}

func TestARCVersion2(t *testing.T) {
	vb := "2 0 test\nURL IP-address Archive-date Content-type Result-code Checksum Location Offset Filename Archive-length\n"
	body := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>v2</p>"
	arc := fmt.Sprintf("filedesc://v2.arc 0.0.0.0 20080102030405 text/plain %d\n%s\n", len(vb), vb) +
		fmt.Sprintf("http://example.org/ 198.51.100.7 20080102030406 text/html 200 ABCDEF - 0 v2.arc %d\n%s\n", len(body), body)
	got, errs, _ := readAll(t, []byte(arc), Options{}, true)
	if len(errs) > 0 || len(got) != 2 {
		t.Fatalf("%d records, errors %v", len(got), errs)
	}
	r := got[1]
	if r.TargetURI != "http://example.org/" || r.ContentType() != "text/html" || r.Version != "ARC/2" || string(r.Content) != body {
		t.Errorf("got %+v", r)
	}
}
