// Package freelist keeps per-call working memory for reuse, as sync.Pool
// does, but keeps it: an item put back into a sync.Pool goes first to the
// private slot of the processor (P) that put it, out of reach of goroutines
// running on another, and everything in a pool is dropped within two
// garbage collections, so that buffers of a few hundred kilobytes a page
// were made again for a third of the pages. A List
// holds up to a fixed number of items in a channel, reachable from any
// goroutine, until they are taken.
package freelist

import "runtime"

// List is a bounded free list of *T. The zero value is not usable; make
// one with New. It is safe for concurrent use.
type List[T any] struct {
	ch chan *T
}

// New returns a List that keeps up to n items; n < 1 means twice
// GOMAXPROCS (at the time of the call), at least 4.
func New[T any](n int) *List[T] {
	if n < 1 {
		n = max(4, 2*runtime.GOMAXPROCS(0))
	}
	return &List[T]{ch: make(chan *T, n)}
}

// Get returns a kept item, or a new zero T when none is kept.
func (l *List[T]) Get() *T {
	select {
	case x := <-l.ch:
		return x
	default:
		return new(T)
	}
}

// Put keeps x for a later Get, unless the list is full (x is then left to
// the garbage collector). The caller must not use x afterwards, and should
// not put back items that hold more memory than it wants kept.
func (l *List[T]) Put(x *T) {
	if x == nil {
		return
	}
	select {
	case l.ch <- x:
	default:
	}
}
