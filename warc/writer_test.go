package warc

import (
	"bytes"
	"crypto/sha1"
	"encoding/base32"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"
)

var uuidRE = regexp.MustCompile(`^<urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}>$`)

func TestNewRecordID(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		id := NewRecordID()
		if !uuidRE.MatchString(id) || seen[id] {
			t.Fatalf("bad or repeated id %s", id)
		}
		seen[id] = true
	}
}

func TestBlockDigest(t *testing.T) {
	sum := sha1.Sum([]byte("abc"))
	want := "sha1:" + base32.StdEncoding.EncodeToString(sum[:])
	if got := BlockDigest([]byte("abc")); got != want || got != "sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5" {
		t.Errorf("got %s", got)
	}
}

func TestConversion(t *testing.T) {
	for _, gzipped := range []bool{false, true} {
		var buf bytes.Buffer
		w := NewWriter(&buf, gzipped)
		infoID, err := w.WriteWarcinfo("clean.warc.gz", Header{{"operator", "tests"}})
		if err != nil {
			t.Fatal(err)
		}
		src := sampleRecords(2)[1]
		if err := w.WriteRecord(src); err != nil {
			t.Fatal(err)
		}
		text, err := w.WriteConversion(src, "", []byte("Hello, archived world.\n"))
		if err != nil {
			t.Fatal(err)
		}
		js, _ := json.Marshal(map[string]string{"text": "Hello"})
		jrec, err := w.WriteConversion(src, "application/json", js)
		if err != nil {
			t.Fatal(err)
		}
		got, errs, _ := readAll(t, buf.Bytes(), Options{}, true)
		if len(errs) > 0 || len(got) != 4 {
			t.Fatalf("%d records, errors %v", len(got), errs)
		}
		info, c, j := got[0], got[2], got[3]
		if info.Type != TypeWarcinfo || info.ID() != infoID || info.Header.Get(FieldFilename) != "clean.warc.gz" ||
			!strings.Contains(string(info.Content), "software: sluice\r\n") || !strings.Contains(string(info.Content), "operator: tests\r\n") ||
			info.ContentType() != "application/warc-fields" {
			t.Errorf("warcinfo %+v %q", info.Header, info.Content)
		}
		if c.Type != TypeConversion || c.Header.Get(FieldRefersTo) != src.ID() || RecordID(c) != text.ID() ||
			c.TargetURI != src.TargetURI || !c.Date.Equal(src.Date) || c.ContentType() != "text/plain; charset=utf-8" ||
			c.Header.Get(FieldContentLength) != "23" || c.Header.Get(FieldBlockDigest) != BlockDigest(c.Content) ||
			c.Header.Get(FieldWarcinfoID) != infoID || !uuidRE.MatchString(c.ID()) || c.Offset != text.Offset || c.Length != text.Length {
			t.Errorf("conversion %+v", c.Header)
		}
		if j.ContentType() != "application/json" || !bytes.Equal(j.Content, js) || j.ID() != jrec.ID() {
			t.Errorf("json conversion %+v", j.Header)
		}
	}
}

func TestWriterHeader(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf, false)
	rec := &Record{Type: TypeResource, TargetURI: "http://x/\r\nWARC-Type: evil", Content: []byte("abc"), Truncated: true,
		Date:   time.Date(2020, 1, 2, 3, 4, 5, 600, time.UTC),
		Header: Header{{"X-Note", "line one\nline two"}, {"Content-Length", "999"}, {"WARC-Block-Digest", "sha1:WRONG"}}}
	if err := w.WriteRecord(rec); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if strings.Count(out, "\nWARC-Type:") != 1 || !strings.Contains(out, "X-Note: line one line two\r\n") ||
		!strings.Contains(out, "Content-Length: 3\r\n") || strings.Contains(out, "WRONG") ||
		!strings.Contains(out, "WARC-Truncated: length\r\n") || !strings.Contains(out, "WARC-Date: 2020-01-02T03:04:05.0000006Z\r\n") ||
		!strings.HasPrefix(out, "WARC/1.1\r\n") || !strings.HasSuffix(out, "\r\n\r\nabc\r\n\r\n") {
		t.Errorf("output:\n%s", out)
	}
	if err := w.WriteRecord(&Record{Type: "resource", Header: Header{{"Bad Name", "x"}}}); err == nil {
		t.Error("bad field name accepted")
	}
	if err := w.WriteRecord(&Record{}); err == nil {
		t.Error("record without type accepted")
	}
	// WARC/1.0 records keep their version and second precision.
	buf.Reset()
	rec = &Record{Type: TypeMetadata, Version: "WARC/1.0", Date: time.Date(2020, 1, 2, 3, 4, 5, 600, time.UTC)}
	if err := w.WriteRecord(rec); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), "WARC/1.0\r\n") || !strings.Contains(buf.String(), "WARC-Date: 2020-01-02T03:04:05Z\r\n") {
		t.Errorf("output:\n%s", buf.String())
	}
}

// Records read from one archive can be written to another unchanged.
func TestCopyArchive(t *testing.T) {
	want := sampleRecords(7)
	data := buildArchive(t, want, true)
	got, errs, _ := readAll(t, data, Options{}, true)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var buf bytes.Buffer
	w := NewWriter(&buf, false)
	for _, r := range got {
		if err := w.WriteRecord(r); err != nil {
			t.Fatal(err)
		}
	}
	again, errs, _ := readAll(t, buf.Bytes(), Options{}, true)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	checkSame(t, again, got, true)
}
