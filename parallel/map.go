// Package parallel runs work on several goroutines and hands the results
// back in the order of the input, with the work in flight bounded: the
// engine under sluice clean, sluice corpus and sluice bench.
//
// Map takes its items from an iter.Seq on one goroutine, runs the work on
// Options.Jobs goroutines, and yields each item's result on the caller's
// goroutine in input order, whatever the number of workers and however
// long each item takes. An item's error is yielded with its result and
// stops nothing. What is in flight (taken from the input and not yet
// yielded) is bounded by count (Options.Window) and, optionally, by weight
// (Options.Budget with Options.Weight: the bytes an item holds, say), so
// that a fast reader cannot fill memory while a slow page is cleaned.
package parallel

import (
	"context"
	"iter"
	"runtime"
	"sync"
)

// Options configure Map. The zero value means the defaults.
type Options[In any] struct {
	// Jobs is the number of goroutines that run the work. Default:
	// GOMAXPROCS.
	Jobs int
	// Window bounds the items in flight: admitted and not yet yielded
	// (queued, being worked on, or done and waiting for an earlier item
	// to be yielded). One more may have been taken from the input, waiting
	// to be admitted. Default: DefaultWindow(Jobs).
	Window int
	// Budget, if set, bounds the items in flight by weight too: an item is
	// taken in only once Budget admits its weight, and gives it back once
	// its result was yielded (or dropped). A Budget may be shared by
	// several Maps running at once.
	Budget *Budget
	// Weight is an item's weight in Budget; default 1. It is called when
	// the item is admitted, and again once its result was yielded or
	// dropped, for the weight to give back: work that makes an item hold
	// more (a pointer item that keeps a larger result) adds the difference
	// with Budget.Grow and makes Weight report the larger weight.
	Weight func(In) int64
}

// DefaultWindow is the default Options.Window for jobs workers: long
// enough that a worker or the reader waiting for a CPU (the Go scheduler
// may leave a goroutine runnable for a 10 ms time slice while the others
// hold every CPU) does not starve the others.
func DefaultWindow(jobs int) int { return 64 + 4*jobs }

// task is one item on its way through Map.
type task[In, Out any] struct {
	in   In
	out  Out
	err  error
	done chan struct{} // closed once out and err are set, or the work was left out
}

// Map calls work on every item of in, on opts.Jobs goroutines at once, and
// yields work's two results for each item in the order of in: the n-th
// pair yielded is the n-th item's, whatever the number of workers. An
// error is yielded with its item's result (work may return both) and
// does not stop the others.
//
// in is ranged over on a goroutine of its own; work gets a context that
// is cancelled when ctx is or when the caller stops ranging. Then no more
// items are taken from in, the work not yet begun is left out, and the
// results not yet yielded are dropped; Map returns once every goroutine it
// started has finished. A cancellation is not yielded: check ctx.Err().
func Map[In, Out any](ctx context.Context, in iter.Seq[In], work func(context.Context, In) (Out, error), opts Options[In]) iter.Seq2[Out, error] {
	return func(yield func(Out, error) bool) {
		jobs := opts.Jobs
		if jobs <= 0 {
			jobs = runtime.GOMAXPROCS(0)
		}
		window := opts.Window
		if window <= 0 {
			window = DefaultWindow(jobs)
		}
		weight := opts.Weight
		if weight == nil {
			weight = func(In) int64 { return 1 }
		}
		release := func(x In) {
			if opts.Budget != nil {
				opts.Budget.Release(weight(x))
			}
		}
		ctx, cancel := context.WithCancel(ctx)
		// order holds the tasks in input order, for the caller; todo the
		// same tasks for the workers. A task in flight is in order or
		// held by the caller (one at most), so there are window at most,
		// and todo, which holds undone ones, never blocks.
		order := make(chan *task[In, Out], window-1)
		todo := make(chan *task[In, Out], window)
		var wg sync.WaitGroup
		wg.Go(func() { feed(ctx, in, opts.Budget, weight, release, order, todo) })
		for range jobs {
			wg.Go(func() {
				for t := range todo {
					if ctx.Err() == nil {
						t.out, t.err = work(ctx, t.in)
					}
					close(t.done)
				}
			})
		}
		// However the caller leaves (done, stopped, or a panic in yield),
		// the tasks in flight are dropped and given back, and the
		// goroutines end.
		var held *task[In, Out] // taken from order, not given back yet
		defer func() {
			cancel()
			if held != nil {
				release(held.in)
			}
			for t := range order {
				<-t.done
				release(t.in)
			}
			wg.Wait()
		}()
		for t := range order {
			held = t
			<-t.done
			if ctx.Err() != nil {
				return
			}
			ok := yield(t.out, t.err)
			held = nil
			release(t.in)
			if !ok {
				return
			}
		}
	}
}

// feed takes the items of in, admits them into the budget (if any) and
// hands them to order and todo, until in ends or ctx is done; then it
// closes both.
func feed[In, Out any](ctx context.Context, in iter.Seq[In], budget *Budget, weight func(In) int64, release func(In),
	order, todo chan<- *task[In, Out]) {
	defer close(todo)
	defer close(order)
	for x := range in {
		if budget != nil && budget.Acquire(ctx, weight(x)) != nil {
			return
		}
		t := &task[In, Out]{in: x, done: make(chan struct{})}
		select {
		case order <- t:
		case <-ctx.Done():
			release(x)
			return
		}
		todo <- t
	}
}
