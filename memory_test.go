package sluice

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// Memory on pathological pages. The worst page for a block labeller is
// the one with the most blocks per byte: "<p>word</p>" repeated, a block
// every 11 bytes. Its memory must grow with its bytes, and by a small
// factor: the bound below is the one the robustness issue set.

// pathological returns a page of size bytes made of "<p>word</p>".
func pathological(size int) []byte {
	const unit = "<p>word</p>"
	var b bytes.Buffer
	b.Grow(size + 16)
	b.WriteString("<html><body>")
	for b.Len()+len(unit) <= size {
		b.WriteString(unit)
	}
	return b.Bytes()
}

// peakHeapBound is the most heap cleaning an input of size bytes may take.
func peakHeapBound(size int) uint64 { return 40*uint64(size) + 100<<20 }

// heapWatch samples the heap's size (live and not yet collected objects)
// and the live heap the garbage collector last measured every 200 µs,
// and keeps the largest of each.
type heapWatch struct {
	stop       chan struct{}
	done       sync.WaitGroup
	peak, live uint64
}

func watchHeap() *heapWatch {
	runtime.GC()
	w := &heapWatch{stop: make(chan struct{})}
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/live:bytes"}}
	read := func() {
		metrics.Read(s)
		w.peak = max(w.peak, s[0].Value.Uint64())
		w.live = max(w.live, s[1].Value.Uint64())
	}
	read()
	w.done.Add(1)
	go func() {
		defer w.done.Done()
		t := time.NewTicker(200 * time.Microsecond)
		defer t.Stop()
		for {
			select {
			case <-w.stop:
				read()
				return
			case <-t.C:
				read()
			}
		}
	}()
	return w
}

// Stop stops the watch.
func (w *heapWatch) Stop() {
	close(w.stop)
	w.done.Wait()
}

// cleanPeak cleans data with c under a soft memory limit of limit bytes
// (none if 0) and returns the peak heap, the peak live heap and the result.
func cleanPeak(tb testing.TB, c *Cleaner, data []byte, limit int64) (peak, live uint64, res *Result) {
	if limit > 0 {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(limit))
	}
	w := watchHeap()
	res, err := c.Clean(context.Background(), Input{Data: data})
	runtime.GC() // measure what the page itself holds at the end
	w.Stop()
	if err != nil {
		tb.Fatal(err)
	}
	return w.peak, w.live, res
}

// TestPathologicalMemory checks the bound on a 2 MB pathological page with
// the default model and the heuristic pipeline, under a soft memory limit
// of the bound as the commands set one (see BenchmarkPathological), and
// that the text is kept; and that the model labels a page of more blocks
// than its limit no more, with a warning.
func TestPathologicalMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("cleans a 2 MB page of 190,000 blocks")
	}
	data := pathological(2 << 20)
	bound := peakHeapBound(len(data))
	for _, opts := range []Options{{}, {Filter: DefaultFilter}, {MaxModelBlocks: -1}} {
		c, err := New(opts)
		if err != nil {
			t.Fatal(err)
		}
		peak, live, res := cleanPeak(t, c, data, int64(bound))
		if peak > bound {
			t.Errorf("%+v: peak heap %d MB (live %d MB), more than the bound %d MB", opts, peak>>20, live>>20, bound>>20)
		}
		if text := len(res.Text()); text < len(data)/3 {
			t.Errorf("%+v: %d bytes of text kept of a %d-byte page of paragraphs", opts, text, len(data))
		}
		warned := slices.ContainsFunc(res.Warnings, func(w string) bool { return strings.Contains(w, "more than the model's limit") })
		if want := opts.Filter == "" && opts.MaxModelBlocks == 0; warned != want {
			t.Errorf("%+v: warned of the block limit: %v, want %v (warnings %q)", opts, warned, want, res.Warnings)
		}
	}
}

// BenchmarkPathological cleans pathological pages of 1 to 16 MB with the
// default model and reports the peak heap, absolute and over the input's
// size, the peak live heap (what the garbage collector found live), and
// the time per input byte, which should stay flat. The runtime's soft
// memory limit is set to the bound, 40 times the input plus 100 MB, as the
// commands set theirs (sluice corpus --memory): without one, the collector
// lets the heap grow to twice the live heap (GOGC=100) before it runs.
// Pages of more than Options.MaxModelBlocks blocks (2 MB and more here) are
// cleaned by the heuristic pipeline; the "nolimit" runs label them all with
// the model, and are reported, not checked: their live heap is some 33
// times the input, which the limit leaves room for, but the heap peaks above
// the bound from 8 MB on.
//
//	go test -run '^$' -bench Pathological -benchtime 1x
func BenchmarkPathological(b *testing.B) {
	for _, max := range []int{0, -1} {
		c, err := New(Options{MaxModelBlocks: max})
		if err != nil {
			b.Fatal(err)
		}
		name := "model"
		if max < 0 {
			name = "nolimit"
		}
		for _, mb := range []int{1, 2, 4, 8, 16} {
			b.Run(fmt.Sprintf("%s/%dMB", name, mb), func(b *testing.B) {
				benchPathological(b, c, pathological(mb<<20-64), max == 0)
			})
		}
	}
}

func benchPathological(b *testing.B, c *Cleaner, data []byte, check bool) {
	bound := peakHeapBound(len(data))
	var peak, live uint64
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		p, l, _ := cleanPeak(b, c, data, int64(bound))
		peak, live = max(peak, p), max(live, l)
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(peak)/float64(len(data)), "peak-heap/byte")
	b.ReportMetric(float64(live)/(1<<20), "peak-live-MB")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(data)), "ns/byte")
	if check && peak > bound {
		b.Errorf("peak heap %d MB, more than the bound %d MB", peak>>20, bound>>20)
	}
}
