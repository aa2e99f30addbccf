package parallel

import (
	"context"
	"sync"
)

// Budget bounds the total weight of what is in flight: a weighted
// semaphore, such as the bytes of the pages held between a reader and a
// writer. Weights are admitted in the order they are asked for. A weight
// larger than the whole budget is admitted when nothing else is held, so
// that one large item still goes through, alone. A Budget is safe for
// concurrent use and may be shared by several Maps, to bound the memory of
// a process rather than of one run.
type Budget struct {
	mu      sync.Mutex
	size    int64
	used    int64
	waiting []*waiter // in the order they asked
}

type waiter struct {
	n     int64
	ready chan struct{} // closed when admitted
}

// NewBudget returns a Budget of size (in whatever unit the weights are).
func NewBudget(size int64) *Budget { return &Budget{size: size} }

// fits reports whether n can be admitted now; b.mu is held.
func (b *Budget) fits(n int64) bool { return b.used <= 0 || b.used+n <= b.size }

// Acquire waits until n is admitted, or ctx is done (it then returns
// ctx.Err() and holds nothing).
func (b *Budget) Acquire(ctx context.Context, n int64) error {
	b.mu.Lock()
	if len(b.waiting) == 0 && b.fits(n) {
		b.used += n
		b.mu.Unlock()
		return nil
	}
	if err := ctx.Err(); err != nil {
		b.mu.Unlock()
		return err
	}
	w := &waiter{n: n, ready: make(chan struct{})}
	b.waiting = append(b.waiting, w)
	b.mu.Unlock()
	select {
	case <-w.ready:
		return nil
	case <-ctx.Done():
	}
	b.mu.Lock()
	select {
	case <-w.ready:
		// Admitted meanwhile: give it back.
		b.used -= n
	default:
		for i, x := range b.waiting {
			if x == w {
				b.waiting = append(b.waiting[:i], b.waiting[i+1:]...)
				break
			}
		}
	}
	// The waiters behind it may fit now.
	b.admit()
	b.mu.Unlock()
	return ctx.Err()
}

// Grow adds n at once, without waiting: for an item that takes more once
// it was worked on. Later weights wait until the excess is released.
func (b *Budget) Grow(n int64) {
	b.mu.Lock()
	b.used += n
	b.mu.Unlock()
}

// Release gives back n: a weight admitted, or grown.
func (b *Budget) Release(n int64) {
	b.mu.Lock()
	b.used -= n
	b.admit()
	b.mu.Unlock()
}

// Size returns the budget's size, as given to NewBudget.
func (b *Budget) Size() int64 { return b.size }

// Used returns the weight held now.
func (b *Budget) Used() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}

// admit lets the waiters in, first come first, while they fit; b.mu is
// held.
func (b *Budget) admit() {
	for len(b.waiting) > 0 && b.fits(b.waiting[0].n) {
		w := b.waiting[0]
		b.waiting[0] = nil
		b.waiting = b.waiting[1:]
		b.used += w.n
		close(w.ready)
	}
}
