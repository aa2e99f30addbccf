package corpus

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/render"
	"github.com/sluice-project/sluice/warc"
)

// benchRecords is the size of the benchmark archive; SLUICE_BENCH_RECORDS
// changes it (to check that memory does not grow with the input).
func benchRecords() int {
	if n, err := strconv.Atoi(os.Getenv("SLUICE_BENCH_RECORDS")); err == nil && n > 0 {
		return n
	}
	return 2000
}

// benchShared returns the CleanEval development pages, or nil.
var benchShared = sync.OnceValue(func() [][]byte {
	shared, err := loadShared()
	if err != nil {
		return nil
	}
	return shared
})

// benchPage returns page i of the benchmark: the CleanEval development
// pages repeated, each copy made distinct by an HTML comment (which
// cleaning drops) so that none is a duplicate.
func benchPage(shared [][]byte, i int) []byte {
	p := shared[i%len(shared)]
	return append(p[:len(p):len(p)], fmt.Sprintf("\n<!-- copy %d -->\n", i/len(shared))...)
}

// benchArchive writes the benchmark pages as a WARC of response records,
// gzip per record or plain, into dir.
//
// The gzip members are made with compress/gzip at its default level, as
// crawlers' zlib makes them (and as warc.Writer made them until it moved to
// klauspost/compress, whose members inflate about 10% slower): the input
// stays the same from one version of the writer to the next.
func benchArchive(b *testing.B, dir string, gz bool) (string, int64) {
	shared := benchShared()
	if shared == nil {
		b.Skip("no shared data (../shared/data/cleaneval-dev)")
	}
	path := filepath.Join(dir, "bench.warc")
	if gz {
		path += ".gz"
	}
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	var plain bytes.Buffer
	w := warc.NewWriter(&plain, false)
	zw := gzip.NewWriter(f)
	for i := range benchRecords() {
		p := benchPage(shared, i)
		block := fmt.Appendf(nil, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n", len(p))
		rec := responseRecord(fmt.Sprintf("http://bench.example/%d", i), append(block, p...))
		plain.Reset()
		if err := w.WriteRecord(rec); err != nil {
			b.Fatal(err)
		}
		var err error
		if gz {
			zw.Reset(f)
			if _, err = zw.Write(plain.Bytes()); err == nil {
				err = zw.Close()
			}
		} else {
			_, err = f.Write(plain.Bytes())
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	st, _ := os.Stat(path)
	return path, st.Size()
}

// BenchmarkCorpus runs the engine end to end (read, decompress, parse HTTP,
// clean with the default pipeline on GOMAXPROCS workers, render, write) on
// a WARC of the CleanEval development pages repeated to 2,000 records, gzip
// per record ("gz/") or plain ("plain/"), with the GC settings of sluice
// corpus (see setGC); one op is one run over the whole archive. Compare its
// pages/s with BenchmarkCleanSingle's from the same invocation:
//
//	go test -run '^$' -bench 'Corpus|CleanSingle' ./corpus
//
// peak-heap-MB is the largest live heap (runtime/metrics, sampled every
// 2 ms), sys-MB the memory the process got from the OS by the end.
func BenchmarkCorpus(b *testing.B) { byCompression(b, benchCorpus) }

// byCompression runs bench as the sub-benchmarks "gz" (an archive gzipped
// record by record) and "plain", with the GC settings of sluice corpus.
func byCompression(b *testing.B, bench func(b *testing.B, gz bool)) {
	defer setGC()()
	for _, gz := range []bool{true, false} {
		name := "plain"
		if gz {
			name = "gz"
		}
		b.Run(name, func(b *testing.B) { bench(b, gz) })
	}
}

// runArchive runs the engine over the benchmark archive at path into out,
// checks that all n records were cleaned, and removes out outside the
// timing.
func runArchive(b *testing.B, out, path string, n int, opts Options) {
	sum, err := Run(context.Background(), out, []string{path}, opts)
	if err != nil {
		b.Fatal(err)
	}
	if sum.Cleaned != int64(n) {
		b.Fatalf("cleaned %d of %d: %+v", sum.Cleaned, n, sum)
	}
	b.StopTimer()
	os.RemoveAll(out)
	b.StartTimer()
}

func benchCorpus(b *testing.B, gz bool) {
	path, size := benchArchive(b, b.TempDir(), gz)
	for _, format := range Formats() {
		b.Run(format, func(b *testing.B) {
			dir := b.TempDir()
			n := benchRecords()
			c := testCleaner(b)
			runtime.GC()
			stop := sampleHeap()
			b.SetBytes(size)
			cpu0 := cpuTime()
			b.ResetTimer()
			i := 0
			for b.Loop() {
				runArchive(b, filepath.Join(dir, fmt.Sprintf("out%d", i)), path, n, Options{Cleaner: c, Format: format})
				i++
			}
			cpu := cpuTime() - cpu0
			peak := stop()
			b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "pages/s")
			b.ReportMetric(cpu.Seconds()*1e3/float64(n*b.N), "cpu-ms/page")
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			b.ReportMetric(float64(ms.Sys)/(1<<20), "sys-MB")
		})
	}
}

// BenchmarkSpeedup measures what BenchmarkCorpus and BenchmarkCleanSingle
// measure, interleaved: each op runs the engine over the WARC of
// BenchmarkCorpus (gzip per record or plain; jsonl output, the default),
// then cleans the same pages with Cleaner.Clean on one goroutine. A shared or throttled machine
// changes speed from one minute to the next by a fifth or more, which two
// benchmarks run one after the other take for a difference between them;
// here both see the same minutes. x-single is the engine's pages/s over
// the single goroutine's, from the summed times of all ops:
//
//	go test -run '^$' -bench Speedup -benchtime 5x ./corpus
//
// Run it with several ops (-benchtime 6x or more; one op takes about five
// seconds, SLUICE_BENCH_RECORDS=500 makes ops of a quarter the size):
// median-x-single is the middle op's ratio, min-x-single the lowest.
func BenchmarkSpeedup(b *testing.B) { byCompression(b, benchSpeedup) }

func benchSpeedup(b *testing.B, gz bool) {
	path, _ := benchArchive(b, b.TempDir(), gz)
	n := benchRecords()
	shared := benchShared()
	pages := make([][]byte, n)
	for i := range pages {
		pages[i] = benchPage(shared, i)
	}
	c := testCleaner(b)
	ctx := context.Background()
	dir := b.TempDir()
	// timed runs f between two collections (left out of the time), and
	// returns its wall and CPU time.
	timed := func(f func()) (time.Duration, time.Duration) {
		b.StopTimer()
		runtime.GC()
		b.StartTimer()
		t0, c0 := time.Now(), cpuTime()
		f()
		return time.Since(t0), cpuTime() - c0
	}
	i := 0
	runEngine := func() {
		runArchive(b, filepath.Join(dir, fmt.Sprintf("out%d", i)), path, n, Options{Cleaner: c, Jobs: benchJobs()})
		i++
	}
	runSingle := func() {
		for _, p := range pages {
			if _, err := c.Clean(ctx, sluice.Input{Data: p, ContentType: "text/html"}); err != nil {
				b.Fatal(err)
			}
		}
	}
	var engine, single, engineCPU, singleCPU time.Duration
	var ratios []float64
	for b.Loop() {
		// Every other op the single goroutine goes first, so that a
		// machine slowing down or speeding up over an op favours neither.
		var e, ec, s, sc time.Duration
		if i%2 == 0 {
			e, ec = timed(runEngine)
			s, sc = timed(runSingle)
		} else {
			s, sc = timed(runSingle)
			e, ec = timed(runEngine)
		}
		engine, single = engine+e, single+s
		engineCPU, singleCPU = engineCPU+ec, singleCPU+sc
		ratios = append(ratios, s.Seconds()/e.Seconds())
	}
	pn := float64(n * b.N)
	b.ReportMetric(pn/engine.Seconds(), "pages/s")
	b.ReportMetric(pn/single.Seconds(), "single-pages/s")
	b.ReportMetric(single.Seconds()/engine.Seconds(), "x-single")
	slices.Sort(ratios)
	b.ReportMetric(ratios[0], "min-x-single")
	b.ReportMetric(ratios[len(ratios)/2], "median-x-single")
	b.ReportMetric(engineCPU.Seconds()*1e3/pn, "cpu-ms/page")
	b.ReportMetric(singleCPU.Seconds()*1e3/pn, "single-cpu-ms/page")
}

// BenchmarkCleanSingle cleans the same pages with Cleaner.Clean on one
// goroutine, no reading or writing: the yardstick of BenchmarkCorpus.
//
// Clean runs on its caller's goroutine alone (statistical charset
// detection included, which six of the 58 CleanEval pages need): only the
// garbage collector's background work can use another CPU.
func BenchmarkCleanSingle(b *testing.B) {
	defer setGC()()
	shared := benchShared()
	if shared == nil {
		b.Skip("no shared data (../shared/data/cleaneval-dev)")
	}
	pages := make([][]byte, benchRecords())
	for i := range pages {
		pages[i] = benchPage(shared, i)
	}
	c := testCleaner(b)
	var size int64
	for _, p := range pages {
		size += int64(len(p))
	}
	ctx := context.Background()
	b.SetBytes(size)
	cpu0 := cpuTime()
	b.ResetTimer()
	for b.Loop() {
		for _, p := range pages {
			if _, err := c.Clean(ctx, sluice.Input{Data: p, ContentType: "text/html"}); err != nil {
				b.Fatal(err)
			}
		}
	}
	cpu := cpuTime() - cpu0
	b.ReportMetric(float64(len(pages)*b.N)/b.Elapsed().Seconds(), "pages/s")
	b.ReportMetric(cpu.Seconds()*1e3/float64(len(pages)*b.N), "cpu-ms/page")
}

// BenchmarkCleanParallel cleans the same pages with Cleaner.Clean on
// GOMAXPROCS goroutines, no reading or writing: the ceiling of
// BenchmarkCorpus on this machine (it shows what the machine gives to
// parallel work: on a shared or throttled machine, less than GOMAXPROCS
// times BenchmarkCleanSingle).
func BenchmarkCleanParallel(b *testing.B) {
	defer setGC()()
	shared := benchShared()
	if shared == nil {
		b.Skip("no shared data (../shared/data/cleaneval-dev)")
	}
	pages := make([][]byte, benchRecords())
	for i := range pages {
		pages[i] = benchPage(shared, i)
	}
	c := testCleaner(b)
	ctx := context.Background()
	cpu0 := cpuTime()
	b.ResetTimer()
	for b.Loop() {
		var wg sync.WaitGroup
		next := make(chan []byte)
		for range runtime.GOMAXPROCS(0) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for p := range next {
					if _, err := c.Clean(ctx, sluice.Input{Data: p, ContentType: "text/html"}); err != nil {
						b.Error(err)
					}
				}
			}()
		}
		for _, p := range pages {
			next <- p
		}
		close(next)
		wg.Wait()
	}
	cpu := cpuTime() - cpu0
	b.ReportMetric(float64(len(pages)*b.N)/b.Elapsed().Seconds(), "pages/s")
	b.ReportMetric(cpu.Seconds()*1e3/float64(len(pages)*b.N), "cpu-ms/page")
}

// setGC sets the garbage collector as sluice corpus does (GCPercent,
// MemoryLimit), for BenchmarkCorpus and BenchmarkCleanSingle alike, and
// returns a function that restores it. SLUICE_BENCH_GOGC=default leaves it
// alone; SLUICE_BENCH_GOGC=N sets GCPercent N instead (MemoryLimit as
// sluice corpus).
func setGC() func() {
	if os.Getenv("SLUICE_BENCH_GOGC") == "default" {
		return func() {}
	}
	gc := GCPercent
	if n, err := strconv.Atoi(os.Getenv("SLUICE_BENCH_GOGC")); err == nil {
		gc = n
	}
	pct := debug.SetGCPercent(gc)
	lim := debug.SetMemoryLimit(DefaultMemory) // as sluice corpus sets it by default
	return func() {
		debug.SetGCPercent(pct)
		debug.SetMemoryLimit(lim)
	}
}

// sampleHeap samples the heap until the returned function is called, which
// returns the largest value seen.
func sampleHeap() func() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak uint64
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			peak = max(peak, s[0].Value.Uint64())
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		<-finished
		return peak
	}
}

// BenchmarkRead runs the reader stage alone (read, decompress, parse the
// record and its HTTP response, decide, hash for duplicates) over the
// archive of BenchmarkCorpus, on one goroutine, with the GC settings of
// sluice corpus: its cpu-us/record is what the reader takes from the
// workers' CPUs for every page.
func BenchmarkRead(b *testing.B) {
	defer setGC()()
	for _, gz := range []bool{true, false} {
		name := "plain"
		if gz {
			name = "gz"
		}
		b.Run(name, func(b *testing.B) {
			path, size := benchArchive(b, b.TempDir(), gz)
			st, err := os.Stat(path)
			if err != nil {
				b.Fatal(err)
			}
			in := &input{path: path, abs: path, kind: kindArchive, size: st.Size()}
			n := benchRecords()
			b.SetBytes(size)
			b.ReportAllocs()
			cpu0 := cpuTime()
			b.ResetTimer()
			for b.Loop() {
				got := 0
				rd := &reader{maxRecord: DefaultMaxRecordBytes, dd: newDedup(DefaultDedupWindow)}
				rd.send = func(it *item) bool {
					if it.kind == kRecord {
						if it.body == nil {
							b.Fatalf("record not to be cleaned: %s %s", it.reason, it.detail)
						}
						got++
					}
					return true
				}
				rd.run(context.Background(), []*input{in})
				if got != n {
					b.Fatalf("%d records, want %d", got, n)
				}
			}
			cpu := cpuTime() - cpu0
			b.ReportMetric(b.Elapsed().Seconds()*1e6/float64(n*b.N), "us/record")
			b.ReportMetric(cpu.Seconds()*1e6/float64(n*b.N), "cpu-us/record")
		})
	}
}

// BenchmarkRender renders cleaned pages in each output format, on one
// goroutine: the workers' cost per page beyond Clean.
func BenchmarkRender(b *testing.B) {
	defer setGC()()
	shared := benchShared()
	if shared == nil {
		b.Skip("no shared data (../shared/data/cleaneval-dev)")
	}
	c := testCleaner(b)
	type cleanedPage struct {
		it *item
		p  *page.Page
	}
	var pages []cleanedPage
	for i, data := range shared {
		res, err := c.Clean(context.Background(), sluice.Input{Data: data, ContentType: "text/html"})
		if err != nil || !KeptText(res.Page) {
			continue
		}
		mo := int64(i * 1000)
		it := &item{uri: fmt.Sprintf("http://bench.example/%d", i), date: time.Now(),
			src: render.JSONSource{File: "bench.warc.gz", Offset: mo, Length: 1000, MemberOffset: &mo, RecordID: "<urn:uuid:00000000-0000-0000-0000-000000000000>"}}
		pages = append(pages, cleanedPage{it, res.Page})
	}
	for _, format := range Formats() {
		b.Run(format, func(b *testing.B) {
			r := newRenderer(&Options{Format: format})
			var out int64
			b.ReportAllocs()
			cpu0 := cpuTime()
			b.ResetTimer()
			for b.Loop() {
				for _, p := range pages {
					o, err := r.render(p.it, p.p)
					if err != nil {
						b.Fatal(err)
					}
					out += int64(len(o))
					putOut(o) // as the writer does
				}
			}
			cpu := cpuTime() - cpu0
			b.ReportMetric(b.Elapsed().Seconds()*1e6/float64(len(pages)*b.N), "us/page")
			b.ReportMetric(cpu.Seconds()*1e6/float64(len(pages)*b.N), "cpu-us/page")
			b.ReportMetric(float64(out)/float64(len(pages)*b.N), "out-B/page")
		})
	}
}

// benchJobs is the engine's number of workers in BenchmarkSpeedup:
// SLUICE_BENCH_JOBS, or the default (GOMAXPROCS).
func benchJobs() int {
	n, _ := strconv.Atoi(os.Getenv("SLUICE_BENCH_JOBS"))
	return n
}
