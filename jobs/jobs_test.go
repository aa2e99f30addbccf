package jobs

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/sluice-project/sluice/store"
)

// ends is a Recorder that keeps how each run ended.
type ends struct {
	mu     sync.Mutex
	status map[int64]store.RunStatus
	done   chan int64
}

func (e *ends) StartRun(context.Context, int64, int) error         { return nil }
func (e *ends) RunProgress(context.Context, int64, int, int) error { return nil }
func (e *ends) FinishRun(_ context.Context, id int64, status store.RunStatus, _ int, _ []byte, _ string) error {
	e.mu.Lock()
	e.status[id] = status
	e.mu.Unlock()
	e.done <- id
	return nil
}

func (e *ends) of(id int64) store.RunStatus {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.status[id]
}

// TestRunner: jobs run in turn with their progress, a queued one is
// canceled at once and a running one when it looks, the queue is bounded,
// and a close interrupts what waits and refuses what comes.
func TestRunner(t *testing.T) {
	rec := &ends{status: map[int64]store.RunStatus{}, done: make(chan int64, 2*MaxQueued)}
	r := NewRunner(rec, slog.New(slog.NewTextHandler(io.Discard, nil)))
	release := make(chan struct{})
	blocking := func(ctx context.Context, progress func(done, total int)) ([]byte, error) {
		progress(1, 3)
		select {
		case <-release:
			return []byte(`{}`), nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if err := r.Submit(1, blocking); err != nil {
		t.Fatal(err)
	}
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		if done, total, ok := r.Progress(1); ok && done == 1 && total == 3 {
			break
		} else if time.Now().After(end) {
			t.Fatalf("progress of the running job: %d of %d, live %v", done, total, ok)
		}
	}
	for id := int64(2); id < 2+MaxQueued; id++ {
		if err := r.Submit(id, blocking); err != nil {
			t.Fatalf("job %d: %v", id, err)
		}
	}
	if err := r.Submit(99, blocking); err != ErrBusy {
		t.Errorf("a job over the queue's bound: %v, want ErrBusy", err)
	}
	if !r.Cancel(2, ErrCanceled) || <-rec.done != 2 || rec.of(2) != store.RunCanceled {
		t.Errorf("a queued job canceled: %q", rec.of(2))
	}
	close(release)
	if id := <-rec.done; id != 1 || rec.of(1) != store.RunDone {
		t.Errorf("job %d ended %q, want job 1 done", id, rec.of(id))
	}
	r.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	r.Wait(ctx)
	if err := r.Submit(100, blocking); err != ErrClosed {
		t.Errorf("a job after Close: %v, want ErrClosed", err)
	}
	for id := int64(3); id < 2+MaxQueued; id++ {
		if s := rec.of(id); s != store.RunInterrupted && s != store.RunDone {
			t.Errorf("job %d ended %q after Close", id, s)
		}
	}
}

// TestRunnerQueue: NewRunnerQueue bounds the queue as it is told.
func TestRunnerQueue(t *testing.T) {
	rec := &ends{status: map[int64]store.RunStatus{}, done: make(chan int64, 8)}
	r := NewRunnerQueue(rec, slog.New(slog.NewTextHandler(io.Discard, nil)), 1)
	release := make(chan struct{})
	started := make(chan struct{}, 1)
	blocking := func(ctx context.Context, progress func(done, total int)) ([]byte, error) {
		started <- struct{}{}
		select {
		case <-release:
			return nil, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if err := r.Submit(1, blocking); err != nil {
		t.Fatal(err)
	}
	<-started
	if err := r.Submit(2, blocking); err != nil {
		t.Fatalf("the one job allowed to wait: %v", err)
	}
	if err := r.Submit(3, blocking); err != ErrBusy {
		t.Errorf("a second job waiting: %v, want ErrBusy", err)
	}
	close(release)
	r.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	r.Wait(ctx)
}
