package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/dataset"
	"github.com/sluice-project/sluice/evaluate"
	"github.com/sluice-project/sluice/filterset"
	"github.com/sluice-project/sluice/jobs"
	"github.com/sluice-project/sluice/score"
	"github.com/sluice-project/sluice/store"
)

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
	if done, total, ok := s.jobs.Progress(r.ID); ok && !r.Status.Final() {
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
	if !s.jobs.Cancel(id, jobs.ErrCanceled) {
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
	err = s.jobs.Submit(run.ID, func(ctx context.Context, progress func(done, total int)) ([]byte, error) {
		return s.evaluate(ctx, cl, set, req.Limit, progress)
	})
	if apiErr := submitError(err); apiErr != nil {
		s.cfg.Store.FinishRun(context.Background(), run.ID, store.RunInterrupted, 0, nil, apiErr.Message)
		writeAPIError(w, r, apiErr)
		return
	}
	w.Header().Set("Location", "/v1/jobs/"+strconv.FormatInt(run.ID, 10))
	writeJSON(w, r, http.StatusAccepted, s.jobAnswer(run))
}

// submitError is the answer to a job the runner refused; nil for none.
func submitError(err error) *APIError {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, jobs.ErrClosed):
		return newError(http.StatusServiceUnavailable, "shutting_down", "the server is shutting down and takes no new jobs")
	case errors.Is(err, jobs.ErrBusy):
		return newError(http.StatusServiceUnavailable, "busy", fmt.Sprintf("%d jobs are already waiting: retry when one is done", jobs.MaxQueued))
	}
	return newError(http.StatusInternalServerError, "internal", err.Error())
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
