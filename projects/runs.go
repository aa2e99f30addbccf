package projects

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/sluice-project/sluice/jobs"
	"github.com/sluice-project/sluice/server"
	"github.com/sluice-project/sluice/store"
)

// runJSON is a training run in answers.
type runJSON struct {
	ID       int64           `json:"id"`
	Kind     string          `json:"kind"` // "train"
	Status   string          `json:"status"`
	Project  string          `json:"project"`
	Model    string          `json:"model"`
	Settings json.RawMessage `json:"settings"`
	Progress json.RawMessage `json:"progress"`
	Result   json.RawMessage `json:"result,omitempty"`
	Error    string          `json:"error,omitempty"`
	Created  time.Time       `json:"created"`
	Started  *time.Time      `json:"started,omitempty"`
	Finished *time.Time      `json:"finished,omitempty"`
}

// runAnswer describes run r, with the live progress of its job.
func (s *Service) runAnswer(r *store.TrainRun) runJSON {
	a := runJSON{ID: r.ID, Kind: "train", Status: string(r.Status), Project: r.Project, Model: r.Model, Settings: r.Settings,
		Progress: r.Progress, Result: r.Result, Error: r.Error, Created: r.Created}
	if p, ok := s.rec.progress(r.ID); ok && !r.Status.Final() {
		a.Progress, _ = json.Marshal(p)
	}
	if !r.Started.IsZero() {
		a.Started = &r.Started
	}
	if !r.Finished.IsZero() {
		a.Finished = &r.Finished
	}
	return a
}

// listTraining is GET /v1/train: the training runs, the latest first.
func (s *Service) listTraining(w http.ResponseWriter, r *http.Request) error {
	if err := server.CheckQuery(r); err != nil {
		return err
	}
	runs, err := s.cfg.Store.TrainRuns(r.Context())
	if err != nil {
		return err
	}
	out := make([]runJSON, len(runs))
	for i := range runs {
		out[i] = s.runAnswer(&runs[i])
	}
	server.WriteJSON(w, r, http.StatusOK, map[string]any{"runs": out})
	return nil
}

// runOf reads the training run of the path's {id}.
func (s *Service) runOf(r *http.Request) (*store.TrainRun, error) {
	if err := server.CheckQuery(r); err != nil {
		return nil, err
	}
	id, err := pathID(r, "id", "training run")
	if err != nil {
		return nil, err
	}
	return s.cfg.Store.TrainRun(r.Context(), id)
}

// getTraining is GET /v1/train/{id}.
func (s *Service) getTraining(w http.ResponseWriter, r *http.Request) error {
	run, err := s.runOf(r)
	if err != nil {
		return err
	}
	server.WriteJSON(w, r, http.StatusOK, s.runAnswer(run))
	return nil
}

// cancelTraining is POST /v1/train/{id}/cancel: a queued run is canceled
// at once, a running one at its next optimiser iteration (or page read);
// 409 job_over when it is over.
func (s *Service) cancelTraining(w http.ResponseWriter, r *http.Request) error {
	run, err := s.runOf(r)
	if err != nil {
		return err
	}
	if !s.runner.Cancel(run.ID, jobs.ErrCanceled) {
		return newError(http.StatusConflict, "job_over", "training run %d is %s: only a queued or running run can be canceled", run.ID, run.Status)
	}
	if run, err = s.cfg.Store.TrainRun(r.Context(), run.ID); err != nil {
		return err
	}
	server.WriteJSON(w, r, http.StatusOK, s.runAnswer(run))
	return nil
}

// modelJSON is a stored model in answers.
type modelJSON struct {
	ID      int64           `json:"id"`
	Name    string          `json:"name"`
	Stages  string          `json:"stages"`
	Metrics json.RawMessage `json:"metrics"`
	Created time.Time       `json:"created"`
}

// listModels is GET /v1/models: the stored models, by name.
func (s *Service) listModels(w http.ResponseWriter, r *http.Request) error {
	if err := server.CheckQuery(r); err != nil {
		return err
	}
	ms, err := s.cfg.Store.Models(r.Context())
	if err != nil {
		return err
	}
	out := make([]modelJSON, len(ms))
	for i, m := range ms {
		out[i] = modelJSON{ID: m.ID, Name: m.Name, Stages: m.Stages, Metrics: m.Metrics, Created: m.Created}
	}
	server.WriteJSON(w, r, http.StatusOK, map[string]any{"models": out})
	return nil
}
