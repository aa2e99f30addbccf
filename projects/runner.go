package projects

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/sluice-project/sluice/store"
)

// This file is a minimal runner of background jobs for training: one at a
// time, in order, at most maxQueued waiting, each recorded in the store as
// a training run (queued, running, then done, failed, canceled or
// interrupted) with its progress. It is separate from the evaluation jobs
// of package server, whose runner is not exported: the two may run at
// once (an evaluation cleans, training trains), each within its own
// bounds.

// maxQueued bounds the training jobs waiting for the running one.
const maxQueued = 4

// progressEvery is how often a running job's progress is written to the
// store; the routes read the live figure from memory.
const progressEvery = time.Second

// Causes of a job's cancellation.
var (
	errCanceled = errors.New("canceled by a client")
	errShutdown = errors.New("the server shut down")
)

// job is a queued or running training job.
type job struct {
	id     int64
	work   func(ctx context.Context, report func(trainProgress)) (json.RawMessage, error)
	ctx    context.Context
	cancel context.CancelCauseFunc

	mu   sync.Mutex
	prog trainProgress
}

func (jb *job) progress() trainProgress {
	jb.mu.Lock()
	defer jb.mu.Unlock()
	return jb.prog
}

// runner runs jobs one at a time.
type runner struct {
	store *store.DB
	log   *slog.Logger

	mu      sync.Mutex
	queue   []*job
	live    map[int64]*job // queued and running
	working bool
	closed  bool
	idle    chan struct{} // closed when the worker stops
}

func newRunner(db *store.DB, log *slog.Logger) *runner {
	return &runner{store: db, log: log, live: map[int64]*job{}}
}

// submit queues jb, its run recorded as queued.
func (j *runner) submit(jb *job) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	switch {
	case j.closed:
		return newError(http.StatusServiceUnavailable, "shutting_down", "the server is shutting down and takes no new jobs")
	case len(j.queue) >= maxQueued:
		return newError(http.StatusServiceUnavailable, "busy", "%d training jobs are already waiting: retry when one is done", maxQueued)
	}
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
func (j *runner) work(idle chan struct{}) {
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
func (j *runner) run(jb *job) {
	defer func() {
		j.mu.Lock()
		delete(j.live, jb.id)
		j.mu.Unlock()
	}()
	bg := context.Background()
	if err := j.store.StartTrainRun(bg, jb.id); err != nil {
		j.log.Error("training: starting the run", "run", jb.id, "err", err)
		return
	}
	var last time.Time
	report := func(p trainProgress) {
		jb.mu.Lock()
		jb.prog = p
		jb.mu.Unlock()
		if time.Since(last) >= progressEvery {
			last = time.Now()
			b, _ := json.Marshal(p)
			j.store.TrainRunProgress(bg, jb.id, b)
		}
	}
	result, err := j.runWork(jb, report)
	status, msg := store.RunDone, ""
	switch cause := context.Cause(jb.ctx); {
	case err == nil:
	case errors.Is(cause, errCanceled):
		status, msg = store.RunCanceled, cause.Error()
	case errors.Is(cause, errShutdown):
		status, msg = store.RunInterrupted, cause.Error()
	default:
		status, msg = store.RunFailed, err.Error()
	}
	b, _ := json.Marshal(jb.progress())
	j.store.TrainRunProgress(bg, jb.id, b)
	if err := j.store.FinishTrainRun(bg, jb.id, status, result, msg); err != nil {
		j.log.Error("training: recording its end", "run", jb.id, "status", status, "err", err)
		return
	}
	j.log.Info("training run ended", "run", jb.id, "status", status, "error", msg)
}

// runWork runs jb's work, a panic an error.
func (j *runner) runWork(jb *job, report func(trainProgress)) (result json.RawMessage, err error) {
	defer func() {
		if v := recover(); v != nil {
			j.log.Error("training job panicked", "run", jb.id, "panic", v)
			err = fmt.Errorf("internal error: %v", v)
		}
	}()
	return jb.work(jb.ctx, report)
}

// cancel cancels a live job with cause; false when it is not live. A
// queued job is recorded at once.
func (j *runner) cancel(id int64, cause error) bool {
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
		if errors.Is(cause, errShutdown) {
			status = store.RunInterrupted
		}
		j.store.FinishTrainRun(context.Background(), id, status, nil, cause.Error())
	}
	return true
}

// progressOf returns a live job's progress.
func (j *runner) progressOf(id int64) (trainProgress, bool) {
	j.mu.Lock()
	jb, ok := j.live[id]
	j.mu.Unlock()
	if !ok {
		return trainProgress{}, false
	}
	return jb.progress(), true
}

// shutdown takes no more jobs, records the queued ones interrupted, lets
// the running one finish until ctx is done, then interrupts it and waits
// for it to be recorded.
func (j *runner) shutdown(ctx context.Context) {
	j.mu.Lock()
	j.closed = true
	var queued, running []int64
	for _, q := range j.queue {
		queued = append(queued, q.id)
	}
	for id := range j.live {
		running = append(running, id)
	}
	idle := j.idle
	j.mu.Unlock()
	for _, id := range queued {
		j.cancel(id, errShutdown)
	}
	if len(queued) > 0 {
		j.log.Warn("queued training runs interrupted by shutdown", "runs", queued)
	}
	if idle == nil {
		return
	}
	select {
	case <-idle:
		return
	case <-ctx.Done():
	}
	for _, id := range running {
		if j.cancel(id, errShutdown) {
			j.log.Warn("training run interrupted by shutdown", "run", id)
		}
	}
	<-idle
}
