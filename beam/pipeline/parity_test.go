package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/corpus"
	"github.com/sluice-project/sluice/render"
	"github.com/sluice-project/sluice/site"
	"github.com/sluice-project/sluice/warc"
)

// The parity test: the pipeline on Prism and sluice corpus (corpus.Run)
// on the same archives with the same options must write the same
// documents (the same JSON lines, as sets) and count the same (the
// pipeline's counters against CountersOf the summary).

// prose returns n sentences of words drawn with r: text of its own, that
// no other page resembles.
func prose(r *rand.Rand, n int) string {
	words := strings.Fields(`river valley stone wall field farmer spring flood water bridge mill village market
		square church tower road cart horse winter summer harvest grain barley wheat orchard apple pear
		letter archive century family land work year council meeting argument tax toll ferry boat
		fisher net salmon trout shore bank willow alder meadow sheep cattle dairy cheese butter bread
		baker smith forge iron copper coin ledger clerk notary court judge lawyer deed boundary hedge`)
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		k := 10 + r.IntN(8)
		for j := range k {
			w := words[r.IntN(len(words))]
			if j == 0 {
				w = strings.ToUpper(w[:1]) + w[1:]
			} else {
				b.WriteByte(' ')
			}
			b.WriteString(w)
		}
		b.WriteByte('.')
	}
	return b.String()
}

// Boilerplate repeated on the pages of a host, or of several.
const (
	newsletter = "Subscribe to our weekly newsletter to get the latest stories from the valley delivered to your inbox every Friday morning."
	licence    = "All texts on this site may be reused under the terms of the Creative Commons Attribution licence, version four, with credit."
)

// sitePage is a page of a host's template: navigation, a headline, its
// paragraphs, a box the host repeats on every page, a footer.
func sitePage(host, title string, paras ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html><head><title>%s | %s</title></head><body>\n", title, host)
	fmt.Fprintf(&b, `<div class="nav"><ul><li><a href="/">%s home</a></li><li><a href="/archive">Archive of past stories</a></li><li><a href="/contact">Contact the editors</a></li></ul></div>`+"\n", host)
	fmt.Fprintf(&b, "<div class=\"content\"><h1>%s</h1>\n", title)
	for _, p := range paras {
		fmt.Fprintf(&b, "<p>%s</p>\n", p)
	}
	fmt.Fprintf(&b, "</div>\n<div class=\"box\"><p>Read more stories about the life of the valley and its people in the %s archive, updated every week by our editors.</p></div>\n", host)
	fmt.Fprintf(&b, "<div class=\"footer\">Copyright 2024 %s. All rights reserved. <a href=\"/privacy\">Privacy</a></div>\n</body></html>\n", host)
	return b.String()
}

// parityArchives writes three archives into dir, with several hosts
// (www.blog.example and blog.example are one site), several pages per
// host on a shared template, exact duplicates (in one archive and across
// two), near duplicates (on the same host and on another), paragraphs
// repeated across pages and hosts, and records to skip. It returns the
// paths of the archives, sorted.
func parityArchives(t *testing.T, dir string) []string {
	r := rand.New(rand.NewPCG(25, 5))
	type doc struct{ url, html string }
	var docs [3][]doc
	hosts := []string{"news.example", "www.blog.example", "blog.example", "shop.example", "farm.example"}
	var syndicated []string
	var early string
	for f := range docs {
		for hi, host := range hosts {
			for k := range 4 + (f+hi)%3 {
				paras := []string{prose(r, 3), prose(r, 4)}
				switch {
				case host == "news.example":
					paras = append(paras, newsletter)
				case (k+f)%2 == 0:
					paras = append(paras, licence)
				}
				title := fmt.Sprintf("Story %d-%d", f, k)
				docs[f] = append(docs[f], doc{fmt.Sprintf("http://%s/%d/%d", host, f, k), sitePage(host, title, paras...)})
				if host == "news.example" && k == 1 {
					syndicated = append(syndicated, paras[0]+" "+paras[1])
				}
				if host == "news.example" && k == 2 && f == 0 {
					early = paras[0] + " " + paras[1]
				}
			}
		}
	}
	// Near duplicates: a syndicated story on another host, a few words
	// changed, and the same story printed twice on its own host.
	for i, story := range syndicated {
		edited := strings.Replace(story, " the ", " a ", 1) + " Reprinted with permission."
		docs[(i+1)%3] = append(docs[(i+1)%3], doc{fmt.Sprintf("http://farm.example/reprint/%d", i), sitePage("farm.example", "Reprint", edited)})
		docs[i%3] = append(docs[i%3], doc{fmt.Sprintf("http://news.example/print/%d", i), sitePage("news.example", "Print", story)})
	}
	// A copy first in its archive, on a host whose first batch (with
	// --site) is complete after the batch of the original's host: corpus
	// writes, and keeps, the original.
	docs[0] = append([]doc{{"http://farm.example/early", sitePage("farm.example", "Early", strings.Replace(early, " the ", " a ", 1))}}, docs[0]...)
	// Exact duplicates: the same payload at two addresses, in one archive
	// and across two.
	docs[0] = append(docs[0], doc{"http://mirror.example/copy-a", docs[2][3].html})
	docs[2] = append(docs[2], doc{"http://mirror.example/copy-b", docs[2][5].html})
	docs[1] = append(docs[1], doc{"http://mirror.example/copy-c", docs[1][0].html}, doc{"http://mirror.example/copy-d", docs[1][0].html})

	var paths []string
	for f, ds := range docs {
		name := fmt.Sprintf("p%d.warc", f)
		if f != 1 {
			name += ".gz"
		}
		a := newArchive(t, filepath.Join(dir, name), f != 1)
		a.w.WriteWarcinfo(name, warc.Header{{Name: "software", Value: "sluice beam parity test"}})
		for i, d := range ds {
			a.response(d.url, 200, "Content-Type: text/html; charset=utf-8\r\n", []byte(d.html))
			switch i {
			case 2:
				a.response(d.url+"/gone", 404, "Content-Type: text/html\r\n", []byte("<html><body><p>Not here.</p></body></html>"))
			case 3:
				a.response(d.url+"/logo.png", 200, "Content-Type: image/png\r\n", []byte("\x89PNG\r\n\x1a\n"))
			case 4:
				if f == 1 {
					a.f.WriteString("damaged bytes between two records\r\n\r\n")
				}
			}
		}
		a.close()
		paths = append(paths, filepath.Join(dir, name))
	}
	slices.Sort(paths)
	return paths
}

// runBeam runs the pipeline on Prism and returns its lines and counters
// ("files" left out).
func runBeam(t *testing.T, o Options) ([]string, map[string]int64) {
	t.Helper()
	p, s := beam.NewPipelineWithRoot()
	if err := Build(s, o); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	res, err := prism.Execute(context.Background(), p)
	if err != nil {
		t.Fatalf("pipeline failed: %v", err)
	}
	t.Logf("Prism ran the pipeline in %v", time.Since(start).Round(time.Millisecond))
	suffix := o.Suffix
	if suffix == "" {
		suffix = ".jsonl"
	}
	counters := map[string]int64{}
	for _, c := range res.Metrics().AllMetrics().Counters() {
		if c.Namespace() == Namespace && c.Name() != CounterFiles && c.Result() != 0 {
			counters[c.Name()] += c.Result()
		}
	}
	return readShards(t, o.Output, suffix, max(o.Shards, 1)), counters
}

// runCorpus runs sluice corpus (corpus.Run) and returns the lines of its
// jsonl parts and its summary.
func runCorpus(t *testing.T, out string, paths []string, o corpus.Options) ([]string, *corpus.Summary) {
	t.Helper()
	o.Force = true
	sum, err := corpus.Run(context.Background(), out, paths, o)
	if err != nil {
		t.Fatal(err)
	}
	parts, _ := filepath.Glob(filepath.Join(out, "part-*.jsonl"))
	var lines []string
	for _, name := range parts {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")...)
	}
	return lines, sum
}

// compareRuns checks that the two runs wrote the same documents and
// counted the same, and returns the documents.
func compareRuns(t *testing.T, beamLines []string, counters map[string]int64, corpusLines []string, sum *corpus.Summary) map[string]render.JSONDocument {
	t.Helper()
	docs := map[string]render.JSONDocument{}
	for _, line := range beamLines {
		var d render.JSONDocument
		if err := json.Unmarshal([]byte(line), &d); err != nil {
			t.Fatalf("bad JSON line %q: %v", line, err)
		}
		if _, dup := docs[d.URL]; dup {
			t.Errorf("%s written twice", d.URL)
		}
		docs[d.URL] = d
	}
	byURL := func(lines []string) map[string]string {
		m := map[string]string{}
		for _, l := range lines {
			var d render.JSONDocument
			json.Unmarshal([]byte(l), &d)
			m[d.URL] = l
		}
		return m
	}
	b, c := byURL(beamLines), byURL(corpusLines)
	for u, l := range c {
		switch bl, ok := b[u]; {
		case !ok:
			t.Errorf("%s: written by corpus, not by the pipeline", u)
		case bl != l:
			t.Errorf("%s: the pipeline's document differs from corpus's:\n%s\n%s", u, bl, l)
		}
	}
	for u := range b {
		if _, ok := c[u]; !ok {
			t.Errorf("%s: written by the pipeline, not by corpus", u)
		}
	}
	if want := CountersOf(sum); !maps.Equal(counters, want) {
		t.Errorf("counters:\n%v\nwant (corpus's summary):\n%v", counters, want)
	}
	return docs
}

func TestParityWithCorpus(t *testing.T) {
	dir := t.TempDir()
	paths := parityArchives(t, dir)
	cleaner, err := sluice.New(sluice.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		o    Options
		// what the run must have done, so that the test tests something
		want []string
	}{
		{"plain", Options{}, nil},
		{"dedup-neardup-paragraphs", Options{Dedup: true, NearDuplicate: 0.8, ParagraphDedup: 1},
			[]string{SkippedPrefix + corpus.ReasonDuplicate, SkippedPrefix + corpus.ReasonNearDuplicate, CounterParagraphsDropped}},
		{"site-dedup-neardup", Options{Dedup: true, Site: true, SiteGroup: site.GroupOptions{BatchSize: 4}, NearDuplicate: 0.8, Shards: 3},
			[]string{SkippedPrefix + corpus.ReasonDuplicate, SkippedPrefix + corpus.ReasonNearDuplicate, CounterSiteDropped}},
		{"site-paragraphs-neardup", Options{Dedup: true, Site: true, SiteGroup: site.GroupOptions{BatchSize: 4}, NearDuplicate: 0.8, ParagraphDedup: 1, Shards: 2},
			[]string{SkippedPrefix + corpus.ReasonNearDuplicate, CounterSiteDropped, CounterParagraphsDropped}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.o
			o.Input = filepath.Join(dir, "*.warc*")
			o.Output = filepath.Join(dir, tc.name, "beam", "pages")
			lines, counters := runBeam(t, o)
			co := corpus.Options{Cleaner: cleaner, Jobs: 2, Site: o.Site, SiteGroup: o.SiteGroup,
				NearDuplicate: o.NearDuplicate, ParagraphDedup: o.ParagraphDedup, NoTables: o.NoTables}
			if !o.Dedup {
				co.DedupWindow = -1
			}
			clines, sum := runCorpus(t, filepath.Join(dir, tc.name, "corpus"), paths, co)
			compareRuns(t, lines, counters, clines, sum)
			t.Logf("%d documents; counters %v", len(lines), counters)
			for _, name := range tc.want {
				if counters[name] == 0 {
					t.Errorf("counter %s is 0: the archives do not test it", name)
				}
			}
		})
	}
}
