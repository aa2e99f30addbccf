package projects

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/sluice-project/sluice/crf"
	"github.com/sluice-project/sluice/dataset"
	"github.com/sluice-project/sluice/label"
	"github.com/sluice-project/sluice/server"
	"github.com/sluice-project/sluice/store"
	"github.com/sluice-project/sluice/train"
)

// trainRequest is the body of POST /v1/train.
type trainRequest struct {
	Project int64  `json:"project"`
	Name    string `json:"name"`
	// Stages lists the labeller's stages, as sluice train --stages does;
	// none: the default list.
	Stages []string `json:"stages"`
	// Iterations caps the L-BFGS iterations of each CRF (default
	// train.DefaultIterations).
	Iterations int `json:"iterations"`
	// CV, 2 or more, cross-validates on that many folds first (sites kept
	// whole); its scores go in the model's metrics and its thresholds in
	// the model.
	CV int `json:"cv"`
}

// trainSettings are a run's settings as recorded.
type trainSettings struct {
	Stages     []string `json:"stages"`
	Iterations int      `json:"iterations"`
	CV         int      `json:"cv,omitempty"`
}

// trainProgress is a training job's progress.
type trainProgress struct {
	// Phase is loading, cross-validating, training or saving.
	Phase string `json:"phase"`
	// Pages is the number of pages loaded; Loaded of them are read so far.
	Pages  int `json:"pages"`
	Loaded int `json:"loaded"`
	// Stage is what is being trained ("first stage", "second stage"...),
	// Iteration the optimiser's iteration in it, of at most MaxIterations.
	Stage         string `json:"stage,omitempty"`
	Iteration     int    `json:"iteration"`
	MaxIterations int    `json:"max_iterations"`
}

// trainMetrics are the metrics stored with a model.
type trainMetrics struct {
	Project    string             `json:"project"`
	Pages      int                `json:"pages"`
	Blocks     int                `json:"blocks"`
	Labels     map[string]int     `json:"labels"`
	Stages     []string           `json:"stages"`
	Features   int                `json:"features"`
	Thresholds map[string]float64 `json:"thresholds"`
	Seconds    float64            `json:"seconds"`
	// CV holds the cross-validation's overall held-out figures.
	CV *train.FoldResult `json:"cv,omitempty"`
}

// readTrainRequest reads and checks the body of POST /v1/train.
func (s *Service) readTrainRequest(w http.ResponseWriter, r *http.Request) (*trainRequest, *label.FeatureConfig, error) {
	if err := server.CheckQuery(r); err != nil {
		return nil, nil, err
	}
	var req trainRequest
	if err := decodeJSON(w, r, 64<<10, &req, "project", "name", "stages", "iterations", "cv"); err != nil {
		return nil, nil, err
	}
	switch {
	case req.Project == 0:
		return nil, nil, newError(http.StatusBadRequest, "missing_field", "the body needs \"project\": the id of the project to train on")
	case req.Iterations < 0 || req.Iterations > 10000:
		return nil, nil, newError(http.StatusBadRequest, "bad_field", "\"iterations\" %d: give 1 to 10000, or leave it out for %d", req.Iterations, train.DefaultIterations)
	case req.CV < 0 || req.CV == 1 || req.CV > 20:
		return nil, nil, newError(http.StatusBadRequest, "bad_field", "\"cv\" %d: give 2 to 20 folds, or 0 for none", req.CV)
	}
	if err := checkName(req.Name, "model"); err != nil {
		return nil, nil, err
	}
	fc := label.DefaultFeatureConfig()
	fc.Smooth, fc.Region, fc.Blend = label.DefaultSmooth, label.DefaultRegion, label.DefaultBlend
	if req.Stages != nil {
		if err := label.CheckStages(req.Stages); err != nil {
			e := newError(http.StatusBadRequest, "bad_stages", "\"stages\": %v", err)
			e.valid = label.StageNames()
			return nil, nil, e
		}
		fc = fc.WithStages(req.Stages)
	} else {
		req.Stages = train.StagesOf(fc)
	}
	if req.Iterations == 0 {
		req.Iterations = train.DefaultIterations
	}
	return &req, &fc, nil
}

// startTraining is POST /v1/train: it checks the request, records a
// queued run and answers 202 with it; training runs in the background.
func (s *Service) startTraining(w http.ResponseWriter, r *http.Request) error {
	req, fc, err := s.readTrainRequest(w, r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	proj, err := s.cfg.Store.Project(ctx, req.Project)
	if err != nil {
		return err
	}
	if _, err := s.cfg.Store.Model(ctx, req.Name); err == nil {
		return newError(http.StatusConflict, "exists", "model %q: %v; give another name", req.Name, store.ErrExists)
	} else if !errors.Is(err, store.ErrNotFound) {
		return err
	}
	settings, _ := json.Marshal(trainSettings{Stages: req.Stages, Iterations: req.Iterations, CV: req.CV})
	run, err := s.cfg.Store.CreateTrainRun(ctx, proj.Name, req.Name, settings)
	if err != nil {
		return err
	}
	err = s.submit(run.ID, func(ctx context.Context, report func(trainProgress)) (json.RawMessage, error) {
		return s.train(ctx, proj, req, fc, report)
	})
	if err != nil {
		s.cfg.Store.FinishTrainRun(context.Background(), run.ID, store.RunInterrupted, nil, err.Error())
		return err
	}
	w.Header().Set("Location", "/v1/train/"+strconv.FormatInt(run.ID, 10))
	server.WriteJSON(w, r, http.StatusAccepted, s.runAnswer(run))
	return nil
}

// train is a training job: it writes the project's labelled pages as an
// annotated data set in a temporary folder, loads it as "sluice train
// --data" does, cross-validates when asked, trains and stores the model.
func (s *Service) train(ctx context.Context, proj *store.Project, req *trainRequest, fc *label.FeatureConfig, report func(trainProgress)) (json.RawMessage, error) {
	if s.trainHook != nil {
		s.trainHook(ctx)
	}
	start := time.Now()
	prog := trainProgress{Phase: "loading", MaxIterations: req.Iterations}
	report(prog)
	pages, err := s.loadProject(ctx, proj, func(done, total int) {
		prog.Loaded, prog.Pages = done, total
		report(prog)
	})
	if err != nil {
		return nil, err
	}
	cfg := train.Config{Features: fc, Stages: req.Stages, MaxIterations: req.Iterations, Workers: s.cfg.TrainWorkers,
		PageWeight: train.DefaultPageWeight, Margin: train.DefaultMargin, MinCount: 2, L2: 1}
	cfg.Stage = func(st string) { prog.Stage, prog.Iteration = st, 0; report(prog) }
	cfg.Progress = func(p crf.Progress) { prog.Iteration = p.Iteration; report(prog) }
	m := trainMetrics{Project: proj.Name, Labels: map[string]int{}}
	var thresholds map[string]float64
	if req.CV >= 2 {
		prog.Phase = "cross-validating"
		report(prog)
		res, err := train.CrossValidate(ctx, pages, min(req.CV, len(pages)), cfg, 0, nil)
		if err != nil {
			return nil, err
		}
		m.CV, thresholds = &res.Overall, res.Thresholds
	}
	prog.Phase = "training"
	report(prog)
	examples := train.Examples(pages)
	lab, err := train.Train(ctx, examples, cfg)
	if err != nil {
		return nil, err
	}
	prog.Phase = "saving"
	report(prog)
	return s.saveModel(ctx, req.Name, lab, examples, thresholds, m, start)
}

// loadProject writes the project's labelled pages into a temporary data
// set and loads them for training.
func (s *Service) loadProject(ctx context.Context, proj *store.Project, progress func(done, total int)) ([]*train.TrainPage, error) {
	labelled, _, err := s.labelledPages(ctx, proj.ID)
	if err != nil {
		return nil, err
	}
	if len(labelled) == 0 {
		return nil, fmt.Errorf("project %q has no page whose every block is labelled", proj.Name)
	}
	dir, err := os.MkdirTemp("", "sluice-train-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	set := dir + string(os.PathSeparator) + exportRoot(proj.Name)
	if err := writeDir(set, labelled, formatDataset); err != nil {
		return nil, err
	}
	var skipped []string
	pages, _, err := train.LoadTraining(ctx, []string{set}, train.LoadOptions{Jobs: 1,
		Progress: func(_ string, done, total int) { progress(done, total) },
		Skip:     func(_ *dataset.Set, id string, reason error) { skipped = append(skipped, id+": "+reason.Error()) }})
	if err != nil {
		return nil, err
	}
	if len(train.Examples(pages)) == 0 {
		return nil, fmt.Errorf("no page of project %q can be trained on: %s", proj.Name, strings.Join(skipped, "; "))
	}
	return pages, nil
}

// saveModel sets the model's thresholds and stores it with its metrics.
func (s *Service) saveModel(ctx context.Context, name string, lab *label.Labeller, examples []train.Example, th map[string]float64, m trainMetrics, start time.Time) (json.RawMessage, error) {
	if th == nil {
		th = map[string]float64{}
	}
	if err := lab.SetThresholds(th); err != nil {
		return nil, err
	}
	data, err := lab.MarshalBinary()
	if err != nil {
		return nil, err
	}
	m.Pages, m.Stages, m.Features = len(examples), lab.StageNames(), lab.NumFeatures()
	for _, ex := range examples {
		m.Blocks += len(ex.Labels)
		for _, l := range ex.Labels {
			m.Labels[l.String()]++
		}
	}
	m.Thresholds = map[string]float64{}
	for _, st := range lab.Styles() {
		m.Thresholds[st] = lab.Threshold(st)
	}
	m.Seconds = time.Since(start).Seconds()
	metrics, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	saved, err := s.cfg.Store.SaveModel(ctx, store.Model{Name: name, Data: data, Stages: strings.Join(m.Stages, ","), Metrics: metrics})
	if err != nil {
		return nil, err
	}
	return json.Marshal(map[string]any{"model": saved.Name, "size": len(data), "metrics": json.RawMessage(metrics)})
}
