package pipeline

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/corpus"
	"github.com/sluice-project/sluice/render"
	"github.com/sluice-project/sluice/warc"
)

// TestMain initialises Beam (beam.Init), which a test binary that runs
// pipelines must do before the tests. The SDK leaves an empty
// beamloopbackworker-* file in the temporary directory for every pipeline
// it runs in loopback mode (runnerlib/execute.go: Beam issue 27569), so
// the tests get a temporary directory of their own, removed after them.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "sluice-beam-test-")
	if err == nil {
		os.Setenv("TMPDIR", dir)
	}
	code := ptest.MainRetWithDefault(m, "prism")
	if err == nil {
		os.RemoveAll(dir)
	}
	os.Exit(code)
}

// htmlPage is an HTML page the archives of the test hold and the pipeline must
// clean.
type htmlPage struct {
	url, contentType string
	body             []byte // the HTTP body as decoded (the cleaner's input)
	title, mustKeep  string
}

func article(title, heading string, paras ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html><head><title>%s</title></head><body>\n", title)
	b.WriteString(`<div id="nav"><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/about">About us</a></li></ul></div>` + "\n")
	fmt.Fprintf(&b, "<div id=\"content\"><h1>%s</h1>\n", heading)
	for _, p := range paras {
		fmt.Fprintf(&b, "<p>%s</p>\n", p)
	}
	b.WriteString("</div>\n<div id=\"footer\">Copyright 2024 Example Corp. All rights reserved. <a href=\"/privacy\">Privacy</a></div>\n</body></html>\n")
	return b.String()
}

const (
	para1 = "The river carried the spring flood down to the valley, where the farmers had built low stone walls to keep the water from their fields."
	para2 = "Each year the walls were repaired by the families whose land they protected, and each year the work took a little longer than before."
	para3 = "In the archives of the village, letters from the last century describe the same work, the same walls and the same arguments about who should pay."
)

type archive struct {
	t  *testing.T
	f  *os.File
	w  *warc.Writer
	at time.Time
}

func newArchive(t *testing.T, path string, gzipRecords bool) *archive {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	return &archive{t: t, f: f, w: warc.NewWriter(f, gzipRecords), at: time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)}
}

func (a *archive) record(typ, uri, contentType string, content []byte, extra ...warc.Field) *warc.Record {
	a.t.Helper()
	h := warc.Header{}
	if contentType != "" {
		h = append(h, warc.Field{Name: "Content-Type", Value: contentType})
	}
	h = append(h, extra...)
	rec := &warc.Record{Type: typ, TargetURI: uri, Date: a.at, Header: h, Content: content}
	if err := a.w.WriteRecord(rec); err != nil {
		a.t.Fatal(err)
	}
	return rec
}

// response writes a response record: status line, headers, body as sent.
func (a *archive) response(uri string, status int, headers string, body []byte) *warc.Record {
	msg := fmt.Sprintf("HTTP/1.1 %d %s\r\n%s\r\n", status, statusText(status), headers)
	return a.record(warc.TypeResponse, uri, "application/http; msgtype=response", append([]byte(msg), body...))
}

func statusText(code int) string {
	switch code {
	case 200:
		return "OK"
	case 301:
		return "Moved Permanently"
	case 404:
		return "Not Found"
	}
	return ""
}

func (a *archive) close() {
	if err := a.f.Close(); err != nil {
		a.t.Fatal(err)
	}
}

func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// writeArchives writes two small archives into dir: one compressed record
// by record, one plain with damaged bytes between two records. It returns
// the HTML pages they hold, which the pipeline must clean, each once.
func writeArchives(t *testing.T, dir string) []htmlPage {
	var pages []htmlPage

	a := newArchive(t, filepath.Join(dir, "a.warc.gz"), true)
	if _, err := a.w.WriteWarcinfo("a.warc.gz", warc.Header{{Name: "software", Value: "sluice beam test"}}); err != nil {
		t.Fatal(err)
	}
	a.record(warc.TypeRequest, "http://example.com/a1", "application/http; msgtype=request",
		[]byte("GET /a1 HTTP/1.1\r\nHost: example.com\r\n\r\n"))
	a1 := article("Stone walls", "The walls of the valley", para1, para2, para3)
	a.response("http://example.com/a1", 200, "Content-Type: text/html; charset=utf-8\r\n", []byte(a1))
	pages = append(pages, htmlPage{"http://example.com/a1", "text/html; charset=utf-8", []byte(a1), "Stone walls", para2})

	// windows-1252 and gzip content coding: the cleaner must get the
	// decoded body and the charset.
	a2 := []byte(article("Caf\xe9 society", "Caf\xe9 society", "The caf\xe9 on the square opened at six, before the market, and the first customers were always the traders who had driven in from the farms.", para2))
	a.response("http://Example.com:8080/a2?x=1", 200, "Content-Type: text/html; charset=windows-1252\r\nContent-Encoding: gzip\r\n", gzipped(a2))
	pages = append(pages, htmlPage{"http://Example.com:8080/a2?x=1", "text/html; charset=windows-1252", a2, "Café society", "The café on the square opened at six"})

	a.response("http://example.com/missing", 404, "Content-Type: text/html\r\n", []byte(article("Not found", "Not found", "This page does not exist. Try the home page or the search box above.")))
	a.response("http://example.com/logo.png", 200, "Content-Type: image/png\r\n", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"))
	a.record(warc.TypeMetadata, "http://example.com/a1", "application/warc-fields", []byte("via: http://example.com/\r\n"))
	a.close()

	b := newArchive(t, filepath.Join(dir, "b.warc"), false)
	b1 := article("Letters", "Letters from the archive", para3, para1)
	b.response("http://www.example.org/b1", 200, "Content-Type: application/xhtml+xml\r\n", []byte(b1))
	pages = append(pages, htmlPage{"http://www.example.org/b1", "application/xhtml+xml", []byte(b1), "Letters", para3})
	if _, err := b.f.WriteString("this line is not a WARC record\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	b.response("http://www.example.org/data.json", 200, "Content-Type: application/json\r\n", []byte(`{"html": "<p>not a page</p>"}`))
	b.record(warc.TypeRevisit, "http://example.com/a1", "application/http; msgtype=response",
		[]byte("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n"),
		warc.Field{Name: "WARC-Profile", Value: "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"},
		warc.Field{Name: "WARC-Refers-To-Target-URI", Value: "http://example.com/a1"})
	b2 := article("Resource", "A page stored as a resource", para2, para3)
	b.record(warc.TypeResource, "http://www.example.org/b2", "text/html", []byte(b2))
	pages = append(pages, htmlPage{"http://www.example.org/b2", "text/html", []byte(b2), "Resource", para2})
	b.response("http://www.example.org/old", 301, "Location: http://www.example.org/b1\r\nContent-Type: text/html\r\n", []byte("<html><body><p>Moved <a href=\"/b1\">here</a>.</p></body></html>"))
	b3 := article("Sniffed", "No Content-Type", para1, para3)
	b.response("http://www.example.org/b3", 200, "Server: test\r\n", []byte(b3))
	pages = append(pages, htmlPage{"http://www.example.org/b3", "", []byte(b3), "Sniffed", para1})
	b.response("http://www.example.org/empty", 200, "Content-Type: text/html\r\n", nil)
	b.close()
	return pages
}

// expectedDoc cleans p directly, as the pipeline must.
func expectedDoc(t *testing.T, c *sluice.Cleaner, p htmlPage) render.JSONDocument {
	t.Helper()
	res, err := c.Clean(context.Background(), sluice.Input{Data: p.body, ContentType: p.contentType, URL: p.url})
	if err != nil {
		t.Fatalf("%s: %v", p.url, err)
	}
	var text bytes.Buffer
	r, _ := render.Lookup("text", render.Options{})
	if err := r.Render(&text, res.Page); err != nil {
		t.Fatal(err)
	}
	return render.JSONDocument{URL: p.url, Title: res.Page.Meta.Title, Text: strings.TrimRight(text.String(), "\n")}
}

// readShards reads the lines of the shard files and checks that there are
// exactly n of them.
func readShards(t *testing.T, prefix, suffix string, n int) []string {
	t.Helper()
	matches, _ := filepath.Glob(prefix + "-*")
	var want []string
	for i := range n {
		want = append(want, ShardName(prefix, suffix, i, n))
	}
	slices.Sort(matches)
	if !slices.Equal(matches, want) {
		t.Fatalf("output files:\n%s\nwant:\n%s", strings.Join(matches, "\n"), strings.Join(want, "\n"))
	}
	var lines []string
	for _, name := range matches {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		var r io.Reader = f
		if strings.HasSuffix(name, ".gz") {
			zr, err := gzip.NewReader(f)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			r = zr
		}
		sc := bufio.NewScanner(r)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			lines = append(lines, sc.Text())
		}
		if err := sc.Err(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		f.Close()
	}
	return lines
}

func TestPipelineOnPrism(t *testing.T) {
	dir := t.TempDir()
	pages := writeArchives(t, dir)

	for _, tc := range []struct {
		name string
		o    Options
	}{
		{"defaults", Options{Shards: 3}},
		{"rebalance-gzip-filter", Options{Shards: 7, Suffix: ".jsonl.gz", Rebalance: true, Cleaner: sluice.Options{Filter: sluice.DefaultFilter}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.o
			o.Input = filepath.Join(dir, "*.warc*")
			o.Output = filepath.Join(dir, tc.name, "pages")
			lines, counters := runBeam(t, o)
			c, err := sluice.New(o.Cleaner)
			if err != nil {
				t.Fatal(err)
			}
			matches, _ := filepath.Glob(o.Input)
			clines, sum := runCorpus(t, filepath.Join(dir, tc.name, "corpus"), matches,
				corpus.Options{Cleaner: c, Jobs: 2, DedupWindow: -1})
			got := compareRuns(t, lines, counters, clines, sum)
			if len(got) != len(pages) {
				var urls []string
				for u := range got {
					urls = append(urls, u)
				}
				slices.Sort(urls)
				t.Errorf("%d pages written, want %d: %v", len(got), len(pages), urls)
			}

			for _, p := range pages {
				d, ok := got[p.url]
				if !ok {
					t.Errorf("%s: not in the output", p.url)
					continue
				}
				want := expectedDoc(t, c, p)
				if d.Text != want.Text {
					t.Errorf("%s: text\n%q\nwant (cleaned directly)\n%q", p.url, d.Text, want.Text)
				}
				if d.Title != p.title || d.Title != want.Title {
					t.Errorf("%s: title %q, want %q", p.url, d.Title, p.title)
				}
				if !strings.Contains(d.Text, p.mustKeep) {
					t.Errorf("%s: the main text %q was not kept:\n%s", p.url, p.mustKeep, d.Text)
				}
				if d.Date != "2024-05-06T07:08:09Z" {
					t.Errorf("%s: date %q", p.url, d.Date)
				}
				if d.Host != hostOf(p.url) || d.Host == "" || strings.ContainsAny(d.Host, ":/") {
					t.Errorf("%s: host %q", p.url, d.Host)
				}
				if d.Source == nil || filepath.Dir(d.Source.File) != dir {
					t.Errorf("%s: source %+v", p.url, d.Source)
				}
			}
			if d := got["http://Example.com:8080/a2?x=1"]; d.Host != "example.com" {
				t.Errorf("host of http://Example.com:8080/a2?x=1: %q, want example.com", d.Host)
			}

			want := map[string]int64{
				CounterRecords:                           15, // 14 records and the damaged bytes
				CounterCleaned:                           5,
				SkippedPrefix + corpus.ReasonNotResponse: 3, // warcinfo, request, metadata
				SkippedPrefix + corpus.ReasonRevisit:     1,
				SkippedPrefix + "status 404":             1,
				SkippedPrefix + "status 301":             1,
				SkippedPrefix + corpus.ReasonNotHTML:     2, // image/png, application/json
				SkippedPrefix + corpus.ReasonEmpty:       1,
			}
			for name, n := range want {
				if counters[name] != n {
					t.Errorf("counter %s = %d, want %d", name, counters[name], n)
				}
			}
			if counters[FailedPrefix+"archive: garbage between records"] < 1 {
				t.Errorf("no damage counted (the line between two records of b.warc): %v", counters)
			}
		})
	}
}

func TestBuildErrors(t *testing.T) {
	for _, o := range []Options{
		{Output: "/tmp/x"},
		{Input: "/tmp/*.warc"},
		{Input: "/tmp/*.warc", Output: "/tmp/x", Shards: -1},
		{Input: "/tmp/*.warc", Output: "/tmp/x", Cleaner: sluice.Options{Filter: "no-such-filter"}},
		{Input: "nosuch://bucket/*.warc", Output: "/tmp/x"},
		{Input: "/tmp/*.warc", Output: "/tmp/x", NearDuplicate: 1.5},
	} {
		_, s := beam.NewPipelineWithRoot()
		if err := Build(s, o); err == nil {
			t.Errorf("Build(%+v) did not fail", o)
		}
	}
}

func TestShardName(t *testing.T) {
	for _, tc := range []struct {
		i, n int
		want string
	}{
		{0, 1, "out/p-00000-of-00001.jsonl"},
		{41, 256, "out/p-00041-of-00256.jsonl"},
		{7, 123456, "out/p-000007-of-123456.jsonl"},
	} {
		if got := ShardName("out/p", ".jsonl", tc.i, tc.n); got != tc.want {
			t.Errorf("ShardName(%d, %d) = %q, want %q", tc.i, tc.n, got, tc.want)
		}
	}
}
