package server

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime"
	rtmetrics "runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/dataset"
)

// benchPages loads the cleaneval-dev pages (under $SLUICE_DATA or
// ../shared/data), or skips.
func benchPages(b *testing.B) [][]byte {
	b.Helper()
	if _, err := dataset.Root(); err != nil {
		b.Skipf("no data: %v", err)
	}
	set, err := dataset.Open("cleaneval-dev")
	if err != nil {
		b.Skipf("no cleaneval-dev: %v", err)
	}
	var pages [][]byte
	for p, err := range set.Pages() {
		if err != nil {
			b.Fatal(err)
		}
		pages = append(pages, p.HTML)
	}
	return pages
}

// BenchmarkServe sends b.N POST /v1/clean requests (the cleaneval-dev
// pages in turn, raw, answered as text) over loopback to a server started
// by the benchmark, from 1, 2, 4 and 8 clients at once, and reports the
// throughput (pages/s), the latency (p50-ms, p99-ms), the failed requests
// (errors), the ratio of the throughput to that of sluice.Clean called in
// process on every core (ratio), the peak heap and RSS of the process
// (client and server) and the live heap after the first tenth and after
// all of the requests (live-first-MB, live-last-MB: flat memory keeps them
// close). The in-process reference is reported as "inprocess".
//
//	go test ./server -run '^$' -bench Serve -benchtime 1000x
//	go test ./server -run '^$' -bench 'Serve/c=8' -benchtime 10000x   # memory over 10,000 requests
func BenchmarkServe(b *testing.B) {
	pages := benchPages(b)
	var ref float64
	b.Run("inprocess", func(b *testing.B) {
		ref = benchInProcess(b, pages)
	})
	for _, c := range []int{1, 2, 4, 8} {
		b.Run(fmt.Sprintf("c=%d", c), func(b *testing.B) {
			benchServe(b, pages, c, ref)
		})
	}
}

// benchInProcess cleans b.N pages with sluice.Clean on GOMAXPROCS
// goroutines and returns the pages per second.
func benchInProcess(b *testing.B, pages [][]byte) float64 {
	cl, err := sluice.New(sluice.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for _, p := range pages { // warm up: the model's load, the caches
		if _, err := cl.Clean(context.Background(), sluice.Input{Data: p, ContentType: "text/html"}); err != nil {
			b.Fatal(err)
		}
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := next.Add(1) - 1; i < int64(b.N); i = next.Add(1) - 1 {
				if _, err := cl.Clean(context.Background(), sluice.Input{Data: pages[i%int64(len(pages))], ContentType: "text/html"}); err != nil {
					b.Error(err)
				}
			}
		})
	}
	wg.Wait()
	rate := float64(b.N) / b.Elapsed().Seconds()
	b.ReportMetric(rate, "pages/s")
	return rate
}

// benchServe runs the load of BenchmarkServe at concurrency c.
func benchServe(b *testing.B, pages [][]byte, c int, ref float64) {
	srv, err := New(Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()
	defer func() {
		stop()
		if err := <-served; err != nil {
			b.Error(err)
		}
	}()
	url := "http://" + ln.Addr().String() + "/v1/clean"
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: c, DisableCompression: true}}
	defer client.CloseIdleConnections()

	for _, p := range pages { // warm up, as the reference does
		if !post(client, url, p) {
			b.Fatal("a warm-up request failed")
		}
	}
	lat := make([]time.Duration, b.N)
	var next atomic.Int64
	var errs atomic.Int64
	mem := startMemSampler(b.N / 10)
	b.ResetTimer()
	var wg sync.WaitGroup
	for range c {
		wg.Go(func() {
			for i := next.Add(1) - 1; i < int64(b.N); i = next.Add(1) - 1 {
				start := time.Now()
				if !post(client, url, pages[i%int64(len(pages))]) {
					errs.Add(1)
				}
				lat[i] = time.Since(start)
				mem.done(i)
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	m := mem.stop()
	slices.Sort(lat)
	rate := float64(b.N) / b.Elapsed().Seconds()
	b.ReportMetric(rate, "pages/s")
	b.ReportMetric(ms(lat[len(lat)/2]), "p50-ms")
	b.ReportMetric(ms(lat[min(len(lat)-1, len(lat)*99/100)]), "p99-ms")
	b.ReportMetric(float64(errs.Load()), "errors")
	if ref > 0 {
		b.ReportMetric(rate/ref, "ratio")
	}
	b.ReportMetric(mb(m.peakHeap), "peak-heap-MB")
	b.ReportMetric(mb(m.peakRSS), "peak-RSS-MB")
	b.ReportMetric(mb(m.liveFirst), "live-first-MB")
	b.ReportMetric(mb(liveHeap()), "live-last-MB")
}

// post sends one page and reads the answer; false for a failure.
func post(client *http.Client, url string, page []byte) bool {
	resp, err := client.Post(url, "text/html", bytes.NewReader(page))
	if err != nil {
		return false
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return err == nil && resp.StatusCode == http.StatusOK
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }
func mb(n uint64) float64        { return float64(n) / (1 << 20) }

// memSampler samples the heap and RSS every 20 ms while the load runs, and
// the live heap once the first request is done.
type memSampler struct {
	first    int64 // the request after which the live heap is taken
	quit     chan struct{}
	finished chan memFigures
	firstSet atomic.Bool
	live     atomic.Uint64
}

type memFigures struct{ peakHeap, peakRSS, liveFirst uint64 }

func startMemSampler(first int) *memSampler {
	s := &memSampler{first: int64(first), quit: make(chan struct{}), finished: make(chan memFigures, 1)}
	go func() {
		var f memFigures
		sample := []rtmetrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			rtmetrics.Read(sample)
			f.peakHeap = max(f.peakHeap, sample[0].Value.Uint64())
			f.peakRSS = max(f.peakRSS, rss())
			select {
			case <-s.quit:
				f.liveFirst = s.live.Load()
				s.finished <- f
				return
			case <-t.C:
			}
		}
	}()
	return s
}

// done notes that request i was answered.
func (s *memSampler) done(i int64) {
	if i >= s.first && s.firstSet.CompareAndSwap(false, true) {
		s.live.Store(liveHeap())
	}
}

func (s *memSampler) stop() memFigures {
	close(s.quit)
	return <-s.finished
}

// liveHeap is the heap the last garbage collection found live.
func liveHeap() uint64 {
	sample := []rtmetrics.Sample{{Name: "/gc/heap/live:bytes"}}
	rtmetrics.Read(sample)
	return sample[0].Value.Uint64()
}

// rss is the process's resident set size from /proc, 0 elsewhere.
func rss() uint64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}
