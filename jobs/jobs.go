// Package jobs runs the background jobs of sluice serve (evaluations of
// filter sets; training from annotation projects, on a runner of its own)
// one at a time, with their progress, cancellation and shutdown,
// recording each as a run in the store.
//
//	r := jobs.NewRunner(db, logger)
//	run, err := db.CreateRun(ctx, ...) // queued
//	err = r.Submit(run.ID, func(ctx context.Context, progress func(done, total int)) ([]byte, error) { ... })
//	r.Cancel(run.ID, jobs.ErrCanceled)
//	r.Close(); r.Wait(ctx) // on shutdown
package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sluice-project/sluice/store"
)

// MaxQueued bounds the jobs waiting for the running one, unless
// NewRunnerQueue says otherwise.
const MaxQueued = 16

// progressEvery is how often a running job's progress is written to the
// store; GET /v1/jobs/{id} reads the live figure from memory.
const progressEvery = time.Second

// Causes of a job's cancellation, for Runner.Cancel: a job canceled with
// ErrCanceled is recorded canceled, with ErrShutdown interrupted.
var (
	ErrCanceled = errors.New("canceled by a client")
	ErrShutdown = errors.New("the server shut down")
)

// Errors of Runner.Submit.
var (
	ErrClosed = errors.New("the server is shutting down and takes no new jobs")
	ErrBusy   = errors.New("too many jobs are waiting")
)

// Work is what a job does: it reports its progress (pages done of total)
// as it goes, stops when ctx is done, and returns its result (JSON) for
// the run's record.
type Work func(ctx context.Context, progress func(done, total int)) (result []byte, err error)

// Recorder records the runs of the jobs; *store.DB is one.
type Recorder interface {
	StartRun(ctx context.Context, id int64, total int) error
	RunProgress(ctx context.Context, id int64, done, total int) error
	FinishRun(ctx context.Context, id int64, status store.RunStatus, done int, result []byte, errMsg string) error
}

// job is a queued or running job.
type job struct {
	id     int64
	work   Work
	ctx    context.Context
	cancel context.CancelCauseFunc
	done   atomic.Int64
	total  atomic.Int64
}

// Runner runs jobs one at a time, in the order they came, and records
// each as a run: started, its progress every second, and how it ended
// (done, failed, canceled or interrupted). Close and Wait do nothing on
// a nil *Runner (a server without a store).
type Runner struct {
	store     Recorder
	log       *slog.Logger
	maxQueued int

	mu      sync.Mutex
	queue   []*job
	live    map[int64]*job // queued and running
	working bool           // a worker goroutine is running
	closed  bool
	idle    chan struct{} // closed when the worker stops; nil while none ever ran
}

// NewRunner returns a runner recording its runs with rec, at most
// MaxQueued jobs waiting.
func NewRunner(rec Recorder, log *slog.Logger) *Runner {
	return NewRunnerQueue(rec, log, MaxQueued)
}

// NewRunnerQueue returns a runner recording its runs with rec, at most
// maxQueued jobs waiting.
func NewRunnerQueue(rec Recorder, log *slog.Logger, maxQueued int) *Runner {
	return &Runner{store: rec, log: log, maxQueued: maxQueued, live: map[int64]*job{}}
}

// Submit queues the job of run id (already recorded as queued): ErrClosed
// once the runner is closed, ErrBusy when the most jobs it lets wait do.
func (j *Runner) Submit(id int64, work Work) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	switch {
	case j.closed:
		return ErrClosed
	case len(j.queue) >= j.maxQueued:
		return ErrBusy
	}
	jb := &job{id: id, work: work}
	jb.ctx, jb.cancel = context.WithCancelCause(context.Background())
	j.queue = append(j.queue, jb)
	j.live[jb.id] = jb
	if !j.working {
		j.working = true
		j.idle = make(chan struct{})
		go j.work(j.idle)
	}
	return nil
}

// work runs the queue until it is empty or the runner closed.
func (j *Runner) work(idle chan struct{}) {
	defer close(idle)
	for {
		j.mu.Lock()
		if len(j.queue) == 0 || j.closed {
			j.working = false
			j.mu.Unlock()
			return
		}
		jb := j.queue[0]
		j.queue = j.queue[1:]
		j.mu.Unlock()
		j.run(jb)
	}
}

// run runs one job and records how it ended.
func (j *Runner) run(jb *job) {
	defer func() {
		j.mu.Lock()
		delete(j.live, jb.id)
		j.mu.Unlock()
	}()
	bg := context.Background()
	if err := j.store.StartRun(bg, jb.id, 0); err != nil {
		j.log.Error("job: starting the run", "job", jb.id, "err", err)
		return
	}
	var last time.Time
	progress := func(done, total int) {
		jb.done.Store(int64(done))
		jb.total.Store(int64(total))
		if time.Since(last) >= progressEvery {
			last = time.Now()
			j.store.RunProgress(bg, jb.id, done, total)
		}
	}
	result, err := j.runWork(jb, progress)
	status, msg := store.RunDone, ""
	switch cause := context.Cause(jb.ctx); {
	case err == nil:
	case errors.Is(cause, ErrCanceled):
		status, msg = store.RunCanceled, cause.Error()
	case errors.Is(cause, ErrShutdown):
		status, msg = store.RunInterrupted, cause.Error()
	default:
		status, msg = store.RunFailed, err.Error()
	}
	if err := j.store.FinishRun(bg, jb.id, status, int(jb.done.Load()), result, msg); err != nil {
		j.log.Error("job: recording its end", "job", jb.id, "status", status, "err", err)
		return
	}
	j.log.Info("job ended", "job", jb.id, "status", status, "done", jb.done.Load(), "total", jb.total.Load(), "error", msg)
}

// runWork runs jb's work, a panic an error.
func (j *Runner) runWork(jb *job, progress func(done, total int)) (result []byte, err error) {
	defer func() {
		if v := recover(); v != nil {
			j.log.Error("job panicked", "job", jb.id, "panic", v)
			err = fmt.Errorf("internal error: %v", v)
		}
	}()
	return jb.work(jb.ctx, progress)
}

// Cancel cancels a live job with cause (ErrCanceled, ErrShutdown); false
// when it is not live. A queued job is recorded at once, a running one
// when its work returns.
func (j *Runner) Cancel(id int64, cause error) bool {
	j.mu.Lock()
	jb, ok := j.live[id]
	queued := false
	if ok {
		for i, q := range j.queue {
			if q == jb {
				j.queue = append(j.queue[:i], j.queue[i+1:]...)
				delete(j.live, id)
				queued = true
				break
			}
		}
	}
	j.mu.Unlock()
	if !ok {
		return false
	}
	jb.cancel(cause)
	if queued {
		status := store.RunCanceled
		if errors.Is(cause, ErrShutdown) {
			status = store.RunInterrupted
		}
		j.store.FinishRun(context.Background(), id, status, 0, nil, cause.Error())
	}
	return true
}

// Progress returns a live job's progress.
func (j *Runner) Progress(id int64) (done, total int, ok bool) {
	j.mu.Lock()
	jb, ok := j.live[id]
	j.mu.Unlock()
	if !ok {
		return 0, 0, false
	}
	return int(jb.done.Load()), int(jb.total.Load()), true
}

// Close takes no more jobs and records the queued ones interrupted.
func (j *Runner) Close() {
	if j == nil {
		return
	}
	j.mu.Lock()
	j.closed = true
	queued := make([]int64, len(j.queue))
	for i, q := range j.queue {
		queued[i] = q.id
	}
	j.mu.Unlock()
	for _, id := range queued {
		j.Cancel(id, ErrShutdown)
	}
	if len(queued) > 0 {
		j.log.Warn("queued jobs interrupted by shutdown", "jobs", queued)
	}
}

// Wait lets the running job finish until ctx is done, then interrupts it
// and waits for it to be recorded.
func (j *Runner) Wait(ctx context.Context) {
	if j == nil {
		return
	}
	j.mu.Lock()
	idle := j.idle
	var running []int64
	for id := range j.live {
		running = append(running, id)
	}
	j.mu.Unlock()
	if idle == nil {
		return
	}
	select {
	case <-idle:
		return
	case <-ctx.Done():
	}
	for _, id := range running {
		j.log.Warn("job interrupted by shutdown", "job", id)
		j.Cancel(id, ErrShutdown)
	}
	<-idle
}
