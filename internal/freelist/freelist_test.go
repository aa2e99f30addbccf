package freelist

import (
	"runtime"
	"sync"
	"testing"
)

// An item put back is the one Get returns next, across garbage
// collections and whatever processor the goroutine runs on.
func TestKeepsAcrossGC(t *testing.T) {
	l := New[[]byte](1)
	first := l.Get()
	*first = make([]byte, 1<<20)
	l.Put(first)
	for range 20 {
		runtime.GC()
		x := l.Get()
		if x != first {
			t.Fatalf("Get after GC returned a new item")
		}
		l.Put(x)
	}
}

// Beyond its size a List drops what it is given; Get then makes new items.
func TestBounded(t *testing.T) {
	l := New[int](2)
	a, b, c := new(int), new(int), new(int)
	*a, *b, *c = 1, 2, 3
	l.Put(a)
	l.Put(b)
	l.Put(c) // dropped
	l.Put(nil)
	got := map[int]bool{}
	for range 2 {
		got[*l.Get()] = true
	}
	if !got[1] || !got[2] {
		t.Fatalf("kept %v, want 1 and 2", got)
	}
	if x := l.Get(); *x != 0 {
		t.Fatalf("third Get = %d, want a new zero item", *x)
	}
}

func TestDefaultSize(t *testing.T) {
	if n := cap(New[int](0).ch); n < 4 || n < 2*runtime.GOMAXPROCS(0) {
		t.Fatalf("default size %d", n)
	}
}

func TestConcurrent(t *testing.T) {
	l := New[int](0)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 1000 {
				x := l.Get()
				*x++
				l.Put(x)
			}
		}()
	}
	wg.Wait()
	total := 0
	for range cap(l.ch) {
		total += *l.Get()
	}
	if total > 8000 || total == 0 {
		t.Fatalf("total %d", total)
	}
}
