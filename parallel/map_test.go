package parallel

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

// The results come in input order whatever the number of workers and the
// time each item takes; an item's error comes with it and stops nothing.
func TestMapOrder(t *testing.T) {
	const n = 300
	for _, jobs := range []int{1, 2, 3, 8} {
		t.Run(fmt.Sprint(jobs), func(t *testing.T) {
			work := func(_ context.Context, i int) (int, error) {
				time.Sleep(time.Duration((i*7919)%5) * 100 * time.Microsecond)
				if i%10 == 3 {
					return -i, fmt.Errorf("item %d", i)
				}
				return i * i, nil
			}
			i := 0
			for out, err := range Map(context.Background(), count(n), work, Options[int]{Jobs: jobs}) {
				if i%10 == 3 {
					if err == nil || err.Error() != fmt.Sprintf("item %d", i) || out != -i {
						t.Fatalf("item %d: got %d, %v; want its error", i, out, err)
					}
				} else if err != nil || out != i*i {
					t.Fatalf("item %d: got %d, %v; want %d", i, out, err, i*i)
				}
				i++
			}
			if i != n {
				t.Fatalf("%d results, want %d", i, n)
			}
		})
	}
}

// count yields 0, 1, ..., n-1.
func count(n int) func(func(int) bool) {
	return func(yield func(int) bool) {
		for i := range n {
			if !yield(i) {
				return
			}
		}
	}
}

// At most Window items are in flight: taken from the input and not yet
// yielded, while the first item is slow.
func TestMapWindow(t *testing.T) {
	var taken, yielded atomic.Int64
	in := func(yield func(int) bool) {
		for i := range 100 {
			taken.Add(1)
			if !yield(i) {
				return
			}
		}
	}
	const window = 5
	var most int64
	work := func(_ context.Context, i int) (int, error) {
		if i == 0 {
			time.Sleep(20 * time.Millisecond)
		}
		return i, nil
	}
	for range Map(context.Background(), in, work, Options[int]{Jobs: 2, Window: window}) {
		// The feeder may hold one more item, taken and not yet admitted.
		most = max(most, taken.Load()-yielded.Load())
		yielded.Add(1)
	}
	if most > window+1 {
		t.Errorf("%d items in flight, window %d", most, window)
	}
}

// A Budget bounds the weight in flight, and lets one item heavier than
// the whole budget through alone.
func TestMapBudget(t *testing.T) {
	b := NewBudget(100)
	weights := []int64{30, 30, 30, 30, 250, 10, 60, 60, 60}
	var in, most atomic.Int64
	work := func(_ context.Context, i int) (int, error) {
		time.Sleep(time.Millisecond)
		used := b.Used()
		for {
			m := most.Load()
			if used <= m || most.CompareAndSwap(m, used) {
				break
			}
		}
		if weights[i] > 100 && used != weights[i] {
			t.Errorf("item %d of weight %d admitted with %d in flight", i, weights[i], used)
		}
		in.Add(1)
		return i, nil
	}
	opts := Options[int]{Jobs: 4, Budget: b, Weight: func(i int) int64 { return weights[i] }}
	var got []int
	for out, err := range Map(context.Background(), count(len(weights)), work, opts) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, out)
	}
	if !slices.Equal(got, []int{0, 1, 2, 3, 4, 5, 6, 7, 8}) {
		t.Errorf("got %v", got)
	}
	if m := most.Load(); m > 250 || m > 100 && m != 250 {
		t.Errorf("%d in flight at most, budget 100", m)
	}
	if u := b.Used(); u != 0 {
		t.Errorf("%d left in the budget after the run", u)
	}
}

// Weight is asked again when the item is given back: what work added with
// Grow is released with it.
func TestMapGrow(t *testing.T) {
	b := NewBudget(1000)
	type item struct{ w int64 }
	items := []*item{{10}, {20}, {30}}
	work := func(_ context.Context, it *item) (*item, error) {
		b.Grow(5)
		it.w += 5
		return it, nil
	}
	opts := Options[*item]{Jobs: 2, Budget: b, Weight: func(it *item) int64 { return it.w }}
	for range Map(context.Background(), slices.Values(items), work, opts) {
	}
	if u := b.Used(); u != 0 {
		t.Errorf("%d left in the budget after the run", u)
	}
}

// Stopping early or cancelling takes no more items, runs no more work
// once Map has returned, and gives the budget back.
func TestMapStop(t *testing.T) {
	for _, cancelled := range []bool{false, true} {
		b := NewBudget(1 << 20)
		var worked atomic.Int64
		ctx, cancel := context.WithCancel(context.Background())
		work := func(ctx context.Context, i int) (int, error) {
			worked.Add(1)
			time.Sleep(100 * time.Microsecond)
			return i, nil
		}
		n := 0
		for range Map(ctx, count(1_000_000), work, Options[int]{Jobs: 3, Budget: b}) {
			n++
			if n == 50 {
				if !cancelled {
					break
				}
				cancel()
			}
		}
		cancel()
		after := worked.Load()
		time.Sleep(5 * time.Millisecond)
		if worked.Load() != after {
			t.Errorf("cancelled %v: work went on after Map returned", cancelled)
		}
		if n != 50 {
			t.Errorf("cancelled %v: %d results yielded, want 50", cancelled, n)
		}
		if after > 50+int64(DefaultWindow(3))+3 {
			t.Errorf("cancelled %v: %d items worked on after stopping at 50", cancelled, after)
		}
		if u := b.Used(); u != 0 {
			t.Errorf("cancelled %v: %d left in the budget", cancelled, u)
		}
	}
}

// A panic in the caller's loop leaves nothing held and nothing running.
func TestMapPanic(t *testing.T) {
	b := NewBudget(1 << 20)
	var worked atomic.Int64
	work := func(_ context.Context, i int) (int, error) {
		worked.Add(1)
		return i, nil
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("the panic was lost")
			}
		}()
		for i := range Map(context.Background(), count(1000), work, Options[int]{Jobs: 2, Budget: b}) {
			if i == 10 {
				panic("in the loop")
			}
		}
	}()
	after := worked.Load()
	time.Sleep(5 * time.Millisecond)
	if worked.Load() != after {
		t.Error("work went on after the panic")
	}
	if u := b.Used(); u != 0 {
		t.Errorf("%d left in the budget", u)
	}
}

// Acquire gives up when its context is done, and a waiter that gives up
// lets the ones behind it in.
func TestBudgetCancel(t *testing.T) {
	b := NewBudget(10)
	ctx := context.Background()
	if err := b.Acquire(ctx, 8); err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 5*time.Millisecond)
	defer cancel()
	if err := b.Acquire(short, 5); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Acquire over the budget: %v, want the deadline", err)
	}
	done := make(chan error)
	go func() { done <- b.Acquire(ctx, 2) }()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	b.Release(10)
	if u := b.Used(); u != 0 {
		t.Errorf("used %d, want 0", u)
	}
}

// A weight larger than the whole budget waits until nothing is held, and
// is then admitted alone.
func TestBudgetOverSize(t *testing.T) {
	b := NewBudget(10)
	ctx := context.Background()
	if b.Acquire(ctx, 6) != nil || b.Acquire(ctx, 4) != nil {
		t.Fatal("Acquire within the budget failed")
	}
	got := make(chan error)
	go func() { got <- b.Acquire(ctx, 20) }()
	b.Release(6)
	select {
	case <-got:
		t.Fatal("admitted while 4 were held")
	case <-time.After(20 * time.Millisecond):
	}
	b.Release(4)
	if err := <-got; err != nil {
		t.Fatalf("a weight over the budget was refused when nothing was held: %v", err)
	}
	if u := b.Used(); u != 20 {
		t.Errorf("used %d, want 20", u)
	}
}
