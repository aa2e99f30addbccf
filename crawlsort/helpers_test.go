package crawlsort

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sluice-project/sluice/warc"
)

var testDate = time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)

// page returns a response record of uri, with ID n.
func page(uri string, n int) *warc.Record {
	body := fmt.Sprintf("<html><head><title>Page %d</title></head><body><p>Text of page %d at %s.</p></body></html>", n, n, uri)
	rec := &warc.Record{Type: warc.TypeResponse, TargetURI: uri, Date: testDate.Add(time.Duration(n) * time.Second),
		Content: fmt.Appendf(nil, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s", len(body), body)}
	rec.Header.Set(warc.FieldRecordID, fmt.Sprintf("<urn:uuid:00000000-0000-4000-8000-%012d>", n))
	rec.Header.Set(warc.FieldContentType, "application/http; msgtype=response")
	return rec
}

// info returns a warcinfo record (no target URI) with ID n.
func info(n int) *warc.Record {
	rec := &warc.Record{Type: warc.TypeWarcinfo, Date: testDate, Content: []byte("software: test\r\n")}
	rec.Header.Set(warc.FieldRecordID, fmt.Sprintf("<urn:uuid:00000000-0000-4000-8000-%012d>", n))
	return rec
}

// writeArchive writes recs to path (gzip member per record if gz) and
// returns each record's bytes, decompressed, by record ID and offset.
func writeArchive(t testing.TB, path string, gz bool, recs ...*warc.Record) map[string][]byte {
	t.Helper()
	var buf bytes.Buffer
	w := warc.NewWriter(&buf, gz)
	for _, r := range recs {
		if err := w.WriteRecord(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	raw := map[string][]byte{}
	for _, r := range recs {
		b := buf.Bytes()[r.Offset : r.Offset+r.Length]
		if gz {
			b = gunzip(t, b)
		}
		raw[r.ID()+"@"+path+"@"+strconv.FormatInt(r.Offset, 10)] = b
	}
	return raw
}

func gunzip(t testing.TB, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	zr.Multistream(false)
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// indexRow is a line of index.tsv.
type indexRow struct {
	host, file, source, typ, id string
	offset, length, srcOff      int64
}

// readOutput reads dir/index.tsv and returns its rows with each record's
// bytes, decompressed from its part, keyed as writeArchive keys them.
func readOutput(t testing.TB, dir string) ([]indexRow, map[string][]byte) {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, indexName))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan()
	if sc.Text()+"\n" != indexHeader {
		t.Fatalf("index header %q", sc.Text())
	}
	var rows []indexRow
	got := map[string][]byte{}
	parts := map[string][]byte{}
	for sc.Scan() {
		c := strings.Split(sc.Text(), "\t")
		if len(c) != 10 {
			t.Fatalf("index line %q: %d columns", sc.Text(), len(c))
		}
		r := indexRow{host: c[0], file: c[1], source: c[4], typ: c[8], id: c[9]}
		r.offset, _ = strconv.ParseInt(c[2], 10, 64)
		r.length, _ = strconv.ParseInt(c[3], 10, 64)
		r.srcOff, _ = strconv.ParseInt(c[5], 10, 64)
		rows = append(rows, r)
		if parts[r.file] == nil {
			parts[r.file], err = os.ReadFile(filepath.Join(dir, r.file))
			if err != nil {
				t.Fatal(err)
			}
		}
		key := r.id + "@" + r.source + "@" + c[5]
		if _, dup := got[key]; dup {
			t.Errorf("%s written twice", key)
		}
		got[key] = gunzip(t, parts[r.file][r.offset:r.offset+r.length])
	}
	return rows, got
}

// sortDir runs a sort of paths into dir and fails the test on an error.
func sortDir(t testing.TB, dir string, paths []string, opts Options) *Summary {
	t.Helper()
	sum, err := Run(context.Background(), dir, paths, opts)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return sum
}

// checkGrouped fails the test unless the rows of each host follow each
// other, hosts in byte order.
func checkGrouped(t testing.TB, rows []indexRow) {
	t.Helper()
	seen := map[string]bool{}
	for i, r := range rows {
		if i > 0 && r.host != rows[i-1].host {
			if seen[r.host] {
				t.Errorf("host %s comes back at row %d", r.host, i)
			}
			if r.host < rows[i-1].host {
				t.Errorf("host %s after %s", r.host, rows[i-1].host)
			}
		}
		seen[r.host] = true
	}
}
