package crawlsort_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sluice-project/sluice/corpus"
	"github.com/sluice-project/sluice/crawlsort"
	"github.com/sluice-project/sluice/warc"
)

// sitePage is a page of host with its own paragraphs in the site's
// template (a menu, a note and a footer on every page).
func sitePage(host string, i int) *warc.Record {
	w := func(k int) string { return words[(i*7+k*3)%len(words)] + " " + words[(i*5+k*11+1)%len(words)] }
	html := fmt.Sprintf(`<html><head><title>%s report</title></head><body>
<div class="nav"><a href="/">Home</a> | <a href="/news">News</a> | <a href="/about">About</a></div>
<h1>The %s and the %s on the river today</h1>
<p>This morning the %s met the %s near the old bridge, and after a long talk about the %s they walked on to see the %s together.</p>
<p>Later the %s came back with the %s, and everyone agreed that the %s had never looked better than it did on that afternoon.</p>
<p>The society of the river is a charity of volunteers who keep the river path open to walkers every weekend of the year.</p>
<div class="footer"><p>Copyright the society of the river. Letters to the editor are welcome at the office.</p></div>
</body></html>`, host, w(0), w(1), w(2), w(3), w(4), w(5), w(6), w(7), w(8))
	body := fmt.Appendf(nil, "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: %d\r\n\r\n%s", len(html), html)
	rec := &warc.Record{Type: warc.TypeResponse, TargetURI: fmt.Sprintf("http://%s/report/%d", host, i), Date: time.Date(2024, 5, 6, 7, 8, i, 0, time.UTC), Content: body}
	rec.Header.Set(warc.FieldContentType, "application/http; msgtype=response")
	return rec
}

var words = []string{"miller", "heron", "ferryman", "orchard", "lantern", "willow", "barge", "kingfisher", "meadow", "baker",
	"weir", "otter", "chapel", "harvest", "blacksmith", "cider", "granary", "swan", "towpath", "shepherd", "quarry", "bellringer", "mist"}

func writeCrawl(t *testing.T, path string, recs []*warc.Record) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := warc.NewWriter(f, true)
	for _, r := range recs {
		if err := w.WriteRecord(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// sitePages runs corpus --site over paths and returns, for each page of
// host, how many pages the site model that judged it was built from.
func sitePages(t *testing.T, dir string, paths []string, host string) []int {
	t.Helper()
	if sum, err := corpus.Run(context.Background(), dir, paths, corpus.Options{Format: corpus.FormatJSONL, Site: true}); err != nil || sum == nil {
		t.Fatal(err)
	}
	parts, _ := filepath.Glob(filepath.Join(dir, "part-*.jsonl"))
	var pages []int
	for _, p := range parts {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			var doc struct {
				Host string
				Site *struct{ Pages int }
			}
			if err := json.Unmarshal(sc.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			if doc.Host == host {
				n := 0
				if doc.Site != nil {
					n = doc.Site.Pages
				}
				pages = append(pages, n)
			}
		}
		f.Close()
	}
	return pages
}

// The pages of one host spread over two archives: corpus --site sees
// them in two halves, and after sluice sort whole.
func TestCorpusSiteSeesSortedHostWhole(t *testing.T) {
	tmp := t.TempDir()
	var a, b []*warc.Record
	for i := range 8 {
		a = append(a, sitePage("mill.example", 2*i), sitePage("river.example", 2*i))
		b = append(b, sitePage("river.example", 2*i+1), sitePage("www.mill.example", 2*i+1))
	}
	in := []string{filepath.Join(tmp, "a.warc.gz"), filepath.Join(tmp, "b.warc.gz")}
	writeCrawl(t, in[0], a)
	writeCrawl(t, in[1], b)
	before := sitePages(t, filepath.Join(tmp, "unsorted"), in, "mill.example")
	sorted := filepath.Join(tmp, "sorted")
	if _, err := crawlsort.Run(context.Background(), sorted, in, crawlsort.Options{}); err != nil {
		t.Fatal(err)
	}
	parts, _ := filepath.Glob(filepath.Join(sorted, "part-*.warc.gz"))
	after := sitePages(t, filepath.Join(tmp, "corpus"), parts, "mill.example")
	if len(after) != 8 {
		t.Fatalf("%d pages of mill.example after sorting, want 8 (www. dropped)", len(after))
	}
	for i, n := range after {
		if n != 16 {
			t.Errorf("sorted: page %d of mill.example judged by a model of %d pages, want 16", i, n)
		}
	}
	if len(before) != 8 {
		t.Fatalf("%d pages of mill.example without sorting, want 8", len(before))
	}
	for i, n := range before {
		if n >= 16 {
			t.Errorf("unsorted: page %d of mill.example judged by a model of %d pages: the test does not split the host", i, n)
		}
	}
}
