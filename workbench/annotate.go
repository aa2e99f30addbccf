package workbench

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/server"
	"github.com/sluice-project/sluice/store"
)

// The Annotate view (/annotate) is Victor's annotation tool in the
// browser. Its page is a shell: the script reads and changes projects,
// pages, labels, exports, training runs and models through the routes of
// package projects (/v1/projects, /v1/train, /v1/models), which sluice
// serve registers beside the workbench. The workbench adds two routes of
// its own: a project page rewritten for the view's frame, and fetching a
// page by address to add it.

// annotateFrameStyle is added to the frame's styles: each block marked
// with its label's colour (data-l, set by the view's script), striped
// while the label is the model's (data-m), the current one outlined. The colours are those of the view's list (annotate.css).
const annotateFrameStyle = `<style>[data-b]{opacity:1!important;filter:none!important;text-decoration:none!important;` +
	`background:none!important;outline:none!important;border-radius:2px}` +
	`[data-l=heading]{background:#d9c9ff!important}[data-l=paragraph]{background:#c3ebd0!important}` +
	`[data-l=list]{background:#bfe1ff!important}[data-l=continuation]{background:#ffe6a6!important}` +
	`[data-l=other]{background:#e6e6e6!important;color:#777!important}` +
	`[data-b][data-m]{background-image:repeating-linear-gradient(135deg,transparent 0 5px,rgba(255,255,255,.6) 5px 8px)!important}` +
	`[data-b].sl-cur{outline:3px solid #c5221f!important;outline-offset:1px}</style>`

// FrameAnswer is the answer of GET /v1/annotate/projects/{id}/pages/{page}/frame.
type FrameAnswer struct {
	// Frame is the page in UTF-8 without scripts, its blocks' text wrapped
	// in <span data-b="INDEX">, the indices those of the page's blocks in
	// GET /v1/projects/{id}/pages/{page}.
	Frame string `json:"frame"`
}

// annotator holds what the Annotate view's routes share: the cleaner that
// segments stored pages as package projects does (the default options),
// built on first use.
type annotator struct {
	wb      *workbench
	segment func() (*sluice.Cleaner, error)
}

func newAnnotator(wb *workbench) *annotator {
	return &annotator{wb: wb, segment: sync.OnceValues(func() (*sluice.Cleaner, error) { return sluice.New(sluice.Options{}) })}
}

// routes are the Annotate view's page and, on a server with a store, its
// two management routes (a server without one has no management routes,
// and may listen beyond loopback without a token).
func (a *annotator) routes() []server.Route {
	rs := []server.Route{{Method: http.MethodGet, Path: "/annotate", Handler: a.wb.page(a.wb.annotate, "annotate")}}
	if a.wb.srv.Config().Store == nil {
		return rs
	}
	return append(rs,
		server.Route{Method: http.MethodGet, Path: "/v1/annotate/projects/{id}/pages/{page}/frame", Management: true, Handler: http.HandlerFunc(a.serveFrame)},
		server.Route{Method: http.MethodPost, Path: "/v1/annotate/fetch", Management: true, Handler: http.HandlerFunc(a.serveFetch)})
}

// pathID reads a numeric path wildcard.
func pathID(r *http.Request, name string) (int64, bool) {
	id, err := strconv.ParseInt(r.PathValue(name), 10, 64)
	return id, err == nil && id > 0
}

// serveFrame is GET /v1/annotate/projects/{id}/pages/{page}/frame: the
// stored page rewritten for the view's sandboxed frame.
func (a *annotator) serveFrame(w http.ResponseWriter, r *http.Request) {
	db := a.wb.srv.Config().Store
	proj, ok1 := pathID(r, "id")
	id, ok2 := pathID(r, "page")
	if !ok1 || !ok2 {
		server.WriteError(w, r, http.StatusNotFound, "not_found", "project and page ids are numbers")
		return
	}
	p, err := db.Page(r.Context(), id)
	switch {
	case errors.Is(err, store.ErrNotFound) || err == nil && p.Project != proj:
		server.WriteError(w, r, http.StatusNotFound, "not_found", fmt.Sprintf("project %d has no page %d", proj, id))
		return
	case err != nil:
		server.WriteError(w, r, http.StatusInternalServerError, "internal", err.Error())
		return
	}
	frame, apiErr := a.frame(r.Context(), p)
	if apiErr != nil {
		server.WriteAPIError(w, r, apiErr)
		return
	}
	server.WriteJSON(w, r, http.StatusOK, FrameAnswer{Frame: frame})
}

// frame segments a stored page as package projects does (its bytes alone,
// as a file is read) and rewrites it for the frame.
func (a *annotator) frame(ctx context.Context, p *store.Page) (string, *server.APIError) {
	cl, err := a.segment()
	if err != nil {
		return "", server.NewError(http.StatusInternalServerError, "internal", err.Error())
	}
	cost := sluice.CleanCost(len(p.HTML)) * 2
	if apiErr := a.wb.srv.Admit(ctx, cost); apiErr != nil {
		return "", apiErr
	}
	defer a.wb.srv.Release(cost)
	res, err := cl.Segment(ctx, sluice.Input{Data: p.HTML, URL: p.URL})
	if err != nil {
		return "", server.CleanError(ctx, err)
	}
	doc := frameDoc(p.HTML, "", res.Page, make([]string, len(res.Page.Blocks)))
	return strings.Replace(doc, frameHead, frameHead+annotateFrameStyle, 1), nil
}

// FetchAnswer is the answer of POST /v1/annotate/fetch?url=ADDRESS: the
// page fetched, for the view to add to a project as it came (its bytes in
// base64: the page's charset is read when it is added).
type FetchAnswer struct {
	URL  string `json:"url"`
	Data []byte `json:"data"`
}

// serveFetch is POST /v1/annotate/fetch?url=ADDRESS: the page at the
// address, fetched under the same rules as the Inspect view's.
func (a *annotator) serveFetch(w http.ResponseWriter, r *http.Request) {
	target := r.URL.Query().Get("url")
	if target == "" {
		server.WriteError(w, r, http.StatusBadRequest, "missing_parameter", "give the page's address as ?url=")
		return
	}
	req := &inspectRequest{}
	if apiErr := a.wb.fetchPage(r, target, req); apiErr != nil {
		server.WriteAPIError(w, r, apiErr)
		return
	}
	server.WriteJSON(w, r, http.StatusOK, FetchAnswer{URL: req.URL, Data: req.HTML})
}
