package sluice

import (
	"bytes"
	"cmp"
	"context"
	"os"
	"runtime"
	"testing"

	"golang.org/x/net/html"

	"github.com/sluice-project/sluice/label"
)

// benchPages loads the cleaneval-dev pages (the benchmark corpus named by
// the core issue), or those of the shared set $SLUICE_BENCH_SET
// (wcxb-dev: larger, script-heavy pages of today), or skips.
func benchPages(b *testing.B) ([][]byte, int64) {
	set := cmp.Or(os.Getenv("SLUICE_BENCH_SET"), "cleaneval-dev")
	pages := loadSet(b, set)
	var data [][]byte
	var total int64
	for _, p := range pages {
		data = append(data, p.html)
		total += int64(len(p.html))
	}
	return data, total
}

// reportPages adds pages/s and allocations per page to a benchmark whose
// every op processes all n pages once.
func reportPages(b *testing.B, n int) {
	sec := b.Elapsed().Seconds()
	if sec > 0 {
		b.ReportMetric(float64(n*b.N)/sec, "pages/s")
	}
}

// BenchmarkClean cleans every cleaneval-dev page with the default pipeline
// on one goroutine; one op is one pass over the set.
//
//	go test -run '^$' -bench 'Clean$|HTMLParse' -benchmem
func BenchmarkClean(b *testing.B) { benchClean(b, "html") }

// BenchmarkCleanArena is BenchmarkClean with the arena parser (package
// htmltree, Options.Parser "arena").
//
//	go test -run '^$' -bench 'Clean$|CleanArena|HTMLParse' -benchmem -cpu 1
func BenchmarkCleanArena(b *testing.B) { benchClean(b, "arena") }

func benchClean(b *testing.B, parser string) {
	data, total := benchPages(b)
	c, err := New(Options{Parser: parser})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	benchPasses(b, data, total, func(d []byte) error {
		_, err := c.Clean(ctx, Input{Data: d})
		return err
	})
}

// BenchmarkSegmentArena is Clean's first half alone (Cleaner.Segment:
// decoding, parsing, metadata, blocks), the part of its cost that no
// labeller changes.
func BenchmarkSegmentArena(b *testing.B) {
	data, total := benchPages(b)
	c, err := New(Options{Parser: "arena"})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	benchPasses(b, data, total, func(d []byte) error {
		_, err := c.Segment(ctx, Input{Data: d})
		return err
	})
}

// benchPasses runs pass over every page once before the clock starts, then
// once per op, and reports pages/s and the allocations and bytes a page.
// The first pass makes what is made on first use and then kept (the
// charset detection's tables, the scratch memory the free lists keep), a
// cost a run of many pages pays once: with it, allocs/op reads about 1,700
// a page for Clean, against 1,460 a page in every later pass.
func benchPasses(b *testing.B, data [][]byte, total int64, pass func([]byte) error) {
	for _, d := range data {
		if err := pass(d); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(total)
	b.ReportAllocs()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	for b.Loop() {
		for _, d := range data {
			if err := pass(d); err != nil {
				b.Fatal(err)
			}
		}
	}
	runtime.ReadMemStats(&m1)
	pages := float64(b.N * len(data))
	b.ReportMetric(float64(m1.Mallocs-m0.Mallocs)/pages, "allocs/page")
	b.ReportMetric(float64(m1.TotalAlloc-m0.TotalAlloc)/pages, "B/page")
	reportPages(b, len(data))
}

// BenchmarkHTMLParse is the floor Clean is measured against: a bare
// html.Parse of the same pages.
func BenchmarkHTMLParse(b *testing.B) {
	data, total := benchPages(b)
	benchPasses(b, data, total, func(d []byte) error {
		_, err := html.Parse(bytes.NewReader(d))
		return err
	})
}

// BenchmarkLoadEmbedded is loading the embedded labeller, a cost every
// process that cleans pays once before its first page.
func BenchmarkLoadEmbedded(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := label.Load(defaultModel); err != nil {
			b.Fatal(err)
		}
	}
}
