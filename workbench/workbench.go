// Package workbench is the web workbench of sluice serve: server-rendered
// pages (html/template) and small plain scripts, embedded, that a person
// uses at a browser. It adds its routes to a server.Server and uses only
// the server's exported API:
//
//	srv, err := server.New(cfg)
//	err = workbench.Register(srv, workbench.Config{Fetch: proxy.NewFetchClient(proxy.FetchOptions{})})
//
// The views: the home page (/), Inspect (/inspect and POST /v1/inspect:
// what sluice keeps and drops on the page itself), Filter sets
// (/filter-sets, over the server's /v1/filter-sets and /v1/jobs routes)
// and Annotate (/annotate, over the routes of package projects, which the
// server must have for it to work; annotate.go).
// Pages carry a strict Content-Security-Policy: their own scripts and
// styles only.
package workbench

import (
	"bytes"
	"embed"
	"html/template"
	"io/fs"
	"net/http"
	"strconv"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/server"
)

// web holds the workbench's templates and static files (plain CSS and
// JavaScript: no build step, nothing loaded from elsewhere).
//
//go:embed web
var web embed.FS

// pageCSP is the Content-Security-Policy of the workbench's pages: their
// own scripts and styles only. Inline styles are allowed for the Inspect
// view's frame, whose srcdoc document inherits this policy (the framed
// page's own style attributes); the frame has no scripts at all (sandbox
// without allow-scripts, and its own stricter policy).
const pageCSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
	"connect-src 'self'; frame-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// preset is a filter choice of the Inspect view's picker.
type preset struct {
	Value, Label string
}

// presets are the filter sets the Inspect view offers besides the stored
// ones: the model in its styles, the default pipeline and some of
// CombinE's combinations.
var presets = []preset{
	{"model", "model (main content)"},
	{"model:cleaneval", "model, CleanEval style (all running text)"},
	{sluice.DefaultFilter, sluice.DefaultFilter + " (default pipeline)"},
	{"lqf>bte", "lqf>bte (CombinE: link quota, then BTE)"},
	{"lqf>dsc", "lqf>dsc (CombinE: link quota, then DSC)"},
	{"union(bte,accb)", "union(bte,accb) (CombinE: either keeps)"},
	{"vote(bte,dsc,accb)", "vote(bte,dsc,accb) (CombinE: majority)"},
	{"targetnode", "targetnode (WC Cleaner's target node)"},
}

// Config configures the workbench.
type Config struct {
	// Fetch fetches the pages the Inspect view is given by address (POST
	// /v1/inspect?fetch=URL), for clients on loopback or with the
	// server's token: proxy.NewFetchClient, which applies the proxy's
	// destination rules. Nil: pages are not fetched.
	Fetch *http.Client
}

// modelFilter is the filter name of the trained model in requests.
const modelFilter = "model"

// workbench serves the pages of the web workbench.
type workbench struct {
	srv                       *server.Server
	fetch                     *http.Client
	home, inspect, filterSets *template.Template
	annotate                  *template.Template
	data                      pageData
}

// pageData is what the templates are given.
type pageData struct {
	Page     string // the current page, for the navigation
	Presets  []preset
	Default  string // the server's default filter
	MaxBytes int64
	MaxSize  string // MaxBytes for people
	Fetch    bool   // pages may be fetched by address
	Store    bool   // the server keeps filter sets
}

// Register adds the workbench's routes to srv (before it serves).
func Register(srv *server.Server, cfg Config) error {
	routes, err := Routes(srv, cfg)
	if err != nil {
		return err
	}
	for _, r := range routes {
		if err := srv.Handle(r); err != nil {
			return err
		}
	}
	return nil
}

// Routes are the routes of the web workbench on srv: the home page, the
// Inspect view and its JSON endpoint, the Filter sets view, the Annotate
// view and its two routes, and the static files. The pages are not
// management routes: the Filter sets and Annotate pages are shells whose
// scripts read and change state through the API's management routes, with
// the token when the server has one. The Annotate view's frame and fetch
// routes are management routes (a project's pages are its owner's).
func Routes(srv *server.Server, cfg Config) ([]server.Route, error) {
	sc := srv.Config()
	wb := &workbench{srv: srv, fetch: cfg.Fetch, data: pageData{Presets: presets, MaxBytes: sc.MaxBodyBytes, Fetch: cfg.Fetch != nil, Store: sc.Store != nil}}
	wb.data.MaxSize = strconv.FormatInt(sc.MaxBodyBytes>>10, 10) + " KiB"
	if sc.MaxBodyBytes%(1<<20) == 0 {
		wb.data.MaxSize = strconv.FormatInt(sc.MaxBodyBytes>>20, 10) + " MiB"
	}
	wb.data.Default = sc.Defaults.Filter
	if wb.data.Default == "" {
		wb.data.Default = modelFilter
		if st := sc.Defaults.Style; st != "" {
			wb.data.Default += ":" + st
		}
	}
	for t, name := range map[**template.Template]string{&wb.home: "home", &wb.inspect: "inspect", &wb.filterSets: "filtersets", &wb.annotate: "annotate"} {
		var err error
		if *t, err = template.ParseFS(web, "web/templates/layout.html", "web/templates/"+name+".html"); err != nil {
			return nil, err
		}
	}
	static, err := fs.Sub(web, "web/static")
	if err != nil {
		return nil, err
	}
	files := http.StripPrefix("/web/", http.FileServerFS(static))
	return append([]server.Route{
		{Method: http.MethodGet, Path: "/{$}", Handler: wb.page(wb.home, "home")},
		{Method: http.MethodGet, Path: "/inspect", Handler: wb.page(wb.inspect, "inspect")},
		{Method: http.MethodPost, Path: "/v1/inspect", Handler: http.HandlerFunc(wb.serveInspect)},
		{Method: http.MethodGet, Path: "/filter-sets", Handler: wb.page(wb.filterSets, "filter-sets")},
		{Method: http.MethodGet, Path: "/web/{file...}", Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.PathValue("file") == "" {
				server.WriteError(w, r, http.StatusNotFound, "not_found", "no file named")
				return
			}
			w.Header().Set("Cache-Control", "no-cache")
			w.Header().Set("X-Content-Type-Options", "nosniff")
			files.ServeHTTP(w, r)
		})},
	}, newAnnotator(wb).routes()...), nil
}

// page serves a template as an HTML page with the workbench's headers.
func (wb *workbench) page(t *template.Template, name string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d := wb.data
		d.Page = name
		var buf bytes.Buffer
		if err := t.ExecuteTemplate(&buf, "layout", d); err != nil {
			panic(err) // the templates are the package's own: a bug
		}
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Content-Length", strconv.Itoa(buf.Len()))
		h.Set("Content-Security-Policy", pageCSP)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-cache")
		w.WriteHeader(http.StatusOK)
		if r.Method != http.MethodHead {
			w.Write(buf.Bytes())
		}
	})
}
