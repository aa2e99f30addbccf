package main

import (
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/corpus"
	"github.com/sluice-project/sluice/dataset"
	"github.com/sluice-project/sluice/warc"
)

// tinySources loads a few shared pages, or skips the test without the data.
func tinySources(t *testing.T) []*source {
	t.Helper()
	if _, err := dataset.Root(); err != nil {
		t.Skip("no shared data:", err)
	}
	srcs, err := loadSources([]string{"cleaneval-dev", "xmu-news-zh"}, 15)
	if err != nil {
		t.Skip("shared sets missing:", err)
	}
	return srcs
}

// TestGenerate writes a tiny crawl and reads it back: the records, hosts,
// files, missing URIs, duplicate IDs and planted copies asked for.
func TestGenerate(t *testing.T) {
	cfg := Config{Records: 90, Hosts: 6, Files: 3, Planted: 6, SameHost: 0.5, NoURI: 2, DupIDs: 1, Replace: 0.15, MinWords: 50, Seed: 7}
	p, err := newPlan(cfg, tinySources(t))
	if err != nil {
		t.Fatal(err)
	}
	m, err := p.write(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	hosts := map[string]map[string]bool{} // host -> files holding it
	ids := map[string]int{}
	var records, responses, noURI int64
	for _, f := range m.Files {
		for rec, err := range warc.ReadFile(f, warc.Options{}) {
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			records++
			if rec.Type != warc.TypeResponse {
				continue
			}
			responses++
			ids[rec.ID()]++
			if rec.TargetURI == "" {
				noURI++
				continue
			}
			u, err := url.Parse(rec.TargetURI)
			if err != nil {
				t.Fatalf("%s: %v", rec.TargetURI, err)
			}
			if hosts[u.Host] == nil {
				hosts[u.Host] = map[string]bool{}
			}
			hosts[u.Host][f] = true
		}
	}
	dup := 0
	for _, n := range ids {
		dup += n - 1
	}
	if records != m.Records || responses != int64(cfg.Records) || len(hosts) != cfg.Hosts || noURI != int64(cfg.NoURI) || dup != cfg.DupIDs {
		t.Errorf("read %d records (manifest: %d), %d responses, %d hosts, %d without URI, %d duplicate IDs; want %d responses, %d hosts, %d, %d",
			records, m.Records, responses, len(hosts), noURI, dup, cfg.Records, cfg.Hosts, cfg.NoURI, cfg.DupIDs)
	}
	if len(m.Files) != cfg.Files || len(hosts[p.hosts[0].name]) != cfg.Files {
		t.Errorf("%d files, the largest host in %d of them; want it in all %d", len(m.Files), len(hosts[p.hosts[0].name]), cfg.Files)
	}
	if len(m.Pairs) != cfg.Planted {
		t.Fatalf("%d planted pairs, want %d", len(m.Pairs), cfg.Planted)
	}
	for _, pr := range m.Pairs {
		if pr.Copy == pr.Original || pr.Jaccard < 0.8 || pr.Jaccard >= 1 {
			t.Errorf("planted pair %+v: want two URIs whose texts are similar but not equal", pr)
		}
	}
}

// TestReuseIsNotNearDuplicate: two records from one shared page share few
// shingles once their words are replaced.
func TestReuseIsNotNearDuplicate(t *testing.T) {
	for _, s := range tinySources(t)[:5] {
		a := s.shingles(s.texts(rand.New(rand.NewPCG(1, 2)), 0.15))
		b := s.shingles(s.texts(rand.New(rand.NewPCG(2, 2)), 0.15))
		if j := jaccard(a, b); j > 0.5 {
			t.Errorf("%s used twice: similarity %.2f, want well below a near-duplicate threshold", s.name, j)
		}
	}
}

// TestFates reads back what sluice corpus -v reports of a record.
func TestFates(t *testing.T) {
	lines := []corpus.Problem{
		{Input: "sorted/part-00000.warc.gz", Offset: 120, URI: "http://bücher-0007.example/a/1-b.html", Reason: corpus.ReasonNearDuplicate},
		{Input: "sorted/part-00000.warc.gz", Offset: 240, Reason: corpus.ReasonNearDuplicate},
		{Input: "sorted/part-00000.warc.gz", Offset: 360, URI: "http://198.51.100.1/x", Reason: corpus.ReasonNoText, Detail: "no block kept"},
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l.String() + "\n")
	}
	path := filepath.Join(t.TempDir(), "stderr")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	byURI, noURI, err := fates(path)
	if err != nil {
		t.Fatal(err)
	}
	if byURI[lines[0].URI] != corpus.ReasonNearDuplicate || byURI[lines[2].URI] != corpus.ReasonNoText || noURI != 1 || len(byURI) != 2 {
		t.Errorf("fates: %v and %d near-duplicates without URI", byURI, noURI)
	}
}

// TestExplainMisses sorts missed pairs into causes from a sorted crawl's
// index and an output's texts.
func TestExplainMisses(t *testing.T) {
	sorted, out := t.TempDir(), t.TempDir()
	var index strings.Builder
	index.WriteString("host\tfile\toffset\tlength\tsource\tsource_offset\tsource_length\tmember_offset\ttype\trecord_id\n")
	for i := range corpus.DefaultNearDuplicateWindow + 10 { // one response each
		fmt.Fprintf(&index, "h\tpart-00000.warc.gz\t%d\t10\tin\t0\t10\t0\tresponse\tid%d\n", 10*i, i)
	}
	text := "the river rose by two metres over the weekend after three days of rain in the hills"
	docs := fmt.Sprintf("{\"url\":\"a\",\"text\":%q}\n{\"url\":\"b\",\"text\":%q}\n{\"url\":\"c\",\"text\":%q}\n{\"url\":\"d\",\"text\":%q}\n",
		text, text, text, "a different page about the market square and the new library")
	if os.WriteFile(filepath.Join(sorted, "index.tsv"), []byte(index.String()), 0o644) != nil ||
		os.WriteFile(filepath.Join(out, "part-00000.jsonl"), []byte(docs), 0o644) != nil {
		t.Fatal("writing the fixtures")
	}
	c := &corpusCheck{Window: corpus.DefaultNearDuplicateWindow, Missed: []missed{
		{pair: pair{Copy: "a", Original: "b", CopyID: "id1", OriginalID: "id2"}},
		{pair: pair{Copy: "c", Original: "d", CopyID: "id3", OriginalID: "id4"}},
		{pair: pair{Copy: "a", Original: "x", CopyID: "id0", OriginalID: fmt.Sprintf("id%d", corpus.DefaultNearDuplicateWindow+5)}},
		{pair: pair{Copy: "a", Original: "x", CopyID: "id5", OriginalID: "id6"}},
		{pair: pair{Copy: "a", Original: "b", CopyID: "id0", OriginalID: fmt.Sprintf("id%d", corpus.DefaultNearDuplicateWindow/2+5)}},
	}}
	if err := c.explainMisses(sorted, out, 0.8); err != nil {
		t.Fatal(err)
	}
	want := []string{missEstimate, missBelow, missBeyondWindow, missOther, missBeyondHalf}
	for i, m := range c.Missed {
		if m.Cause != want[i] {
			t.Errorf("pair %d (%+v): cause %q, want %q", i, m, m.Cause, want[i])
		}
	}
}
