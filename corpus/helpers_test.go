package corpus

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/render"
	"github.com/sluice-project/sluice/warc"
)

// testMaxRecord is the record cap of the tests: small, so that a test
// archive can hold a record over it without being large.
const testMaxRecord = 256 << 10

// cleaned is the outcome of a record that must be cleaned.
const cleaned = "cleaned"

// entry is one record of a test archive and what Run must make of it.
type entry struct {
	rec  *warc.Record
	want string // cleaned, or the skip reason
}

var testDate = time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)

// testPage returns an HTML page with a heading and paragraphs of text that
// no other page has.
func testPage(i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<!DOCTYPE html><html><head><title>Mill report %d</title></head><body>\n", i)
	b.WriteString(`<div class="nav"><a href="/">Home</a> | <a href="/news">News</a> | <a href="/about">About</a></div>`)
	fmt.Fprintf(&b, "<h1>The mill wheel turns again, report number %d</h1>\n", i)
	for k := range 4 {
		fmt.Fprintf(&b, "<p>Report %d, paragraph %d. After sixty years of silence the wheel of the old corn mill turned again this spring, "+
			"when volunteers from the village finished repairing the sluice gate and the wooden paddles that the floods of the winter had broken.</p>\n", i, k)
	}
	b.WriteString(`<div class="footer">Copyright the Mill Society. <a href="/privacy">Privacy</a></div></body></html>`)
	return b.String()
}

func httpResponse(status, headers, body string) []byte {
	if !strings.Contains(headers, "Content-Length") && !strings.Contains(headers, "Transfer-Encoding") {
		headers += fmt.Sprintf("Content-Length: %d\r\n", len(body))
	}
	return []byte("HTTP/1.1 " + status + "\r\n" + headers + "\r\n" + body)
}

func responseRecord(uri string, block []byte) *warc.Record {
	return &warc.Record{Type: warc.TypeResponse, TargetURI: uri, Date: testDate,
		Header:  warc.Header{{Name: warc.FieldContentType, Value: "application/http; msgtype=response"}},
		Content: block}
}

// sharedPages returns the CleanEval development pages when the shared data
// is there, else nil.
func sharedPages(t testing.TB) [][]byte {
	pages, err := loadShared()
	if err != nil {
		t.Fatal(err)
	}
	return pages
}

func loadShared() ([][]byte, error) {
	dir := os.Getenv("SLUICE_DATA")
	if dir == "" {
		dir = "../../shared/data"
	}
	files, _ := filepath.Glob(filepath.Join(dir, "cleaneval-dev", "html", "*.html"))
	sort.Strings(files)
	var pages [][]byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		pages = append(pages, data)
	}
	return pages, nil
}

// testEntries returns the records of the test archive: pages to clean and
// one record for every skip reason. With shared, the CleanEval pages are
// added as responses.
func testEntries(t testing.TB, shared bool) []entry {
	var es []entry
	add := func(rec *warc.Record, want string) {
		if rec.Date.IsZero() {
			rec.Date = testDate
		}
		es = append(es, entry{rec, want})
	}
	add(&warc.Record{Type: warc.TypeWarcinfo, Header: warc.Header{{Name: warc.FieldContentType, Value: "application/warc-fields"}},
		Content: []byte("software: test\r\n")}, ReasonNotResponse)
	html := "Content-Type: text/html; charset=utf-8\r\n"
	for i := range 6 {
		uri := fmt.Sprintf("http://mill.example/report/%d", i)
		add(&warc.Record{Type: warc.TypeRequest, TargetURI: uri, Header: warc.Header{{Name: warc.FieldContentType, Value: "application/http; msgtype=request"}},
			Content: []byte("GET /report HTTP/1.1\r\nHost: mill.example\r\n\r\n")}, ReasonNotResponse)
		add(responseRecord(uri, httpResponse("200 OK", html, testPage(i))), cleaned)
	}
	add(&warc.Record{Type: warc.TypeMetadata, TargetURI: "http://mill.example/report/0", Content: []byte("fetchTimeMs: 12\r\n")}, ReasonNotResponse)
	// A revisit, a 404, a redirect, an image, plain text, an empty page,
	// a duplicate (the payload of report 1 at another address), a page
	// over the cap.
	rv := &warc.Record{Type: warc.TypeRevisit, TargetURI: "http://mill.example/report/1",
		Header:  warc.Header{{Name: "WARC-Profile", Value: "http://netpreserve.org/warc/1.0/revisit/identical-payload-digest"}},
		Content: []byte("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n")}
	add(rv, ReasonRevisit)
	add(responseRecord("http://mill.example/missing", httpResponse("404 Not Found", html, testPage(100))), "status 404")
	add(responseRecord("http://mill.example/old", httpResponse("301 Moved Permanently", "Location: /new\r\n", "")), "status 301")
	add(responseRecord("http://mill.example/wheel.png", httpResponse("200 OK", "Content-Type: image/png\r\n", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")), ReasonNotHTML)
	add(responseRecord("http://mill.example/robots.txt", httpResponse("200 OK", "Content-Type: text/plain\r\n", "User-agent: *\nDisallow:\n")), ReasonNotHTML)
	add(responseRecord("http://mill.example/empty", httpResponse("200 OK", html, " \n")), ReasonEmpty)
	add(responseRecord("http://mirror.example/report/1", httpResponse("200 OK", html, testPage(1))), ReasonDuplicate)
	add(responseRecord("http://mill.example/huge", httpResponse("200 OK", html, strings.Repeat(testPage(7), testMaxRecord/len(testPage(7))+2))), ReasonTooLarge)
	// Pages to clean in less usual shapes: no Content-Type, gzip and
	// chunked, a resource record, a missing reason phrase.
	add(responseRecord("http://mill.example/report/20", httpResponse("200 OK", "", testPage(20))), cleaned)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(testPage(21)))
	zw.Close()
	chunked := fmt.Sprintf("%x\r\n%s\r\n%x\r\n%s\r\n0\r\n\r\n", 100, gz.Bytes()[:100], gz.Len()-100, gz.Bytes()[100:])
	add(responseRecord("http://mill.example/report/21", httpResponse("200 OK", html+"Content-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n", chunked)), cleaned)
	add(&warc.Record{Type: warc.TypeResource, TargetURI: "http://mill.example/report/22", Header: warc.Header{{Name: warc.FieldContentType, Value: "text/html"}},
		Content: []byte(testPage(22))}, cleaned)
	add(responseRecord("http://mill.example/report/23", []byte("HTTP/1.0 200\r\nContent-Type: text/html\r\n\r\n"+testPage(23))), cleaned)
	if shared {
		for i, p := range sharedPages(t) {
			add(responseRecord(fmt.Sprintf("http://cleaneval.example/dev/%d", i), httpResponse("200 OK", html, string(p))), cleaned)
		}
	}
	for i := range 4 {
		add(responseRecord(fmt.Sprintf("http://mill.example/report/%d", 30+i), httpResponse("200 OK", html, testPage(30+i))), cleaned)
	}
	return es
}

// Damage done to a record of the damaged copy.
const (
	damageNone    = iota
	damageCut     // the record (its gzip member) cut in half
	damageGarbage // bytes that are not a record inserted before it
	damageLength  // a wrong Content-Length
	damageNoID    // no WARC-Record-ID (a required field)
)

// archive is a test archive on disk.
type archive struct {
	path    string
	entries []entry
	damaged map[int]int // entry index -> damage
	// garbage is the number of stretches of garbage inserted.
	garbage int
}

// buildArchive writes the entries as a WARC file in dir, gzip per record if
// gz, with the damage given per entry index.
func buildArchive(t testing.TB, dir, name string, es []entry, gz bool, damage map[int]int) *archive {
	t.Helper()
	a := &archive{path: filepath.Join(dir, name), entries: es, damaged: map[int]int{}}
	var out bytes.Buffer
	for i, e := range es {
		var raw bytes.Buffer
		if err := warc.NewWriter(&raw, false).WriteRecord(e.rec); err != nil {
			t.Fatal(err)
		}
		b := raw.Bytes()
		d := damage[i]
		switch d {
		case damageLength:
			cl := fmt.Sprintf("Content-Length: %d\r\n", len(e.rec.Content))
			b = bytes.Replace(b, []byte(cl), fmt.Appendf(nil, "Content-Length: %d\r\n", len(e.rec.Content)-7), 1)
		case damageNoID:
			id := "WARC-Record-ID: " + e.rec.ID() + "\r\n"
			b = bytes.Replace(b, []byte(id), nil, 1)
		case damageGarbage:
			out.WriteString("\x00\x01 this is not a record, it is garbage left by a broken crawler\r\n\r\n")
			a.garbage++
			d = damageNone // the record itself is intact
		}
		if gz {
			var m bytes.Buffer
			zw := gzip.NewWriter(&m)
			zw.Write(b)
			zw.Close()
			b = m.Bytes()
		}
		if d == damageCut {
			b = b[:len(b)/2]
		}
		if d != damageNone {
			a.damaged[i] = d
		}
		out.Write(b)
	}
	if err := os.WriteFile(a.path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return a
}

// damageFor picks records to damage in es: a page cut in half in the
// middle, garbage before a page, a wrong Content-Length, a missing
// WARC-Record-ID, and the last record cut short (the file ends inside it).
func damageFor(es []entry) map[int]int {
	var pages []int
	for i, e := range es {
		if e.want == cleaned && e.rec.Type == warc.TypeResponse {
			pages = append(pages, i)
		}
	}
	// pages[1] is report 1, whose duplicate comes later: leave it intact.
	return map[int]int{
		pages[2]:    damageCut,
		pages[3]:    damageGarbage,
		pages[4]:    damageLength,
		pages[5]:    damageNoID,
		len(es) - 1: damageCut,
	}
}

// want returns what Run must report for the archive: the IDs of the
// records to clean and the skip counts, leaving out damaged records.
func (a *archive) want() (ids map[string]string, skipped map[string]int64) {
	ids = map[string]string{}
	skipped = map[string]int64{}
	for i, e := range a.entries {
		if a.damaged[i] != damageNone {
			continue
		}
		if e.want == cleaned {
			ids[e.rec.ID()] = e.rec.TargetURI
		} else {
			skipped[e.want]++
		}
	}
	return ids, skipped
}

// runCorpus runs the engine with the test options.
func runCorpus(t testing.TB, out string, inputs []string, o Options) (*Summary, []Problem) {
	t.Helper()
	if o.Cleaner == nil {
		o.Cleaner = testCleaner(t)
	}
	o.MaxRecordBytes = testMaxRecord
	var mu sync.Mutex
	var probs []Problem
	o.Report = func(p Problem) {
		mu.Lock()
		probs = append(probs, p)
		mu.Unlock()
	}
	sum, err := Run(context.Background(), out, inputs, o)
	if err != nil {
		t.Fatal(err)
	}
	if err := sum.Check(); err != nil {
		t.Fatal(err)
	}
	return sum, probs
}

var cleanerOnce = sync.OnceValues(func() (*sluice.Cleaner, error) { return sluice.New(sluice.Options{}) })

func testCleaner(t testing.TB) *sluice.Cleaner {
	c, err := cleanerOnce()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// outputIDs reads the output directory and returns, for each page written,
// its source record ID (jsonl and warc) or URL (cleaneval), in order.
func outputIDs(t testing.TB, dir, format string) []string {
	t.Helper()
	var ids []string
	switch format {
	case FormatJSONL, FormatJSONLGzip, FormatJSONLZstd:
		for _, d := range readDocs(t, dir) {
			if d.Text == "" || len(d.Blocks) == 0 {
				t.Errorf("%s: no text", d.URL)
			}
			checkSource(t, d)
			ids = append(ids, d.Source.RecordID)
		}
	case FormatWARC:
		files, _ := filepath.Glob(filepath.Join(dir, "part-*.warc.gz"))
		sort.Strings(files)
		for _, f := range files {
			fh, err := os.Open(f)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for rec, err := range warc.NewReader(fh, warc.Options{}).Records() {
				if err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				if n == 0 && rec.Type != warc.TypeWarcinfo {
					t.Errorf("%s: starts with a %s record", f, rec.Type)
				}
				if rec.Type == warc.TypeConversion {
					if len(bytes.TrimSpace(rec.Content)) == 0 {
						t.Errorf("%s: %s: empty conversion", f, rec.TargetURI)
					}
					ids = append(ids, rec.Header.Get(warc.FieldRefersTo))
				}
				n++
			}
			fh.Close()
		}
	case FormatCleanEval:
		data, err := os.ReadFile(filepath.Join(dir, corpusName))
		if err != nil {
			t.Fatal(err)
		}
		docs := strings.Split(string(data), "<doc>\n")
		if docs[0] != "" {
			t.Fatalf("corpus.txt does not start with <doc>: %q", docs[0][:min(len(docs[0]), 40)])
		}
		for _, d := range docs[1:] {
			url, _, _ := strings.Cut(strings.TrimPrefix(d, "URL: "), "\n")
			if !strings.HasPrefix(d, "URL: ") || !strings.Contains(d, "<") {
				t.Errorf("bad document %q", d[:min(len(d), 80)])
			}
			ids = append(ids, url)
		}
	}
	return ids
}

// checkSource checks that a jsonl document's source points at its record.
func checkSource(t testing.TB, d render.JSONDocument) {
	t.Helper()
	if d.Source.RecordID == "" {
		return
	}
	f, err := os.Open(d.Source.File)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sec := io.NewSectionReader(f, d.Source.Offset, d.Source.Length)
	for rec, err := range warc.NewReader(sec, warc.Options{}).Records() {
		if err != nil {
			t.Errorf("%s: record at %d+%d: %v", d.URL, d.Source.Offset, d.Source.Length, err)
			return
		}
		if rec.ID() != d.Source.RecordID {
			t.Errorf("%s: the record at %d is %s, not %s", d.URL, d.Source.Offset, rec.ID(), d.Source.RecordID)
		}
		return
	}
	t.Errorf("%s: no record at %d", d.URL, d.Source.Offset)
}

// checkOutput checks that every page in want appears exactly once in the
// output and nothing else does. want maps record IDs to URLs.
func checkOutput(t testing.TB, dir, format string, want map[string]string) {
	t.Helper()
	got := map[string]int{}
	for _, id := range outputIDs(t, dir, format) {
		got[id]++
	}
	key := func(id string) string {
		if format == FormatCleanEval {
			return want[id]
		}
		return id
	}
	for id := range want {
		if n := got[key(id)]; n != 1 {
			t.Errorf("%s: %s (%s) is in the output %d times, want once", format, id, want[id], n)
		}
		delete(got, key(id))
	}
	for k, n := range got {
		t.Errorf("%s: %s is in the output %d times but should not be", format, k, n)
	}
}

func gzipBytes(data []byte) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(data)
	zw.Close()
	return b.Bytes()
}

// readDocs reads the jsonl parts of dir, in order, decompressing the
// .jsonl.gz and .jsonl.zst ones.
func readDocs(t testing.TB, dir string) []render.JSONDocument {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "part-*.jsonl*"))
	sort.Strings(files)
	var docs []render.JSONDocument
	for _, f := range files {
		data := readPart(t, f)
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			var d render.JSONDocument
			if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			docs = append(docs, d)
		}
	}
	return docs
}

// readPart returns the content of a part file, decompressed: a
// .jsonl.gz part as a multi-member gzip stream, a .jsonl.zst part as
// concatenated zstd frames.
func readPart(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case strings.HasSuffix(path, ".gz"):
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if data, err = io.ReadAll(zr); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	case strings.HasSuffix(path, ".zst"):
		dec, err := zstd.NewReader(nil)
		if err != nil {
			t.Fatal(err)
		}
		defer dec.Close()
		if data, err = dec.DecodeAll(data, nil); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	return data
}

// checkSameOutput runs the archive at path once per option set, into dir,
// and checks that the first jsonl part is the same every time.
func checkSameOutput(t *testing.T, dir, path string, runs []Options) {
	t.Helper()
	var outs []string
	for _, o := range runs {
		out := filepath.Join(dir, fmt.Sprintf("out-%d-%d", o.Jobs, o.InFlightBytes))
		runCorpus(t, out, []string{path}, o)
		data, err := os.ReadFile(filepath.Join(out, "part-00001.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, string(data))
	}
	for i := 1; i < len(outs); i++ {
		if outs[i] != outs[0] {
			t.Errorf("output %d differs from output 0", i)
		}
	}
}
