// Package server is sluice's HTTP API: POST /v1/clean cleans a page sent as
// raw HTML or as JSON and answers in any of the output formats of package
// render; /healthz, /metrics (the Prometheus exposition format) and
// /v1/openapi.json (the API's OpenAPI 3 description) go with it.
//
// A Server is built once from a Config and serves on a listener until its
// context is done, then shuts down gracefully: it stops accepting, lets the
// requests in flight finish until Config.ShutdownTimeout and logs those it
// had to interrupt.
//
// Endpoints are Routes: a method, a ServeMux path pattern, a handler and
// whether the route manages state (Management). Later parts of the
// service add theirs with Server.Handle or Config.Routes and get the same
// treatment as the built-in ones: request ids, structured logs, metrics by
// route and status, panics recovered into 500, JSON errors, 405 with Allow
// for a wrong method, and the token check on management routes.
//
//	srv, err := server.New(server.Config{Budget: parallel.NewBudget(1 << 30)})
//	ln, err := net.Listen("tcp", "127.0.0.1:8080")
//	err = srv.Serve(ctx, ln) // returns when ctx is done and the requests have finished
//
// Every read is limited: request bodies (Config.MaxBodyBytes), header sizes
// and times (Config.Timeouts), and the memory that cleaning may take at once
// (Config.Budget, shared with the rest of the process). A Server keeps no
// package-level state: two Servers in one process are independent.
package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/sluice-project/sluice/jobs"
	"github.com/sluice-project/sluice/parallel"
	"github.com/sluice-project/sluice/store"
)

// Config configures a Server. The zero value means the documented defaults:
// the embedded model, answers in text, a budget of DefaultMemory, the
// limits and timeouts below.
type Config struct {
	// Defaults are the cleaning options of a request that names none.
	Defaults Defaults
	// Model is a model file (sluice train's output) used when a request
	// asks for the trained model; nil means the model embedded in sluice.
	Model []byte
	// Token, when set, is required on management routes as
	// "Authorization: Bearer TOKEN". Serve refuses a listener that is not
	// on loopback when there are management routes and no token.
	Token string
	// Budget admits requests to cleaning by their estimated memory cost
	// (sluice.CleanCost of the body's size); share it with anything else
	// in the process that cleans. Default: a budget of DefaultMemory.
	Budget *parallel.Budget
	// AdmissionWait is how long a request may wait for its place in the
	// budget before it is answered 503 with Retry-After. Default 10 s.
	AdmissionWait time.Duration
	// MaxCleans is how many pages are cleaned at once; more requests wait
	// for a slot, as for memory, at most AdmissionWait. Cleaning is work
	// for the processor: more at once than there are cores only shares
	// them, holds more pages in memory and delays every answer. Default:
	// runtime.GOMAXPROCS(0); negative means no limit.
	MaxCleans int
	// MaxBodyBytes caps a request body (413 above it). Default: 16 MiB,
	// the cleaner's own cap on a page.
	MaxBodyBytes int64
	// CleanerCache is how many cleaners, one per distinct filter, style and
	// threshold asked for, are kept built. Default 32.
	CleanerCache int
	// Timeouts bound the connections; zero fields take their defaults.
	Timeouts Timeouts
	// Logger receives one line per request and the server's events.
	// Default: slog.Default().
	Logger *slog.Logger
	// Registry receives the server's metrics, served at /metrics. Default:
	// a new registry with the Go runtime and process collectors. Later
	// parts register their own collectors on Server.Registry.
	Registry *prometheus.Registry
	// Routes are added after the built-in ones, as by Server.Handle.
	Routes []Route
	// Store, when set, keeps filter sets and evaluation runs: it adds the
	// /v1/filter-sets and /v1/jobs routes (management routes for what
	// writes), POST /v1/clean's filter_set, and a runner of background
	// jobs. The caller opens and closes it.
	Store *store.DB
	// DataRoot is the folder the data sets of evaluations must be in
	// (others are refused with 403); a relative data path is taken
	// relative to it. Default: the current directory.
	DataRoot string
	// Front, when set, is what Serve listens with, given the API's
	// handler: the filtering proxy (package proxy) mounts itself there,
	// with the API as the fallback for requests that are not proxy
	// requests. Default: the API's handler itself.
	Front func(api http.Handler) http.Handler
}

// Defaults are the cleaning options a request gets for what it leaves out.
type Defaults struct {
	// Format is the output format (render.Lookup's names). Default "text".
	Format string
	// Filter is a filter expression, or "" (or "model") for the trained
	// model.
	Filter string
	// Style is the model's annotation style; "" for its main style.
	Style string
	// Threshold is the keep threshold, sluice.ExpectedF1, or 0 for the
	// default rule (see sluice.Options.Threshold).
	Threshold float64
}

// Timeouts bound what a connection may take.
type Timeouts struct {
	// ReadHeader bounds the reading of a request's headers (against
	// slow-loris clients). Default 10 s.
	ReadHeader time.Duration
	// Read bounds the reading of a whole request, body included.
	// Default 60 s.
	Read time.Duration
	// Write bounds the time from the end of the request's headers to the
	// end of the answer: admission, cleaning and writing. Default 120 s.
	Write time.Duration
	// Idle bounds how long a kept-alive connection waits for its next
	// request. Default 120 s.
	Idle time.Duration
	// Shutdown is how long Serve waits for the requests in flight once its
	// context is done, before it interrupts them. Default 30 s.
	Shutdown time.Duration
	// MaxHeaderBytes caps the size of a request's headers. Default 64 KiB.
	MaxHeaderBytes int
}

// Defaults of Config.
const (
	// DefaultMemory is the size of the budget a Server makes when
	// Config.Budget is nil: 1 GiB less 128 MiB for the rest of the process,
	// as sluice clean and corpus count with --memory 1G.
	DefaultMemory        = 1<<30 - 128<<20
	DefaultAdmissionWait = 10 * time.Second
	DefaultMaxBodyBytes  = 16 << 20
	DefaultCleanerCache  = 32
)

// withDefaults returns t with its zero fields set to their defaults.
func (t Timeouts) withDefaults() Timeouts {
	set := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	set(&t.ReadHeader, 10*time.Second)
	set(&t.Read, 60*time.Second)
	set(&t.Write, 120*time.Second)
	set(&t.Idle, 120*time.Second)
	set(&t.Shutdown, 30*time.Second)
	if t.MaxHeaderBytes <= 0 {
		t.MaxHeaderBytes = 64 << 10
	}
	return t
}

// Server is sluice's HTTP service. Build it with New, add routes with
// Handle, and run it with Serve (or mount Handler in a server of your own).
type Server struct {
	cfg      Config
	log      *slog.Logger
	budget   *parallel.Budget
	cleaners *cleanerCache
	slots    chan struct{} // a token per page being cleaned; nil: no limit
	metrics  *metrics
	inflight inflight

	mu     sync.Mutex
	paths  map[string]*pathRoutes // by ServeMux path pattern
	mux    *http.ServeMux
	frozen bool // Handler was called: no more routes
	mgmt   bool // some route is a management route

	dataRoot string       // Config.DataRoot, absolute, symbolic links resolved
	jobs     *jobs.Runner // nil without a store
	// pageHook, when set (tests), is called before each page of an
	// evaluation job.
	pageHook func(ctx context.Context)
}

// New checks the configuration and builds a Server with the built-in
// routes and those of cfg.Routes. It fails on bad defaults (an unknown
// format, filter or style) or a bad model.
func New(cfg Config) (*Server, error) {
	cfg.Timeouts = cfg.Timeouts.withDefaults()
	if cfg.AdmissionWait <= 0 {
		cfg.AdmissionWait = DefaultAdmissionWait
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if cfg.MaxCleans == 0 {
		cfg.MaxCleans = runtime.GOMAXPROCS(0)
	}
	if cfg.CleanerCache <= 0 {
		cfg.CleanerCache = DefaultCleanerCache
	}
	if cfg.Defaults.Format == "" {
		cfg.Defaults.Format = "text"
	}
	if cfg.Defaults.Filter == modelFilter {
		cfg.Defaults.Filter = ""
	}
	s := &Server{cfg: cfg, log: cfg.Logger, budget: cfg.Budget, paths: map[string]*pathRoutes{}, mux: http.NewServeMux()}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.budget == nil {
		s.budget = parallel.NewBudget(DefaultMemory)
	}
	s.cleaners = newCleanerCache(cfg.CleanerCache, cfg.Model)
	if cfg.MaxCleans > 0 {
		s.slots = make(chan struct{}, cfg.MaxCleans)
	}
	if err := s.checkDefaults(); err != nil {
		return nil, err
	}
	if err := s.setupStore(); err != nil {
		return nil, err
	}
	reg := cfg.Registry
	if reg == nil {
		reg = newRegistry()
	}
	s.metrics = newMetrics(reg, s.budget)
	s.mux.Handle("/", http.HandlerFunc(s.notFound))
	for _, r := range append(s.builtinRoutes(), cfg.Routes...) {
		if err := s.Handle(r); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// checkDefaults builds the default cleaner and renderer once, so that a
// bad default fails New rather than every request.
func (s *Server) checkDefaults() error {
	d := s.cfg.Defaults
	req := cleanRequest{Format: d.Format, Filter: d.Filter, Style: d.Style, Threshold: d.Threshold}
	if _, apiErr := s.renderer(&req); apiErr != nil {
		return fmt.Errorf("server: default format: %s", apiErr.Message)
	}
	if _, apiErr := s.cleaner(&req); apiErr != nil {
		return fmt.Errorf("server: default cleaning options: %s", apiErr.Message)
	}
	return nil
}

// Registry returns the registry the server's metrics are in, for later
// parts to add theirs.
func (s *Server) Registry() *prometheus.Registry { return s.metrics.reg }

// Budget returns the memory budget requests are admitted by.
func (s *Server) Budget() *parallel.Budget { return s.budget }

// Logger returns the server's logger.
func (s *Server) Logger() *slog.Logger { return s.log }

// Handler returns the server's handler: every route behind the request
// id, logging, metrics and recovery middleware. Routes can no longer be
// added once it was called.
func (s *Server) Handler() http.Handler {
	s.mu.Lock()
	s.frozen = true
	s.mu.Unlock()
	return s.observe(s.recoverPanics(s.mux))
}

// Serve serves HTTP on ln until ctx is done, then shuts down gracefully:
// the listener is closed, requests in flight have Config.Timeouts.Shutdown
// to finish, and those still running then are interrupted (their contexts
// cancelled, their connections closed) and logged. It returns nil after a
// shutdown, or the error that stopped serving. It refuses a listener that is
// not on loopback when there are management routes and no Config.Token.
// ln is closed when Serve returns.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	if err := s.CheckListener(ln.Addr()); err != nil {
		ln.Close()
		return err
	}
	t := s.cfg.Timeouts
	base, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	handler := s.Handler()
	if s.cfg.Front != nil {
		handler = s.cfg.Front(handler)
	}
	hs := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: t.ReadHeader,
		ReadTimeout:       t.Read,
		WriteTimeout:      t.Write,
		IdleTimeout:       t.Idle,
		MaxHeaderBytes:    t.MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return base },
	}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	s.log.Info("serving", "addr", ln.Addr().String(), "routes", s.routeNames())
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	return s.shutdown(hs, served, cancel)
}

// shutdown stops hs gracefully, then interrupts what is left.
func (s *Server) shutdown(hs *http.Server, served chan error, cancel context.CancelFunc) error {
	n := s.inflight.count()
	s.log.Info("shutting down", "in_flight", n, "deadline", s.cfg.Timeouts.Shutdown.String())
	sctx, scancel := context.WithTimeout(context.Background(), s.cfg.Timeouts.Shutdown)
	defer scancel()
	s.jobs.Close()
	err := hs.Shutdown(sctx)
	s.jobs.Wait(sctx)
	if errors.Is(err, context.DeadlineExceeded) {
		for _, r := range s.inflight.list() {
			s.log.Warn("interrupted by shutdown", "request_id", r.id, "route", r.route, "method", r.method, "path", r.path, "running", time.Since(r.start).Round(time.Millisecond).String())
		}
		cancel()
		err = hs.Close()
	}
	if serr := <-served; !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	s.log.Info("stopped", "in_flight", s.inflight.count())
	return err
}

// CheckListener reports whether the server may listen on addr: not when
// addr is not a loopback address, some route is a management route and no
// token is configured.
func (s *Server) CheckListener(addr net.Addr) error {
	s.mu.Lock()
	mgmt := s.mgmt
	s.mu.Unlock()
	if !mgmt || s.cfg.Token != "" || isLoopback(addr) {
		return nil
	}
	return fmt.Errorf("server: refusing to listen on %s without a token: the management endpoints would be open to the network; set a token (sluice serve --token, or $SLUICE_TOKEN) or listen on 127.0.0.1", addr)
}

// isLoopback reports whether addr is a TCP address on a loopback IP (an
// unspecified address, 0.0.0.0 or ::, is every interface: not loopback).
func isLoopback(addr net.Addr) bool {
	switch a := addr.(type) {
	case *net.TCPAddr:
		return a.IP.IsLoopback()
	case *net.UnixAddr:
		return true // reachable only through the file system
	}
	host, _, err := net.SplitHostPort(addr.String())
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
