package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/dataset"
	"github.com/sluice-project/sluice/evaluate"
	"github.com/sluice-project/sluice/filterset"
	"github.com/sluice-project/sluice/score"
	"github.com/sluice-project/sluice/store"
)

// Background jobs: evaluations of a filter set on a data set, one at a
// time, recorded in the store as runs (queued, running, then done,
// failed, canceled or interrupted), with their progress.

// maxQueued bounds the jobs waiting for the running one.
const maxQueued = 16

// progressEvery is how often a running job's progress is written to the
// store; GET /v1/jobs/{id} reads the live figure from memory.
const progressEvery = time.Second

// Causes of a job's cancellation.
var (
	errCanceled = errors.New("canceled by a client")
	errShutdown = errors.New("the server shut down")
)

// job is a queued or running job.
type job struct {
	id     int64
	work   func(ctx context.Context, progress func(done, total int)) (result []byte, err error)
	ctx    context.Context
	cancel context.CancelCauseFunc
	done   atomic.Int64
	total  atomic.Int64
}

// jobRunner runs jobs one at a time, in the order they came.
type jobRunner struct {
	store *store.DB
	log   *slog.Logger

	mu      sync.Mutex
	queue   []*job
	live    map[int64]*job // queued and running
	working bool           // a worker goroutine is running
	closed  bool
	idle    chan struct{} // closed when the worker stops; nil while none ever ran
}

func newJobRunner(db *store.DB, log *slog.Logger) *jobRunner {
	return &jobRunner{store: db, log: log, live: map[int64]*job{}}
}

// submit queues jb (its run already recorded as queued).
func (j *jobRunner) submit(jb *job) *APIError {
	j.mu.Lock()
	defer j.mu.Unlock()
	switch {
	case j.closed:
		return newError(http.StatusServiceUnavailable, "shutting_down", "the server is shutting down and takes no new jobs")
	case len(j.queue) >= maxQueued:
		return newError(http.StatusServiceUnavailable, "busy", fmt.Sprintf("%d jobs are already waiting: retry when one is done", maxQueued))
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
func (j *jobRunner) work(idle chan struct{}) {
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
func (j *jobRunner) run(jb *job) {
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
	case errors.Is(cause, errCanceled):
		status, msg = store.RunCanceled, cause.Error()
	case errors.Is(cause, errShutdown):
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
func (j *jobRunner) runWork(jb *job, progress func(done, total int)) (result []byte, err error) {
	defer func() {
		if v := recover(); v != nil {
			j.log.Error("job panicked", "job", jb.id, "panic", v)
			err = fmt.Errorf("internal error: %v", v)
		}
	}()
	return jb.work(jb.ctx, progress)
}

// cancelJob cancels a live job with cause; false when it is not live. A
// queued job is recorded at once.
func (j *jobRunner) cancelJob(id int64, cause error) bool {
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
		j.store.FinishRun(context.Background(), id, status, 0, nil, cause.Error())
	}
	return true
}

// progressOf returns a live job's progress.
func (j *jobRunner) progressOf(id int64) (done, total int, ok bool) {
	j.mu.Lock()
	jb, ok := j.live[id]
	j.mu.Unlock()
	if !ok {
		return 0, 0, false
	}
	return int(jb.done.Load()), int(jb.total.Load()), true
}

// close takes no more jobs and records the queued ones interrupted.
func (j *jobRunner) close() {
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
		j.cancelJob(id, errShutdown)
	}
	if len(queued) > 0 {
		j.log.Warn("queued jobs interrupted by shutdown", "jobs", queued)
	}
}

// wait lets the running job finish until ctx is done, then interrupts it
// and waits for it to be recorded.
func (j *jobRunner) wait(ctx context.Context) {
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
		j.cancelJob(id, errShutdown)
	}
	<-idle
}

// jobJSON is a job in answers.
type jobJSON struct {
	ID        int64           `json:"id"`
	Kind      string          `json:"kind"`
	Status    string          `json:"status"`
	FilterSet string          `json:"filter_set"`
	Version   int             `json:"version"`
	Data      string          `json:"data"`
	Progress  jobProgress     `json:"progress"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     string          `json:"error,omitempty"`
	Created   time.Time       `json:"created"`
	Started   *time.Time      `json:"started,omitempty"`
	Finished  *time.Time      `json:"finished,omitempty"`
}

type jobProgress struct {
	Done  int `json:"done"`
	Total int `json:"total"`
}

// jobAnswer describes run r, with the live progress of its job.
func (s *Server) jobAnswer(r *store.Run) jobJSON {
	j := jobJSON{ID: r.ID, Kind: "evaluate", Status: string(r.Status), FilterSet: r.FilterSet, Version: r.Version, Data: r.Data,
		Progress: jobProgress{r.Done, r.Total}, Result: r.Result, Error: r.Error, Created: r.Created}
	if done, total, ok := s.jobs.progressOf(r.ID); ok && !r.Status.Final() {
		j.Progress = jobProgress{done, total}
	}
	if !r.Started.IsZero() {
		j.Started = &r.Started
	}
	if !r.Finished.IsZero() {
		j.Finished = &r.Finished
	}
	return j
}

// runOf reads the run of a /v1/jobs/{id} path, answering the error when
// there is none.
func (s *Server) runOf(w http.ResponseWriter, r *http.Request) (*store.Run, bool) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id < 1 {
		WriteError(w, r, http.StatusNotFound, "not_found", fmt.Sprintf("no job %q: job ids are numbers", r.PathValue("id")))
		return nil, false
	}
	if apiErr := checkQuery(r, nil); apiErr != nil {
		writeAPIError(w, r, apiErr)
		return nil, false
	}
	run, err := s.cfg.Store.Run(r.Context(), id)
	if err != nil {
		writeAPIError(w, r, storeError(err))
		return nil, false
	}
	return run, true
}

// getJob is GET /v1/jobs/{id}.
func (s *Server) getJob(w http.ResponseWriter, r *http.Request) {
	if run, ok := s.runOf(w, r); ok {
		writeJSON(w, r, http.StatusOK, s.jobAnswer(run))
	}
}

// cancelJob is POST /v1/jobs/{id}/cancel: 200 with the job once
// canceled (a running job stops at its next page), 409 when it is over.
func (s *Server) cancelJob(w http.ResponseWriter, r *http.Request) {
	run, ok := s.runOf(w, r)
	if !ok {
		return
	}
	id := run.ID
	if !s.jobs.cancelJob(id, errCanceled) {
		WriteError(w, r, http.StatusConflict, "job_over", fmt.Sprintf("job %d is %s: only a queued or running job can be canceled", id, run.Status))
		return
	}
	run, err := s.cfg.Store.Run(r.Context(), id)
	if err != nil {
		writeAPIError(w, r, storeError(err))
		return
	}
	writeJSON(w, r, http.StatusOK, s.jobAnswer(run))
}

// evaluateRequest is the body of POST /v1/filter-sets/{name}/evaluate.
type evaluateRequest struct {
	// Data is the data set's folder (html/ and gold/..., see package
	// dataset), inside the server's data root; relative to it when
	// relative.
	Data string `json:"data"`
	// Limit evaluates the first pages only; 0 for all.
	Limit int `json:"limit"`
}

// evaluateFilterSet is POST /v1/filter-sets/{name}/evaluate: it checks
// the set and the data set, records a queued run and answers 202 with the
// job; the evaluation runs in the background.
func (s *Server) evaluateFilterSet(w http.ResponseWriter, r *http.Request) {
	req, apiErr := s.readEvaluateRequest(w, r)
	if apiErr != nil {
		writeAPIError(w, r, apiErr)
		return
	}
	fs, err := s.cfg.Store.FilterSet(r.Context(), r.PathValue("name"))
	if err != nil {
		writeAPIError(w, r, storeError(err))
		return
	}
	dir, apiErr := s.dataPath(req.Data, "data set")
	if apiErr != nil {
		writeAPIError(w, r, apiErr)
		return
	}
	set, err := dataset.Open(dir)
	if err != nil {
		WriteError(w, r, http.StatusUnprocessableEntity, "bad_data_set", fmt.Sprintf("%s: %v", req.Data, err))
		return
	}
	fset, err := s.parseSet([]byte(fs.Text), filterset.Format(fs.Format))
	var cl *sluice.Cleaner
	if err == nil {
		cl, err = fset.Cleaner(sluice.Options{})
	}
	if err != nil {
		WriteError(w, r, http.StatusUnprocessableEntity, "invalid_filter_set", fmt.Sprintf("filter set %s@%d no longer reads: %v", fs.Name, fs.Version, err))
		return
	}
	run, err := s.cfg.Store.CreateRun(r.Context(), fs.Name, fs.Version, dir)
	if err != nil {
		writeAPIError(w, r, storeError(err))
		return
	}
	jb := &job{id: run.ID, work: func(ctx context.Context, progress func(done, total int)) ([]byte, error) {
		return s.evaluate(ctx, cl, set, req.Limit, progress)
	}}
	if apiErr := s.jobs.submit(jb); apiErr != nil {
		s.cfg.Store.FinishRun(context.Background(), run.ID, store.RunInterrupted, 0, nil, apiErr.Message)
		writeAPIError(w, r, apiErr)
		return
	}
	w.Header().Set("Location", "/v1/jobs/"+strconv.FormatInt(run.ID, 10))
	writeJSON(w, r, http.StatusAccepted, s.jobAnswer(run))
}

// readEvaluateRequest reads the JSON body of an evaluation.
func (s *Server) readEvaluateRequest(w http.ResponseWriter, r *http.Request) (*evaluateRequest, *APIError) {
	if apiErr := checkQuery(r, nil); apiErr != nil {
		return nil, apiErr
	}
	body, apiErr := readBodyLimit(w, r, 64<<10, "(of an evaluation request)")
	if apiErr != nil {
		return nil, apiErr
	}
	var req evaluateRequest
	if apiErr := decodeStrict(body, &req, []string{"data", "limit"}); apiErr != nil {
		return nil, apiErr
	}
	switch {
	case req.Data == "":
		return nil, newError(http.StatusBadRequest, "missing_field", `the body needs "data": the folder of a data set (html/ and gold/), inside the server's data root`)
	case req.Limit < 0:
		return nil, newError(http.StatusBadRequest, "bad_field", `"limit" is a number of pages, 0 for all`)
	}
	return &req, nil
}

// decodeStrict decodes one JSON object of the given fields into v.
func decodeStrict(body []byte, v any, fields []string) *APIError {
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return jsonError(err, dec.InputOffset(), body, fields)
	}
	if dec.More() {
		off := dec.InputOffset()
		return newError(http.StatusBadRequest, "malformed_json", fmt.Sprintf("the body holds more than one JSON value (after offset %d): send one object", off), WithOffset(off))
	}
	return nil
}

// dataPath resolves a path a client gave (a data set, a model file) to an
// absolute one inside the data root: relative paths are taken from the
// root, symbolic links are followed, and what ends outside is refused
// (403) before anything is said about whether it exists.
func (s *Server) dataPath(p, what string) (string, *APIError) {
	forbidden := newError(http.StatusForbidden, "forbidden_path",
		fmt.Sprintf("%s %q is outside the server's data root %s (sluice serve --data-root)", what, p, s.dataRoot))
	if !filepath.IsAbs(p) {
		p = filepath.Join(s.dataRoot, p)
	}
	p = filepath.Clean(p)
	if !within(s.dataRoot, p) {
		return "", forbidden
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", newError(http.StatusUnprocessableEntity, "bad_data_set", fmt.Sprintf("%s %s: %v", what, p, errors.Unwrap(err)))
	}
	if !within(s.dataRoot, real) {
		return "", forbidden
	}
	return real, nil
}

// within reports whether path p is root or below it (both clean and
// absolute).
func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// evalResult is the result of an evaluation job.
type evalResult struct {
	DataSet    string       `json:"data_set"`
	Kind       string       `json:"kind"`
	Metric     string       `json:"metric"`
	Pipeline   string       `json:"pipeline"`
	Pages      int          `json:"pages"`
	Failed     int          `json:"failed"` // pages the cleaner rejected, scored as empty outputs
	Unreadable []string     `json:"unreadable,omitempty"`
	Score      score.Report `json:"score"`
}

// evaluate cleans the pages of set with cl, one at a time, each admitted
// to the server's memory budget and cleaning slots as requests are, and
// scores them with the set's main metric.
func (s *Server) evaluate(ctx context.Context, cl *sluice.Cleaner, set *dataset.Set, limit int, progress func(done, total int)) ([]byte, error) {
	metric, err := evaluate.Lookup(evaluate.Main(set.Kind))
	if err != nil {
		return nil, err
	}
	ids := set.IDs()
	if limit > 0 && limit < len(ids) {
		ids = ids[:limit]
	}
	res := evalResult{DataSet: set.Name, Kind: string(set.Kind), Metric: metric.Name, Pipeline: cl.Filter()}
	var sum score.Summary
	progress(0, len(ids))
	for i, id := range ids {
		if s.pageHook != nil {
			s.pageHook(ctx)
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p, err := set.Page(id)
		if err != nil {
			res.Unreadable = append(res.Unreadable, err.Error())
			progress(i+1, len(ids))
			continue
		}
		out, err := s.evalPage(ctx, cl, p)
		if err != nil {
			return nil, err
		}
		if out == nil {
			res.Failed++
			out = &evaluate.Output{}
		}
		sum.Add(metric.Score(out, &p.Gold))
		progress(i+1, len(ids))
	}
	res.Pages, res.Score = sum.Pages(), sum.Report()
	return json.Marshal(res)
}

// evalPage cleans one page of an evaluation once it has its place in the
// budget and a cleaning slot (waiting as long as it takes); nil when the
// cleaner rejects the page.
func (s *Server) evalPage(ctx context.Context, cl *sluice.Cleaner, p *dataset.Page) (*evaluate.Output, error) {
	cost := sluice.CleanCost(len(p.HTML))
	if err := s.budget.Acquire(ctx, cost); err != nil {
		return nil, err
	}
	defer s.budget.Release(cost)
	if s.slots != nil {
		select {
		case s.slots <- struct{}{}:
			defer func() { <-s.slots }()
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	res, err := cl.Clean(ctx, sluice.Input{Data: p.HTML, URL: p.URL})
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case err != nil:
		return nil, nil
	}
	return evaluate.OutputOf(res.Page), nil
}
