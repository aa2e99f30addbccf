package warc

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

var testDate = time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)

// httpBlock returns an HTTP response block with an HTML body.
func httpBlock(i int) []byte {
	body := fmt.Sprintf("<html><head><title>Page %d</title></head><body><p>%s</p></body></html>\n",
		i, strings.Repeat(fmt.Sprintf("Text of page %d. ", i), 5+i%7))
	return []byte(fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: %d\r\n\r\n%s", len(body), body))
}

// sampleRecords returns n records: a warcinfo, then responses, a request, a
// resource and a revisit among them.
func sampleRecords(n int) []*Record {
	var recs []*Record
	for i := range n {
		rec := &Record{Date: testDate.Add(time.Duration(i) * time.Second)}
		switch {
		case i == 0:
			rec.Type = TypeWarcinfo
			rec.Header.Set(FieldContentType, "application/warc-fields")
			rec.Content = []byte("software: test\r\nformat: WARC File Format 1.1\r\n")
		case i%5 == 3:
			rec.Type = TypeRequest
			rec.TargetURI = fmt.Sprintf("http://example.com/page%d", i)
			rec.Header.Set(FieldContentType, "application/http; msgtype=request")
			rec.Content = []byte(fmt.Sprintf("GET /page%d HTTP/1.1\r\nHost: example.com\r\n\r\n", i))
		case i%5 == 4:
			rec.Type = TypeResource
			rec.TargetURI = fmt.Sprintf("http://example.com/notes%d.txt", i)
			rec.Header.Set(FieldContentType, "text/plain")
			rec.Content = []byte(fmt.Sprintf("plain notes %d\nnot HTTP at all\n", i))
		default:
			rec.Type = TypeResponse
			rec.TargetURI = fmt.Sprintf("http://example.com/page%d", i)
			rec.Header.Set(FieldContentType, "application/http; msgtype=response")
			rec.Header.Set(FieldIPAddress, "192.0.2.1")
			rec.Content = httpBlock(i)
		}
		recs = append(recs, rec)
	}
	return recs
}

// buildArchive writes recs (setting their offsets) and returns the bytes.
func buildArchive(t testing.TB, recs []*Record, gz bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := NewWriter(&buf, gz)
	for _, rec := range recs {
		if err := w.WriteRecord(rec); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

// gzipWhole compresses data as a single gzip stream.
func gzipWhole(data []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(data)
	zw.Close()
	return buf.Bytes()
}

// onlyReader hides io.Seeker.
type onlyReader struct{ r io.Reader }

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }

// readAll reads data and returns records and errors, in order of arrival
// (items: either *Record or error).
func readAll(t testing.TB, data []byte, opts Options, seekable bool) (recs []*Record, errs []error, items []any) {
	t.Helper()
	var in io.Reader = bytes.NewReader(data)
	if !seekable {
		in = onlyReader{in}
	}
	n := 0
	for rec, err := range NewReader(in, opts).Records() {
		n++
		if n > 100000 {
			t.Fatal("too many items")
		}
		if err != nil {
			errs = append(errs, err)
			items = append(items, err)
			continue
		}
		recs = append(recs, rec)
		items = append(items, rec)
	}
	return recs, errs, items
}

// checkSame checks that got holds the records want (by ID), with the offsets
// and lengths the writer reported.
func checkSame(t *testing.T, got, want []*Record, offsets bool) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d records, want %d: %v", len(got), len(want), ids(got))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.ID() != w.ID() || g.Type != w.Type || g.TargetURI != w.TargetURI || !g.Date.Equal(w.Date) || !bytes.Equal(g.Content, w.Content) {
			t.Errorf("record %d: got %s %s %s %v (%d bytes), want %s %s %s %v (%d bytes)", i,
				g.ID(), g.Type, g.TargetURI, g.Date, len(g.Content), w.ID(), w.Type, w.TargetURI, w.Date, len(w.Content))
		}
		if offsets && (g.Offset != w.Offset || g.Length != w.Length) {
			t.Errorf("record %d: offset %d length %d, want %d %d", i, g.Offset, g.Length, w.Offset, w.Length)
		}
	}
}

func ids(recs []*Record) []string {
	var s []string
	for _, r := range recs {
		s = append(s, r.ID())
	}
	return s
}

func recordErrors(t *testing.T, errs []error) []*RecordError {
	t.Helper()
	var out []*RecordError
	for _, err := range errs {
		var re *RecordError
		if !errors.As(err, &re) {
			t.Fatalf("error is not a *RecordError: %v", err)
		}
		out = append(out, re)
	}
	return out
}

// without returns recs without the records at the given indexes.
func without(recs []*Record, skip ...int) []*Record {
	var out []*Record
outer:
	for i, r := range recs {
		for _, s := range skip {
			if i == s {
				continue outer
			}
		}
		out = append(out, r)
	}
	return out
}
