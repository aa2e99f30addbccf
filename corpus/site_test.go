package corpus

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/render"
	"github.com/sluice-project/sluice/site"
	"github.com/sluice-project/sluice/warc"
)

// The template of the site pages: a note about the society at the end of
// every article, which the labeller keeps since it reads as the article's
// prose, a menu and a footer.
const (
	siteAbout  = "The Mill Society is a charity of volunteers who restore the old corn mill on the river and open it to visitors every Saturday from April to October, with guided tours for schools."
	siteFooter = "Copyright the Mill Society, registered charity number 1234567. Letters to the editor are welcome."
)

// sitePage returns page i of mill.example's diary: its own heading and
// paragraphs inside the site's template.
func sitePage(i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<!DOCTYPE html><html><head><title>Mill diary %d</title></head><body>\n", i)
	b.WriteString(`<div class="nav"><a href="/">Home</a> | <a href="/diary">Diary</a> | <a href="/visit">Visit</a></div>` + "\n")
	fmt.Fprintf(&b, "<div class=\"main\"><h1>Mill diary, week %d of the restoration</h1>\n", i)
	// The fingerprints fold digits: the day and the author make each
	// paragraph a page's own.
	for k := range 3 {
		fmt.Fprintf(&b, "<p>Report %d, %s, by %s: %s</p>\n", i, days[i%len(days)], authors[k], diaryText[(i+k)%len(diaryText)])
	}
	b.WriteString(`<p>` + siteAbout + "</p></div>\n")
	b.WriteString(`<div class="footer"><p>` + siteFooter + "</p></div>\n</body></html>")
	return b.String()
}

var (
	days    = []string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "Easter Monday"}
	authors = []string{"Anna the miller", "Ben the millwright", "Clara from the village school"}
)

var diaryText = []string{
	"this week the millwright fitted the new oak teeth to the great spur wheel, and the stones turned for an hour without a load before the miller declared them sound.",
	"the sluice gate was lifted for the first time since the floods, and the water ran down the leat so fast that the volunteers had to close it again within minutes.",
	"a party of schoolchildren sieved the first flour, weighed it on the old brass scales and carried the sacks to the cart that took them to the village bakery.",
	"heavy rain raised the river by half a metre overnight, so the wheel was stopped and the tail race cleared of branches before work on the hoist could go on.",
	"the new sack hoist was tested with bags of sand, and the rope, spliced by hand by one of the oldest members, held every load up to the third floor.",
}

// templateOnly is a page of mill.example that holds nothing but the
// template: the site model leaves it without text.
const templateOnly = `<!DOCTYPE html><html><head><title>About</title></head><body>
<div class="nav"><a href="/">Home</a> | <a href="/diary">Diary</a> | <a href="/visit">Visit</a></div>
<div class="main"><p>` + siteAbout + `</p></div>
<div class="footer"><p>` + siteFooter + `</p></div></body></html>`

// siteEntries returns an archive of mill.example's diary pages (some of
// them for the site model) mixed with two pages of another host (too few
// for a model), the template-only page, and records to skip.
func siteEntries() []entry {
	html := "Content-Type: text/html; charset=utf-8\r\n"
	var es []entry
	add := func(uri, body, want string) {
		es = append(es, entry{responseRecord(uri, httpResponse("200 OK", html, body)), want})
	}
	for i := range 7 {
		add(fmt.Sprintf("http://mill.example/diary/%d", i), sitePage(i), cleaned)
		if i == 2 {
			add("http://other.example/a", testPage(500), cleaned)
			add("http://mill.example/about", templateOnly, ReasonNoText)
			es = append(es, entry{responseRecord("http://mill.example/gone", httpResponse("404 Not Found", html, sitePage(7))), "status 404"})
		}
		if i == 4 {
			add("http://other.example/b", testPage(501), cleaned)
			// The same site.
			add("http://www.mill.example/diary/44", sitePage(44), cleaned)
			add("http://mirror.example/diary/1", sitePage(1), ReasonDuplicate)
		}
	}
	es = append(es, entry{&warc.Record{Type: warc.TypeRevisit, TargetURI: "http://mill.example/diary/1", Date: testDate,
		Content: []byte("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n")}, ReasonRevisit})
	return es
}

func byURL(docs []render.JSONDocument) map[string]render.JSONDocument {
	m := map[string]render.JSONDocument{}
	for _, d := range docs {
		m[d.URL] = d
	}
	return m
}

// TestSite cleans an archive with and without Options.Site: with it, the
// template the labeller keeps on every page of mill.example is gone and the
// pages' own text stays, the host with two pages is cleaned page by page,
// and every record is accounted for; without it, every page is as the
// cleaner makes it alone.
func TestSite(t *testing.T) {
	dir := t.TempDir()
	es := siteEntries()
	a := buildArchive(t, dir, "site.warc.gz", es, true, nil)
	ids, skipped := a.want()

	plain := filepath.Join(dir, "plain")
	sum, _ := runCorpus(t, plain, []string{a.path}, Options{})
	if sum.Site != nil {
		t.Errorf("without Site: site counts %+v", sum.Site)
	}
	// Without Site: every page as the cleaner cleans it alone, in input
	// order, with no site field; the template text is kept on every page
	// (what the site model is for).
	docs := readDocs(t, plain)
	var order []string
	for _, e := range es {
		if e.want == cleaned || e.want == ReasonNoText {
			order = append(order, e.rec.TargetURI)
		}
	}
	var got []string
	for _, d := range docs {
		got = append(got, d.URL)
		if d.Site != nil {
			t.Errorf("without Site: %s has a site field", d.URL)
		}
		if want := cleanAlone(t, es, d.URL); d.Text != want {
			t.Errorf("without Site: %s:\n%s\nwant, as the cleaner cleans it alone:\n%s", d.URL, d.Text, want)
		}
		if d.Host == "mill.example" && !strings.Contains(d.Text, siteAbout) {
			t.Errorf("without Site: %s lost the template the test needs the site model to remove:\n%s", d.URL, d.Text)
		}
	}
	if strings.Join(got, " ") != strings.Join(order, " ") {
		t.Errorf("without Site: output order\n%v\nwant input order\n%v", got, order)
	}

	out := filepath.Join(dir, "site")
	sum, _ = runCorpus(t, out, []string{a.path}, Options{Site: true})
	if !maps.Equal(sum.Skipped, skipped) || sum.Cleaned != int64(len(ids)) || sum.FailedTotal() != 0 || sum.Records != int64(len(es)) {
		t.Errorf("with Site: records %d cleaned %d skipped %v failed %v; want %d, %d, %v, none",
			sum.Records, sum.Cleaned, sum.Skipped, sum.Failed, len(es), len(ids), skipped)
	}
	checkOutput(t, out, FormatJSONL, ids)
	mill := 0
	for _, d := range readDocs(t, out) {
		alone := byURL(docs)[d.URL]
		switch SiteKey(d.Host) { // www.mill.example is the same site
		case "mill.example":
			mill++
			if strings.Contains(d.Text, siteAbout) || strings.Contains(d.Text, siteFooter) {
				t.Errorf("with Site: %s kept the template:\n%s", d.URL, d.Text)
			}
			for _, b := range alone.Blocks {
				if strings.HasPrefix(b.Text, "Report ") && !strings.Contains(d.Text, b.Text) {
					t.Errorf("with Site: %s lost its own text %q", d.URL, b.Text)
				}
			}
			if d.Site == nil || d.Site.Pages != 9 || d.Site.Dropped < 1 {
				t.Errorf("with Site: %s: site %+v, want a model of 9 pages that dropped blocks", d.URL, d.Site)
			}
		case "other.example":
			if d.Site != nil || d.Text != alone.Text {
				t.Errorf("with Site: %s (a host of two pages) was not cleaned page by page: site %+v", d.URL, d.Site)
			}
		}
	}
	if mill != 8 {
		t.Errorf("with Site: %d pages of mill.example, want 8", mill)
	}
	if sum.Site == nil || sum.Site.Pages != 9 || sum.Site.Dropped < 9 {
		t.Errorf("with Site: site counts %+v, want 9 pages corrected", sum.Site)
	}
	var text bytes.Buffer
	sum.WriteText(&text)
	if !strings.Contains(text.String(), "site model: 9 pages") {
		t.Errorf("summary text without the site model's line:\n%s", text.String())
	}
}

// TestSiteFormats: with Site, every output format holds every page once.
func TestSiteFormats(t *testing.T) {
	dir := t.TempDir()
	a := buildArchive(t, dir, "site.warc.gz", siteEntries(), true, nil)
	ids, skipped := a.want()
	for _, format := range Formats() {
		out := filepath.Join(dir, format)
		sum, _ := runCorpus(t, out, []string{a.path}, Options{Format: format, Site: true})
		if !maps.Equal(sum.Skipped, skipped) || sum.Site.Pages == 0 {
			t.Errorf("%s: skipped %v, want %v; site %+v", format, sum.Skipped, skipped, sum.Site)
		}
		checkOutput(t, out, format, ids)
	}
}

// cleanAlone returns the text of the page at uri of es as the test cleaner
// makes it on its own.
func cleanAlone(t *testing.T, es []entry, uri string) string {
	t.Helper()
	for _, e := range es {
		if e.rec.TargetURI != uri {
			continue
		}
		resp, err := warc.ParseHTTPResponse(e.rec.Content)
		if err != nil {
			t.Fatal(err)
		}
		res, err := testCleaner(t).Clean(context.Background(), sluiceInput(resp.Body, uri))
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		render.Text{}.Render(&b, res.Page)
		return strings.TrimSuffix(b.String(), "\n")
	}
	t.Fatalf("no page %s", uri)
	return ""
}

// TestSiteOrder: with Site the output does not depend on the number of
// workers or the in-flight budget; with SiteBytes too small to hold two
// pages, every page is written alone, as cleaned page by page.
func TestSiteOrder(t *testing.T) {
	dir := t.TempDir()
	a := buildArchive(t, dir, "site.warc", append(siteEntries(), testEntries(t, false)...), false, nil)
	checkSameOutput(t, dir, a.path, []Options{{Jobs: 1, Site: true}, {Jobs: 4, Site: true}, {Jobs: 3, InFlightBytes: 1, Site: true}})

	// SiteBytes too small for two pages: each page is written as it
	// comes, alone in its batch, and a batch of one page adds nothing to
	// the model of its host: the output is page-by-page cleaning's.
	b := buildArchive(t, dir, "site-only.warc", siteEntries(), false, nil)
	plain := filepath.Join(dir, "plain")
	runCorpus(t, plain, []string{b.path}, Options{})
	tiny := filepath.Join(dir, "tiny")
	sum, _ := runCorpus(t, tiny, []string{b.path}, Options{Site: true, SiteBytes: 1})
	want, err := os.ReadFile(filepath.Join(plain, "part-00001.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(tiny, "part-00001.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) || sum.Site.Pages != 0 {
		t.Errorf("SiteBytes 1: %d pages corrected, and the output differs from page-by-page cleaning: %v", sum.Site.Pages, !bytes.Equal(got, want))
	}

	// Batches of 4: the first batch of mill.example (three diary pages and
	// the template-only page, left without text) has a model of 4 pages,
	// the next of 8 and the last of 9, since the host is remembered
	// between batches.
	small := filepath.Join(dir, "small")
	sum, _ = runCorpus(t, small, []string{b.path}, Options{Site: true, SiteGroup: site.GroupOptions{BatchSize: 4}})
	var pages []int
	for _, d := range readDocs(t, small) {
		if d.Site != nil {
			pages = append(pages, d.Site.Pages)
		}
	}
	if fmt.Sprint(pages) != "[4 4 4 8 8 8 8 9]" || sum.Site.Pages != 9 || sum.Skipped[ReasonNoText] != 1 {
		t.Errorf("batches of 4: models of %v pages (%d pages corrected, skipped %v), want [4 4 4 8 8 8 8 9]", pages, sum.Site.Pages, sum.Skipped)
	}
}

func sluiceInput(data []byte, uri string) sluice.Input { return sluice.Input{Data: data, URL: uri} }

// TestSiteResume interrupts a run with Site during its second input and
// resumes it: every page is in the output once. The output of a run
// without Site is not mixed with it.
func TestSiteResume(t *testing.T) {
	dir := t.TempDir()
	var inputs []string
	want := map[string]string{}
	for i := range 3 {
		es := retarget(siteEntries(), i)
		a := buildArchive(t, dir, fmt.Sprintf("crawl-%d.warc.gz", i), es, true, nil)
		inputs = append(inputs, a.path)
		ids, _ := a.want()
		maps.Copy(want, ids)
	}
	out := filepath.Join(dir, "out")
	ctx, cancel := context.WithCancel(context.Background())
	o := Options{Site: true, Cleaner: testCleaner(t), MaxRecordBytes: testMaxRecord, PartRecords: 7}
	o.Report = func(p Problem) {
		if p.Input == inputs[1] && p.Reason == ReasonDuplicate {
			cancel() // in the second archive, with pages held
		}
	}
	if _, err := Run(ctx, out, inputs, o); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: %v", err)
	}
	o = Options{Cleaner: testCleaner(t), MaxRecordBytes: testMaxRecord}
	if _, err := Run(context.Background(), out, inputs, o); err == nil || !strings.Contains(err.Error(), "with the site model (--site)") {
		t.Errorf("resuming without Site: %v", err)
	}
	plain := filepath.Join(dir, "plain")
	runCorpus(t, plain, inputs[:1], Options{})
	o.Site = true
	if _, err := Run(context.Background(), plain, inputs, o); err == nil || !strings.Contains(err.Error(), "without the site model (--site)") {
		t.Errorf("resuming output made without Site: %v", err)
	}
	sum, _ := runCorpus(t, out, inputs, Options{Site: true, PartRecords: 7})
	if len(sum.AlreadyDone) != 1 || sum.Finished != 2 {
		t.Errorf("resumed run: already done %v, finished %d", sum.AlreadyDone, sum.Finished)
	}
	checkOutput(t, out, FormatJSONL, want)
	if err := sum.Total.Check(); err != nil || sum.Total.Cleaned != int64(len(want)) {
		t.Errorf("total over both runs: %+v (%v)", sum.Total, err)
	}
}

// TestPageBytes: the estimate is of the order of the page's HTML.
func TestPageBytes(t *testing.T) {
	html := sitePage(1)
	res, err := testCleaner(t).Clean(context.Background(), sluiceInput([]byte(html), ""))
	if err != nil {
		t.Fatal(err)
	}
	n := pageBytes(res.Page)
	if n < int64(len(html))/2 || n > 10*int64(len(html)) {
		t.Errorf("pageBytes = %d for %d bytes of HTML", n, len(html))
	}
	if pageBytes(&page.Page{}) <= 0 {
		t.Error("an empty page takes nothing")
	}
}

// TestSiteModelOptions: the path prior is on for the trained model by
// default and off on request; a filter pipeline gets Rescue, and refuses a
// prior.
func TestSiteModelOptions(t *testing.T) {
	model, err := sluice.New(sluice.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lqf, err := sluice.New(sluice.Options{Filter: "lqf>targetnode"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		c      *sluice.Cleaner
		prior  float64
		want   float64
		rescue bool
		err    bool
	}{
		{model, 0, site.DefaultPrior, false, false},
		{model, 0.5, 0.5, false, false},
		{model, -1, 0, false, false},
		{model, 2, 0, false, true},
		{lqf, 0, 0, true, false},
		{lqf, -1, 0, true, false},
		{lqf, 0.5, 0, false, true},
	} {
		o, err := SiteModelOptions(tc.c, site.Options{Prior: tc.prior})
		if (err != nil) != tc.err {
			t.Errorf("%s, prior %v: error %v, want one: %v", tc.c.Filter(), tc.prior, err, tc.err)
			continue
		}
		if err == nil && (o.Prior != tc.want || o.Rescue != tc.rescue) {
			t.Errorf("%s, prior %v: Prior %v, Rescue %v; want %v, %v", tc.c.Filter(), tc.prior, o.Prior, o.Rescue, tc.want, tc.rescue)
		}
	}
}
