package corpus

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/site"
)

// weirPage is page i of weir.example: mill.example's layout with a
// template of its own.
func weirPage(i int) string {
	return strings.NewReplacer("Mill Society", "Weir Club", "corn mill", "weir and lock", "Mill diary", "Weir log",
		"1234567", "7654321").Replace(sitePage(i))
}

// spreadCrawl writes the 12 pages of mill.example and of weir.example
// (www.weir.example in half of its addresses: the same site) as archives
// in dir: one sorted by host, and files archives over which each host's
// pages are dealt in turn, each archive shuffled (the third has a page
// gone too, skipped as "status 404"). It returns the sorted
// archive and the spread ones.
func spreadCrawl(t *testing.T, dir string, files int) (sorted string, spread []string) {
	html := "Content-Type: text/html; charset=utf-8\r\n"
	var all []entry
	deal := make([][]entry, files)
	for h, host := range []string{"mill", "weir"} {
		for i := range 12 {
			uri, body := fmt.Sprintf("http://mill.example/diary/%d", i), sitePage(i)
			if host == "weir" {
				uri, body = fmt.Sprintf("http://www.weir.example/log/%d", i), weirPage(i)
				if i%2 == 0 {
					uri = strings.Replace(uri, "www.", "", 1)
				}
			}
			e := entry{responseRecord(uri, httpResponse("200 OK", html, body)), cleaned}
			all = append(all, e)
			deal[(i+h)%files] = append(deal[(i+h)%files], e)
		}
	}
	sorted = buildArchive(t, dir, "sorted.warc.gz", all, true, nil).path
	deal[2] = append(deal[2], entry{responseRecord("http://mill.example/gone", httpResponse("404 Not Found", html, sitePage(12))), "status 404"})
	rng := rand.New(rand.NewPCG(25, 2))
	for k, es := range deal {
		rng.Shuffle(len(es), func(i, j int) { es[i], es[j] = es[j], es[i] })
		spread = append(spread, buildArchive(t, dir, fmt.Sprintf("crawl-%d.warc.gz", k), es, true, nil).path)
	}
	return sorted, spread
}

// siteTexts returns the text and site field of every page written to dir,
// by URL.
func siteTexts(t *testing.T, dir string) map[string]string {
	m := map[string]string{}
	for _, d := range readDocs(t, dir) {
		m[d.URL] = fmt.Sprintf("%+v\n%s", d.Site, d.Text)
	}
	return m
}

// TestSiteWhole: a crawl whose hosts' pages are spread over six shuffled
// archives, two pages of a host in each. --site on the archive sorted by
// host removes the templates; on the spread archives it cannot (a host
// never has three pages in one input); SiteWhole on the spread archives
// does as the sorted run does, page for page, whatever Jobs is.
func TestSiteWhole(t *testing.T) {
	dir := t.TempDir()
	sorted, spread := spreadCrawl(t, dir, 6)
	sumSorted, _ := runCorpus(t, filepath.Join(dir, "sorted"), []string{sorted}, Options{Site: true})
	sumOne, _ := runCorpus(t, filepath.Join(dir, "one"), spread, Options{Site: true})
	if sumSorted.Site.Dropped < 2*24 || sumOne.Site.Dropped != 0 {
		t.Fatalf("--site: %d blocks dropped on the sorted archive (want 2 a page or more), %d on the spread ones (want 0)",
			sumSorted.Site.Dropped, sumOne.Site.Dropped)
	}
	want := siteTexts(t, filepath.Join(dir, "sorted"))
	var part string
	for _, jobs := range []int{1, 3} {
		out := filepath.Join(dir, fmt.Sprint("whole-", jobs))
		sum, _ := runCorpus(t, out, spread, Options{SiteWhole: true, Jobs: jobs})
		if *sum.Site.Learned != (site.LearnStats{Hosts: 2, Pages: 24}) || sum.Site.Pages != 24 ||
			sum.Site.Dropped != sumSorted.Site.Dropped || sum.Site.Rescued != sumSorted.Site.Rescued {
			t.Errorf("-j %d: site %+v, learned %+v; want the sorted run's %+v, learned from 2 hosts, 24 pages", jobs, *sum.Site, *sum.Site.Learned, *sumSorted.Site)
		}
		got := siteTexts(t, out)
		for url, w := range want {
			if got[url] != w {
				t.Errorf("-j %d: %s:\n%s\nwant, as --site on the sorted archive:\n%s", jobs, url, got[url], w)
			}
		}
		data, err := os.ReadFile(filepath.Join(out, "part-00001.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		if part != "" && string(data) != part {
			t.Errorf("-j %d: the output differs from -j 1's", jobs)
		}
		part = string(data)
	}
}

// TestSiteWholeBounded: many hosts of one page and a host over the cap,
// with a small memory bound for the tables: the hosts of one page are
// dropped (counted), the host over the cap is learned from its first
// pages and every one of its pages corrected, and every record is
// accounted for, a damaged one too.
func TestSiteWholeBounded(t *testing.T) {
	dir := t.TempDir()
	html := "Content-Type: text/html; charset=utf-8\r\n"
	var es []entry
	for i := range 120 {
		es = append(es, entry{responseRecord(fmt.Sprintf("http://h%03d.example/", i), httpResponse("200 OK", html, testPage(i))), cleaned})
		if i%10 == 0 {
			uri := fmt.Sprintf("http://mill.example/diary/%d", i/10)
			es = append(es, entry{responseRecord(uri, httpResponse("200 OK", html, sitePage(i/10))), cleaned})
		}
	}
	a := buildArchive(t, dir, "crawl.warc.gz", es, true, map[int]int{5: damageCut})
	o := Options{SiteWhole: true, SiteLearn: site.LearnOptions{MaxPages: 5, MaxBytes: 16 << 10}}
	sum, probs := runCorpus(t, filepath.Join(dir, "out"), []string{a.path}, o)
	l := sum.Site.Learned
	if l.HostsDropped == 0 || l.Hosts+l.HostsDropped != 120 || l.HostsOverCap != 1 || l.PagesOverCap != 7 {
		t.Errorf("learned %+v: want hosts dropped, 120 hosts in all (one page lost to damage), 7 pages of mill.example over the cap", *l)
	}
	if sum.Records != int64(len(es)) || sum.FailedTotal() != 1 || len(probs) != 1 {
		t.Errorf("%d records, %d failed, problems %v: want %d records, the damaged one failed", sum.Records, sum.FailedTotal(), probs, len(es))
	}
	mill := 0
	for _, d := range readDocs(t, filepath.Join(dir, "out")) {
		if d.Host != "mill.example" {
			continue
		}
		mill++
		if d.Site == nil || d.Site.Pages != 5 || strings.Contains(d.Text, siteAbout) {
			t.Errorf("%s: site %+v, want the template gone by a model of 5 pages:\n%s", d.URL, d.Site, d.Text)
		}
	}
	if mill != 12 {
		t.Errorf("%d pages of mill.example written, want 12", mill)
	}
}

// TestSiteWholeResume interrupts a SiteWhole run during its third input
// and resumes it: the output is that of a run not interrupted (the first
// pass learns from the finished inputs too). A resume in another site mode
// is refused.
func TestSiteWholeResume(t *testing.T) {
	dir := t.TempDir()
	_, spread := spreadCrawl(t, dir, 6)
	whole := filepath.Join(dir, "whole")
	runCorpus(t, whole, spread, Options{SiteWhole: true})

	out := filepath.Join(dir, "out")
	ctx, cancel := context.WithCancel(context.Background())
	o := Options{SiteWhole: true, Cleaner: testCleaner(t), MaxRecordBytes: testMaxRecord}
	o.Report = func(p Problem) {
		if p.Input == spread[2] {
			cancel() // in the third input
		}
	}
	if _, err := Run(ctx, out, spread, o); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: %v", err)
	}
	o = Options{Site: true, Cleaner: testCleaner(t), MaxRecordBytes: testMaxRecord}
	if _, err := Run(context.Background(), out, spread, o); err == nil || !strings.Contains(err.Error(), "--site=whole") {
		t.Errorf("resuming with --site: %v", err)
	}
	sum, _ := runCorpus(t, out, spread, Options{SiteWhole: true})
	if len(sum.AlreadyDone) == 0 || sum.Total.Cleaned != 24 {
		t.Errorf("resumed run: already done %v, total %+v", sum.AlreadyDone, sum.Total)
	}
	if sum.Site.Learned.Pages != 24 {
		t.Errorf("resumed run learned from %d pages, want 24", sum.Site.Learned.Pages)
	}
	got, want := siteTexts(t, out), siteTexts(t, whole)
	for url, w := range want {
		if got[url] != w {
			t.Errorf("resumed: %s:\n%s\nwant:\n%s", url, got[url], w)
		}
	}
}
