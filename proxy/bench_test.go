package proxy

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime/metrics"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/dataset"
	"github.com/sluice-project/sluice/xhtml"
)

// benchPages reads the pages of CleanEval's dev set ($SLUICE_DATA or
// ../shared/data), skipping the benchmark when they are absent.
func benchPages(b *testing.B) [][]byte {
	b.Helper()
	root, err := dataset.Root()
	if err != nil {
		root = "/work/shared/data"
	}
	files, _ := filepath.Glob(filepath.Join(root, "cleaneval-dev", "html", "*"))
	if len(files) == 0 {
		b.Skipf("no cleaneval-dev pages under %s", root)
	}
	slices.Sort(files)
	pages := make([][]byte, 0, len(files))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		pages = append(pages, data)
	}
	return pages
}

// benchCleaner is the default cleaner (the embedded model), built once.
var benchCleaner = sync.OnceValues(func() (*sluice.Cleaner, error) { return sluice.New(sluice.Options{}) })

// heapPeak samples the live heap until stopped and keeps its peak.
type heapPeak struct {
	stop chan struct{}
	done chan struct{}
	peak uint64
}

func startHeapPeak() *heapPeak {
	h := &heapPeak{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(h.done)
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			h.peak = max(h.peak, s[0].Value.Uint64())
			select {
			case <-h.stop:
				return
			case <-t.C:
			}
		}
	}()
	return h
}

// MB stops the sampling and returns the peak in MB.
func (h *heapPeak) MB() float64 {
	close(h.stop)
	<-h.done
	return float64(h.peak) / (1 << 20)
}

// reportLatencies reports throughput, p50 and p99 of lat over elapsed.
func reportLatencies(b *testing.B, lat []time.Duration, elapsed time.Duration, unit string) {
	slices.Sort(lat)
	ms := func(q float64) float64 { return float64(lat[int(q*float64(len(lat)-1))]) / 1e6 }
	b.ReportMetric(float64(len(lat))/elapsed.Seconds(), unit)
	b.ReportMetric(ms(0.50), "p50-ms")
	b.ReportMetric(ms(0.99), "p99-ms")
}

// runConcurrent runs do(i) for i in [0, b.N) on conc goroutines and
// returns each call's latency and the wall time.
func runConcurrent(b *testing.B, conc int, do func(i int)) ([]time.Duration, time.Duration) {
	lat := make([]time.Duration, b.N)
	var next atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for range conc {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < b.N; i = int(next.Add(1) - 1) {
				t0 := time.Now()
				do(i)
				lat[i] = time.Since(t0)
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	return lat, elapsed
}

// BenchmarkProxy sends b.N requests for CleanEval pages through the proxy
// to a local upstream, at concurrencies 1, 2, 4 and 8, with the default
// cleaner (the embedded model): requests per second, p50 and p99 latency,
// errors (a status other than 200 or a page not cleaned) and the peak
// live heap. Client, proxy and upstream share the machine.
//
//	nice go test -run '^$' -bench 'Proxy|CleanInProcess' -benchtime 400x ./proxy
func BenchmarkProxy(b *testing.B) {
	pages := benchPages(b)
	c, err := benchCleaner()
	if err != nil {
		b.Fatal(err)
	}
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i, _ := strconv.Atoi(r.URL.Path[1:])
		w.Header().Set("Content-Type", "text/html")
		w.Write(pages[i%len(pages)])
	}))
	defer up.Close()
	p, err := New(Config{Cleaner: c, AllowPrivate: true, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	srv := httptest.NewServer(p)
	defer srv.Close()
	pu, _ := url.Parse(srv.URL)
	for _, conc := range []int{1, 2, 4, 8} {
		b.Run("c="+strconv.Itoa(conc), func(b *testing.B) {
			client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(pu), MaxIdleConnsPerHost: conc}}
			defer client.CloseIdleConnections()
			var errs atomic.Int64
			heap := startHeapPeak()
			lat, elapsed := runConcurrent(b, conc, func(i int) {
				if !fetchCleaned(client, up.URL+"/"+strconv.Itoa(i)) {
					errs.Add(1)
				}
			})
			reportLatencies(b, lat, elapsed, "req/s")
			b.ReportMetric(float64(errs.Load()), "errors")
			b.ReportMetric(heap.MB(), "peak-heap-MB")
		})
	}
}

// fetchCleaned gets target through the proxy and reports whether it came
// back cleaned.
func fetchCleaned(c *http.Client, target string) bool {
	resp, err := c.Get(target)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return err == nil && resp.StatusCode == 200 && bytes.Contains(body, []byte(`id="sluice-bar"`))
}

// BenchmarkCleanInProcess is what the proxy adds its costs to: Clean and
// the content as XHTML (xhtml.Normalize, as the proxy writes it) in process
// on the same pages, on 1 and 2 goroutines.
func BenchmarkCleanInProcess(b *testing.B) {
	pages := benchPages(b)
	c, err := benchCleaner()
	if err != nil {
		b.Fatal(err)
	}
	for _, conc := range []int{1, 2} {
		b.Run(fmt.Sprintf("c=%d", conc), func(b *testing.B) {
			var errs atomic.Int64
			heap := startHeapPeak()
			lat, elapsed := runConcurrent(b, conc, func(i int) {
				data := pages[i%len(pages)]
				res, err := c.Clean(context.Background(), sluice.Input{Data: data, ContentType: "text/html"})
				if err == nil {
					_, err = xhtml.Normalize(io.Discard, data, xhtml.Options{ContentType: "text/html", Content: res.Page})
				}
				if err != nil {
					errs.Add(1)
				}
			})
			reportLatencies(b, lat, elapsed, "pages/s")
			b.ReportMetric(float64(errs.Load()), "errors")
			b.ReportMetric(heap.MB(), "peak-heap-MB")
		})
	}
}
