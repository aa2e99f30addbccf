package sluice

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"runtime/metrics"
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
// every 200 µs and keeps the largest seen.
type heapWatch struct {
	stop chan struct{}
	done sync.WaitGroup
	peak uint64
}

func watchHeap() *heapWatch {
	runtime.GC()
	w := &heapWatch{stop: make(chan struct{})}
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() {
		metrics.Read(s)
		w.peak = max(w.peak, s[0].Value.Uint64())
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

// Peak stops the watch and returns the largest heap seen.
func (w *heapWatch) Peak() uint64 {
	close(w.stop)
	w.done.Wait()
	return w.peak
}

// cleanPeak cleans data with c and returns the peak heap and the text kept.
func cleanPeak(tb testing.TB, c *Cleaner, data []byte) (uint64, int) {
	w := watchHeap()
	res, err := c.Clean(context.Background(), Input{Data: data})
	peak := w.Peak()
	if err != nil {
		tb.Fatal(err)
	}
	return peak, len(res.Text())
}

// TestPathologicalMemory checks the bound on a 2 MB pathological page with
// the default model and the heuristic pipeline, and that its text is kept.
func TestPathologicalMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("cleans a 2 MB page of 190,000 blocks")
	}
	data := pathological(2 << 20)
	for _, filter := range []string{"", DefaultFilter} {
		c, err := New(Options{Filter: filter})
		if err != nil {
			t.Fatal(err)
		}
		peak, text := cleanPeak(t, c, data)
		if bound := peakHeapBound(len(data)); peak > bound {
			t.Errorf("filter %q: peak heap %d MB, more than the bound %d MB", filter, peak>>20, bound>>20)
		}
		if text < len(data)/3 {
			t.Errorf("filter %q: %d bytes of text kept of a %d-byte page of paragraphs", filter, text, len(data))
		}
	}
}

// BenchmarkPathological cleans pathological pages of 1 to 16 MB with the
// default model and reports the peak heap, absolute and over the input's
// size, and the time per input byte, which should stay flat:
//
//	go test -run '^$' -bench Pathological -benchtime 1x
func BenchmarkPathological(b *testing.B) {
	c, err := New(Options{})
	if err != nil {
		b.Fatal(err)
	}
	for _, mb := range []int{1, 2, 4, 8, 16} {
		b.Run(fmt.Sprintf("%dMB", mb), func(b *testing.B) {
			data := pathological(mb<<20 - 64)
			var peak uint64
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				p, _ := cleanPeak(b, c, data)
				peak = max(peak, p)
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
			b.ReportMetric(float64(peak)/float64(len(data)), "peak-heap/byte")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(data)), "ns/byte")
			if bound := peakHeapBound(len(data)); peak > bound {
				b.Errorf("peak heap %d MB, more than the bound %d MB", peak>>20, bound>>20)
			}
		})
	}
}
