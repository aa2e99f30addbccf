package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"syscall"
	"time"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/parallel"
	"github.com/sluice-project/sluice/projects"
	"github.com/sluice-project/sluice/proxy"
	"github.com/sluice-project/sluice/server"
	"github.com/sluice-project/sluice/store"
	"github.com/sluice-project/sluice/workbench"
)

// serveCmd is sluice serve.
type serveCmd struct {
	cmdIO

	listen, memory, token, model, filter, style, format, logFormat string
	threshold                                                      thresholdFlag
	maxBody, db, dataRoot                                          string
	admission, shutdown                                            time.Duration
	jobs                                                           int
	proxy, allowPrivate, fetchAllowPrivate                         bool

	memoryBytes int64
	cfg         server.Config
	srv         *server.Server
	closeProxy  func() // with --proxy: ends its tunnels
	store       *store.DB
	projects    *projects.Service // with the store: projects and training
}

func cmdServe(args []string, stdout, stderr io.Writer) int {
	return runCommand("serve", &serveCmd{cmdIO: cmdIO{nil, stdout, stderr}}, args, stdout, stderr)
}

func (c *serveCmd) flagSet() *flag.FlagSet {
	fs := newFlagSet("serve")
	fs.StringVar(&c.listen, "listen", "127.0.0.1:8080", "listen on `ADDRESS` (host:port; :8080 is every interface)")
	fs.StringVar(&c.memory, "memory", defaultMemory, memoryHelp)
	fs.StringVar(&c.token, "token", "", "require `TOKEN` on management endpoints (default $SLUICE_TOKEN)")
	fs.StringVar(&c.model, "model", "", "clean with the labeller model in `FILE` (written by sluice train) instead of the embedded one")
	fs.StringVar(&c.filter, "filter", "", "default filter pipeline `expression` of the requests that name none (default: the trained model)")
	fs.StringVar(&c.style, "style", "", "default style of the model for the requests that name none: main or cleaneval")
	fs.Var(&c.threshold, "threshold", "default threshold of the requests that name none (0 to 1, or ef)")
	fs.StringVar(&c.format, "format", "text", "default output `format`: cleaneval, text, markdown, json, html or parser")
	fs.StringVar(&c.logFormat, "log-format", "text", "log `format`: text or json")
	fs.StringVar(&c.maxBody, "max-body", "16M", "largest request body, `SIZE` (K, M, G); larger ones are answered 413")
	fs.DurationVar(&c.admission, "admission-wait", server.DefaultAdmissionWait, "longest a request waits for memory and a cleaning slot before a 503")
	fs.IntVar(&c.jobs, "j", runtime.GOMAXPROCS(0), "clean at most this many pages at once (more requests wait, as for memory)")
	fs.BoolVar(&c.proxy, "proxy", false, "also be an HTTP forward proxy that cleans the text/html pages it fetches (see above)")
	fs.BoolVar(&c.allowPrivate, "allow-private", false, "with --proxy: let it reach loopback, private and link-local addresses (tests, intranets; metadata addresses stay refused)")
	fs.StringVar(&c.db, "db", "", "keep filter sets and evaluation runs in the SQLite `FILE` (default $XDG_DATA_HOME/sluice/sluice.db, else ~/.local/share/sluice/sluice.db; none: no store)")
	fs.StringVar(&c.dataRoot, "data-root", ".", "evaluate only data sets inside `DIR` (relative paths are taken from it)")
	fs.BoolVar(&c.fetchAllowPrivate, "fetch-allow-private", false, "let the workbench's Inspect view fetch pages from loopback, private and link-local addresses (tests, intranets; --allow-private implies it)")
	fs.DurationVar(&c.shutdown, "shutdown-timeout", 30*time.Second, "on SIGINT or SIGTERM, how long the requests in flight may take to finish")
	return fs
}

// validate reads the flags into the server's configuration and checks it
// by building the server's cleaner defaults.
func (c *serveCmd) validate(args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("takes no arguments (got %q)", args[0])
	}
	var err error
	if c.memoryBytes, err = parseMemory(c.memory); err != nil {
		return err
	}
	maxBody, err := parseSize(c.maxBody)
	if err != nil || maxBody <= 0 {
		return fmt.Errorf("--max-body %q: want a size such as 16M", c.maxBody)
	}
	if c.token == "" {
		c.token = os.Getenv("SLUICE_TOKEN")
	}
	if c.model != "" && c.filter != "" {
		return errors.New("--model and --filter are two ways to decide; give one (a request may still ask for the other)")
	}
	if c.model != "" {
		if c.cfg.Model, err = os.ReadFile(c.model); err != nil {
			return fmt.Errorf("--model: %w", err)
		}
	}
	var h slog.Handler
	switch c.logFormat {
	case "text":
		h = slog.NewTextHandler(c.stderr, nil)
	case "json":
		h = slog.NewJSONHandler(c.stderr, nil)
	default:
		return fmt.Errorf("--log-format %q: want text or json", c.logFormat)
	}
	if err := checkJobs(c.jobs); err != nil {
		return err
	}
	c.cfg.MaxCleans = c.jobs
	if c.admission <= 0 || c.shutdown <= 0 {
		return errors.New("--admission-wait and --shutdown-timeout must be positive")
	}
	c.cfg.Defaults = server.Defaults{Format: c.format, Filter: c.filter, Style: c.style, Threshold: float64(c.threshold)}
	c.cfg.Token = c.token
	c.cfg.MaxBodyBytes = maxBody
	c.cfg.AdmissionWait = c.admission
	c.cfg.Timeouts.Shutdown = c.shutdown
	c.cfg.Logger = slog.New(h)
	c.cfg.Budget = parallel.NewBudget(c.memoryBytes - 128<<20)
	if c.allowPrivate && !c.proxy {
		return errors.New("--allow-private is a rule of the proxy: give --proxy too")
	}
	if c.proxy {
		if err := c.mountProxy(); err != nil {
			return err
		}
	}
	if err := c.openStore(); err != nil {
		return err
	}
	if c.srv, err = server.New(c.cfg); err != nil {
		c.closeStore()
		return err
	}
	fetch := proxy.NewFetchClient(proxy.FetchOptions{AllowPrivate: c.allowPrivate || c.fetchAllowPrivate})
	if err := workbench.Register(c.srv, workbench.Config{Fetch: fetch}); err != nil {
		c.closeStore()
		return err
	}
	return nil
}

// openStore opens the --db store, creating its folder.
func (c *serveCmd) openStore() error {
	if c.db == "none" {
		return nil
	}
	if st, err := os.Stat(c.dataRoot); err != nil || !st.IsDir() {
		return fmt.Errorf("--data-root %s: not a folder", c.dataRoot)
	}
	path := c.db
	if path == "" {
		dir, err := dataDir()
		if err != nil {
			return fmt.Errorf("--db: %w; name the file with --db", err)
		}
		path = filepath.Join(dir, "sluice", "sluice.db")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("--db: %w", err)
	}
	db, err := store.Open(path)
	if err != nil {
		return fmt.Errorf("--db: %w", err)
	}
	c.store, c.cfg.Store, c.cfg.DataRoot = db, db, c.dataRoot
	c.projects, err = projects.New(projects.Config{Store: db, Model: c.cfg.Model, Logger: c.cfg.Logger, Budget: c.cfg.Budget})
	if err != nil {
		db.Close()
		return fmt.Errorf("--db: %w", err)
	}
	c.cfg.Routes = append(c.cfg.Routes, c.projects.Routes()...)
	return nil
}

// closeStore closes the store, if one is open.
func (c *serveCmd) closeStore() {
	if c.store != nil {
		c.store.Close()
	}
}

// dataDir is where a user's data goes: $XDG_DATA_HOME, else
// ~/.local/share, as the XDG base directory specification says (on
// Windows and macOS, the user's configuration folder).
func dataDir() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); filepath.IsAbs(d) {
		return d, nil
	}
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		return os.UserConfigDir()
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".local", "share"), nil
}

// mountProxy puts the filtering proxy in front of the API (server.Config's
// Front), cleaning with the default filter of the requests.
func (c *serveCmd) mountProxy() error {
	cl, err := newCleaner(sluice.Options{Filter: c.filter, Style: c.style, Threshold: float64(c.threshold)}, c.model, "")
	if err != nil {
		return err
	}
	cfg := proxy.Config{Cleaner: cl, FilterSet: cl.Filter(), AllowPrivate: c.allowPrivate, Logger: c.cfg.Logger, Budget: c.cfg.Budget}
	if _, err := proxy.New(cfg); err != nil { // checked now, built with the API below
		return fmt.Errorf("--proxy: %w", err)
	}
	c.cfg.Front = func(api http.Handler) http.Handler {
		cfg.Fallback = api
		p, err := proxy.New(cfg)
		if err != nil {
			panic(err) // the same configuration was accepted above
		}
		c.closeProxy = p.Close
		return p
	}
	return nil
}

// run serves until SIGINT or SIGTERM.
func (c *serveCmd) run(ctx context.Context) int {
	defer c.closeStore()
	setMemoryLimit(c.memoryBytes)
	ln, err := net.Listen("tcp", c.listen)
	if err != nil {
		fmt.Fprintf(c.stderr, "sluice serve: %v\n", err)
		return exitFailed
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	defer func() {
		if c.closeProxy != nil {
			c.closeProxy()
		}
	}()
	trained := c.stopTraining(ctx)
	err = c.srv.Serve(ctx, ln)
	stop() // a Serve that failed early stops the training too
	<-trained
	if err != nil {
		fmt.Fprintf(c.stderr, "sluice serve: %v\n", err)
		return exitFailed
	}
	return exitOK
}

// stopTraining shuts the training runs down when ctx is done, alongside
// the server's own shutdown: the running one gets --shutdown-timeout to
// finish, then is interrupted. The channel is closed when that is over.
func (c *serveCmd) stopTraining(ctx context.Context) <-chan struct{} {
	done := make(chan struct{})
	if c.projects == nil {
		close(done)
		return done
	}
	go func() {
		defer close(done)
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), c.shutdown)
		defer cancel()
		c.projects.Shutdown(sctx)
	}()
	return done
}
