package crawlsort

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/sluice-project/sluice/warc"
)

// BenchmarkSortCrawl sorts a synthetic crawl: 20 WARC files of 2,000
// records each (40,000 small response records, gzip member per record),
// hosts spread over every file, 2,000 hosts, with an 8 MiB budget so
// that the scan spills runs. It reports records/s, the runs spilled and
// the peak heap in use (sampled at every Progress call).
func BenchmarkSortCrawl(b *testing.B) {
	const files, perFile, hosts = 20, 2000, 2000
	tmp := b.TempDir()
	var paths []string
	for f := range files {
		var recs []*warc.Record
		for i := range perFile {
			n := f*perFile + i
			recs = append(recs, page(fmt.Sprintf("http://host%04d.example/page/%d", (n*7919)%hosts, n), n))
		}
		p := filepath.Join(tmp, fmt.Sprintf("crawl-%02d.warc.gz", f))
		writeArchive(b, p, true, recs...)
		paths = append(paths, p)
	}
	var peak uint64
	var ms runtime.MemStats
	sample := func(Progress) {
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapInuse)
	}
	var sum *Summary
	b.ResetTimer()
	for i := range b.N {
		out := filepath.Join(tmp, fmt.Sprintf("out-%d", i))
		var err error
		if sum, err = Run(context.Background(), out, paths, Options{Memory: 8 << 20, Progress: sample}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if sum.RecordsOut != files*perFile || sum.Hosts != hosts {
		b.Fatalf("%d records of %d hosts", sum.RecordsOut, sum.Hosts)
	}
	b.ReportMetric(float64(files*perFile)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(sum.Runs), "runs")
}
