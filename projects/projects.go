// Package projects is the annotation side of sluice serve (Victor's
// annotation tool, seed chapter 2.3, over HTTP): projects of pages whose
// text blocks people label, pre-labelled by the model; the export of a
// project in Victor's annotation format and as the html/ + ann/ data set
// that "sluice train --data" reads; and the training of a model from a
// project's labels in the background, the model stored by name.
//
// A Service keeps its state in a store (package store) and offers its
// endpoints as server.Routes, all management routes:
//
//	svc, err := projects.New(projects.Config{Store: db, Model: model, Budget: budget})
//	srv, err := server.New(server.Config{Store: db, Budget: budget, Routes: svc.Routes()})
//	go func() { <-ctx.Done(); svc.Shutdown(shutdownCtx) }()
//	err = srv.Serve(ctx, ln)
//
// A page's blocks are those "sluice annotate" lists and "sluice train"
// reads: the page segmented with the default ingest and segment options,
// from its stored bytes alone (as a file is read: byte order mark, <meta>
// charset, detection).
package projects

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime"
	"sync"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/jobs"
	"github.com/sluice-project/sluice/parallel"
	"github.com/sluice-project/sluice/server"
	"github.com/sluice-project/sluice/store"
)

// Config configures a Service. Store is required; the rest has defaults.
type Config struct {
	// Store keeps the projects, pages, labels, models and training runs.
	// The caller opens and closes it.
	Store *store.DB
	// Model is the model file that pre-labels pages; nil means the model
	// embedded in sluice.
	Model []byte
	// Logger receives the training runs' events. Default: slog.Default().
	Logger *slog.Logger
	// Budget admits the segmenting of pages by their estimated memory cost
	// (sluice.CleanCost); share the server's (server.Server.Budget). Nil:
	// no limit.
	Budget *parallel.Budget
	// MaxPageBytes caps a page added to a project (413 above). Default
	// 16 MiB, the cleaner's own cap.
	MaxPageBytes int64
	// TrainWorkers is how many cores training uses. Default:
	// runtime.GOMAXPROCS(0).
	TrainWorkers int
}

// DefaultMaxPageBytes is the default of Config.MaxPageBytes.
const DefaultMaxPageBytes = 16 << 20

// Service serves the projects, export, training and model routes.
type Service struct {
	cfg Config
	log *slog.Logger
	cl  *sluice.Cleaner // segments pages and pre-labels them with the model

	mu     sync.Mutex
	blocks map[blockKey]int // block counts of pages segmented before

	runner *jobs.Runner   // runs the training jobs
	rec    *trainRecorder // their record, with their live progress
	// trainHook, when set (tests), is called as a training job starts.
	trainHook func(ctx context.Context)
}

// blockKey names a stored page for the block count cache: its id and
// when it was added (an id may be reused once its page is deleted).
type blockKey struct {
	id      int64
	created int64
}

// New builds a Service. It fails without a store, and on a bad model.
// Training runs that a stopped process left live are marked interrupted.
func New(cfg Config) (*Service, error) {
	if cfg.Store == nil {
		return nil, errors.New("projects: no store")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.MaxPageBytes <= 0 {
		cfg.MaxPageBytes = DefaultMaxPageBytes
	}
	if cfg.TrainWorkers <= 0 {
		cfg.TrainWorkers = runtime.GOMAXPROCS(0)
	}
	cl, err := sluice.New(sluice.Options{Model: cfg.Model})
	if err != nil {
		return nil, fmt.Errorf("projects: the model: %w", err)
	}
	n, err := cfg.Store.InterruptTrainRuns(context.Background(), "the server stopped before the run ended")
	if err != nil {
		return nil, fmt.Errorf("projects: %w", err)
	}
	if n > 0 {
		cfg.Logger.Warn("training runs left live by a stopped server marked interrupted", "runs", n)
	}
	s := &Service{cfg: cfg, log: cfg.Logger, cl: cl, blocks: map[blockKey]int{}}
	s.rec = newTrainRecorder(cfg.Store)
	s.runner = jobs.NewRunnerQueue(s.rec, cfg.Logger, maxQueued)
	return s, nil
}

// Routes returns the service's routes, all management routes, for
// server.Config.Routes or Server.Handle.
func (s *Service) Routes() []server.Route {
	r := func(method, path string, h func(http.ResponseWriter, *http.Request) error) server.Route {
		return server.Route{Method: method, Path: path, Management: true, Handler: handler(h)}
	}
	return []server.Route{
		r(http.MethodGet, "/v1/projects", s.listProjects),
		r(http.MethodPost, "/v1/projects", s.createProject),
		r(http.MethodGet, "/v1/projects/{id}", s.getProject),
		r(http.MethodDelete, "/v1/projects/{id}", s.deleteProject),
		r(http.MethodGet, "/v1/projects/{id}/pages", s.listPages),
		r(http.MethodPost, "/v1/projects/{id}/pages", s.addPage),
		r(http.MethodGet, "/v1/projects/{id}/pages/{page}", s.getPage),
		r(http.MethodPut, "/v1/projects/{id}/pages/{page}/labels", s.putLabels),
		r(http.MethodGet, "/v1/projects/{id}/export", s.export),
		r(http.MethodPost, "/v1/train", s.startTraining),
		r(http.MethodGet, "/v1/train", s.listTraining),
		r(http.MethodGet, "/v1/train/{id}", s.getTraining),
		r(http.MethodPost, "/v1/train/{id}/cancel", s.cancelTraining),
		r(http.MethodGet, "/v1/models", s.listModels),
	}
}

// handler makes an http.Handler of a function that returns its error.
func handler(h func(http.ResponseWriter, *http.Request) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			writeError(w, r, err)
		}
	})
}

// Shutdown takes no more training jobs and records the queued ones
// interrupted; it lets the running one finish until ctx is done, then
// interrupts it and waits until that is recorded.
func (s *Service) Shutdown(ctx context.Context) {
	s.runner.Close()
	s.runner.Wait(ctx)
}

// segment reads and segments a page as training does, once it has its
// place in the memory budget.
func (s *Service) segment(ctx context.Context, html []byte, url string) (*sluice.Result, error) {
	if b := s.cfg.Budget; b != nil {
		cost := sluice.CleanCost(len(html))
		if err := b.Acquire(ctx, cost); err != nil {
			return nil, err
		}
		defer b.Release(cost)
	}
	return s.cl.Segment(ctx, sluice.Input{Data: html, URL: url})
}

// blockCount returns the number of blocks of a stored page, segmenting it
// (without its HTML in p, reading it) the first time.
func (s *Service) blockCount(ctx context.Context, p store.Page) (int, error) {
	k := blockKey{p.ID, p.Created.UnixNano()}
	s.mu.Lock()
	n, ok := s.blocks[k]
	s.mu.Unlock()
	if ok {
		return n, nil
	}
	if p.HTML == nil {
		full, err := s.cfg.Store.Page(ctx, p.ID)
		if err != nil {
			return 0, err
		}
		p = *full
	}
	res, err := s.segment(ctx, p.HTML, p.URL)
	if err != nil {
		return 0, err
	}
	s.remember(p, len(res.Page.Blocks))
	return len(res.Page.Blocks), nil
}

// remember keeps the block count of a page.
func (s *Service) remember(p store.Page, n int) {
	s.mu.Lock()
	s.blocks[blockKey{p.ID, p.Created.UnixNano()}] = n
	s.mu.Unlock()
}
