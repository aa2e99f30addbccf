package xhtml_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/dataset"
	"github.com/sluice-project/sluice/ingest"
	"github.com/sluice-project/sluice/inputs"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/xhtml"
)

// dataRoot is the shared data directory ($SLUICE_DATA or ../shared/data).
func dataRoot() string {
	root, err := dataset.Root()
	if err != nil {
		return "/work/shared/data"
	}
	return root
}

// TestSharedPagesParse normalises every page of every shared data set and
// parses the result as strict XML (with -short, every 20th page), the
// content-only output too for one page in ten of those: the
// */html/* pages (.gz ones decompressed) and l3s-gn1's original pages.
func TestSharedPagesParse(t *testing.T) {
	files := sharedFiles(t, "*/html/*", "l3s-gn1/original/*")
	step := 1
	if testing.Short() {
		step = 20
	}
	n, skipped := 0, 0
	var buf bytes.Buffer
	for i := 0; i < len(files); i += step {
		src, err := inputs.Read(files[i], nil, 64<<20) // .gz decompressed
		if err != nil {
			t.Fatal(err)
		}
		buf.Reset()
		if _, err := xhtml.Normalize(&buf, src, xhtml.Options{}); err != nil {
			if errors.Is(err, ingest.ErrEmpty) || errors.Is(err, ingest.ErrBinary) {
				skipped++
				continue
			}
			t.Errorf("%s: %v", files[i], err)
			continue
		}
		if err := strictParse(buf.Bytes()); err != nil {
			t.Errorf("%s: not strict XML: %v", files[i], err)
		}
		if i%(10*step) == 0 {
			contentXHTML(t, src) // the content-only output of one page in ten
		}
		n++
	}
	t.Logf("%d pages normalised and parsed as strict XML, %d empty or binary", n, skipped)
}

// FuzzNormalize checks that whatever the input, the output is strict XML,
// the whole page's and the content-only one's.
func FuzzNormalize(f *testing.F) {
	for _, s := range []string{
		`<p>a<b>b</p>c`, `<script>]]></script>`, `<!-- -- -->`, "<p \x00=1 a'b=2>&#128;&#x9f;\x85",
		`<svg><foreignObject><math><mi xlink:href=1>`, `<table><tr><td><table>`, "\xef\xbb\xbf<html>\xff\xfe",
		`<a href="&quot;&#0;&#xD800;">`, `<o:p xmlns:o=urn:x>t</o:p>`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		var b bytes.Buffer
		if _, err := xhtml.Normalize(&b, src, xhtml.Options{}); err != nil {
			return
		}
		if err := strictParse(b.Bytes()); err != nil {
			t.Fatalf("not strict XML: %v\ninput %q\noutput %s", err, src, b.String())
		}
		// Content only, with blocks over arbitrary spans of the input.
		p := &page.Page{}
		for i := 0; i+1 < min(len(src), 16); i += 2 {
			s, e := int(src[i])*len(src)/256, int(src[i+1])*len(src)/256
			p.Blocks = append(p.Blocks, page.Block{Source: page.Span{Start: s, End: e}, Label: page.Label(i / 2 % 3)})
		}
		b.Reset()
		if _, err := xhtml.Normalize(&b, src, xhtml.Options{Content: p}); err != nil {
			t.Fatalf("content: %v", err)
		}
		if err := strictParse(b.Bytes()); err != nil {
			t.Fatalf("content: not strict XML: %v\ninput %q\noutput %s", err, src, b.String())
		}
	})
}

// sharedFiles lists the files below the shared data root that match the
// patterns, sorted; tb is skipped when there are none.
func sharedFiles(tb testing.TB, patterns ...string) []string {
	tb.Helper()
	var files []string
	for _, p := range patterns {
		m, _ := filepath.Glob(filepath.Join(dataRoot(), p))
		files = append(files, m...)
	}
	if len(files) == 0 {
		tb.Skipf("no shared pages under %s", dataRoot())
	}
	slices.Sort(files)
	return files
}

// benchPages reads the cleaneval-dev pages.
func benchPages(b *testing.B) [][]byte {
	var pages [][]byte
	for _, f := range sharedFiles(b, "cleaneval-dev/html/*") {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		pages = append(pages, data)
	}
	return pages
}

var benchCleaner = sync.OnceValues(func() (*sluice.Cleaner, error) { return sluice.New(sluice.Options{}) })

// BenchmarkNormalize normalises the cleaneval-dev pages; compare its
// pages/s with BenchmarkClean's (the default cleaner on the same pages): 1022
// against 352 pages/s, 2.9 times as fast, on 2 CPUs (2026-11-26).
func BenchmarkNormalize(b *testing.B) {
	pages := benchPages(b)
	bytesIn := 0
	for _, p := range pages {
		bytesIn += len(p)
	}
	b.ResetTimer()
	for b.Loop() {
		for _, p := range pages {
			if _, err := xhtml.Normalize(io.Discard, p, xhtml.Options{}); err != nil && !errors.Is(err, ingest.ErrEmpty) {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(pages)*b.N)/b.Elapsed().Seconds(), "pages/s")
	b.ReportMetric(float64(bytesIn*b.N)/b.Elapsed().Seconds()/1e6, "MB/s")
}

// BenchmarkClean cleans the same pages with the default cleaner.
func BenchmarkClean(b *testing.B) {
	pages := benchPages(b)
	c, err := benchCleaner()
	if err != nil {
		b.Fatal(err)
	}
	bytesIn := 0
	for _, p := range pages {
		bytesIn += len(p)
	}
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		for _, p := range pages {
			if _, err := c.Clean(ctx, sluice.Input{Data: p}); err != nil && !errors.Is(err, ingest.ErrEmpty) {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(pages)*b.N)/b.Elapsed().Seconds(), "pages/s")
	b.ReportMetric(float64(bytesIn*b.N)/b.Elapsed().Seconds()/1e6, "MB/s")
}

// contentXHTML cleans src with the default cleaner and writes its content
// as XHTML.
func contentXHTML(t testing.TB, src []byte) []byte {
	t.Helper()
	c, err := benchCleaner()
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Clean(context.Background(), sluice.Input{Data: src})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := xhtml.Normalize(&buf, src, xhtml.Options{Content: res.Page}); err != nil {
		t.Fatal(err)
	}
	if err := strictParse(buf.Bytes()); err != nil {
		t.Fatalf("content XHTML is not strict XML: %v\n%s", err, buf.String())
	}
	return buf.Bytes()
}

func TestContent(t *testing.T) {
	var para bytes.Buffer
	for range 6 {
		para.WriteString("<p>The old mill by the river was restored by the village over three long summers, and its wheel now turns again for visitors who come from far away to see it.</p>\n")
	}
	src := []byte(`<html><head><title>Mill &amp; wheel</title><script>x()</script></head><body>
<ul id=nav><li><a href=/>Home</a><li><a href=/a>About</a><li><a href=/c>Contact</a></ul>
<div id=main><h1>The <em>mill</em> wheel</h1>` + para.String() + `
<table><tr><th>Year</th><th>Event of the mill restoration in the village</th></tr><tr><td>1901</td><td>The wheel was built by the miller and his sons, who carved each paddle by hand from oak.</td></tr></table>
</div><div id=footer>Copyright 2024 · <a href=/p>Privacy</a></div></body></html>`)
	out := string(contentXHTML(t, src))
	for _, want := range []string{"<title>Mill &amp; wheel</title>", "<h1>The <em>mill</em> wheel</h1>", "<p>The old mill by the river", `<div id="main">`} {
		if !bytes.Contains([]byte(out), []byte(want)) {
			t.Errorf("content lacks %q:\n%s", want, out)
		}
	}
	for _, not := range []string{"Contact", "Privacy", "x()"} {
		if bytes.Contains([]byte(out), []byte(not)) {
			t.Errorf("content holds %q:\n%s", not, out)
		}
	}
}
