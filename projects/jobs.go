package projects

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync"

	"github.com/sluice-project/sluice/jobs"
	"github.com/sluice-project/sluice/store"
)

// Training runs on a runner of package jobs of its own (one run at a time,
// in order, at most maxQueued waiting, progress, cancel, shutdown),
// separate from the server's evaluations: the two may run at once (an
// evaluation cleans, training trains), and their runs are numbered apart
// (the store's train_runs and runs tables). trainRecorder adapts the
// runner's record of a run to the store's training runs, whose progress
// is a trainProgress rather than pages done of a total.

// maxQueued bounds the training jobs waiting for the running one.
const maxQueued = 4

// trainRecorder is the jobs.Recorder of training runs: it records them
// in the store's train_runs table, and keeps the live progress of each
// running one, which the runner writes to the store every second.
type trainRecorder struct {
	db *store.DB

	mu   sync.Mutex
	live map[int64]trainProgress // runs started and not over
}

func newTrainRecorder(db *store.DB) *trainRecorder {
	return &trainRecorder{db: db, live: map[int64]trainProgress{}}
}

// report sets run id's live progress.
func (t *trainRecorder) report(id int64, p trainProgress) {
	t.mu.Lock()
	t.live[id] = p
	t.mu.Unlock()
}

// progress returns run id's live progress; false when it is not running.
func (t *trainRecorder) progress(id int64) (trainProgress, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	p, ok := t.live[id]
	return p, ok
}

func (t *trainRecorder) StartRun(ctx context.Context, id int64, _ int) error {
	t.report(id, trainProgress{})
	return t.db.StartTrainRun(ctx, id)
}

func (t *trainRecorder) RunProgress(ctx context.Context, id int64, _, _ int) error {
	p, ok := t.progress(id)
	if !ok {
		return nil
	}
	b, _ := json.Marshal(p)
	return t.db.TrainRunProgress(ctx, id, b)
}

// FinishRun writes the run's last progress, then how it ended.
func (t *trainRecorder) FinishRun(ctx context.Context, id int64, status store.RunStatus, _ int, result []byte, errMsg string) error {
	if _, ok := t.progress(id); ok {
		t.RunProgress(ctx, id, 0, 0)
	}
	t.mu.Lock()
	delete(t.live, id)
	t.mu.Unlock()
	return t.db.FinishTrainRun(ctx, id, status, result, errMsg)
}

// submit queues the training run id, which work does, reporting its
// progress.
func (s *Service) submit(id int64, work func(ctx context.Context, report func(trainProgress)) (json.RawMessage, error)) error {
	err := s.runner.Submit(id, func(ctx context.Context, progress func(done, total int)) ([]byte, error) {
		return work(ctx, func(p trainProgress) {
			s.rec.report(id, p)
			progress(p.Iteration, p.MaxIterations) // the runner writes the progress every second
		})
	})
	switch {
	case errors.Is(err, jobs.ErrClosed):
		return newError(http.StatusServiceUnavailable, "shutting_down", "the server is shutting down and takes no new jobs")
	case errors.Is(err, jobs.ErrBusy):
		return newError(http.StatusServiceUnavailable, "busy", "%d training jobs are already waiting: retry when one is done", maxQueued)
	}
	return err
}
