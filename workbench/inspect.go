package workbench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/label"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/proxy"
	"github.com/sluice-project/sluice/server"
	"github.com/sluice-project/sluice/structure"
)

// inspectRequest is a POST /v1/inspect request once read: the page and
// the cleaning options.
type inspectRequest struct {
	HTML        []byte
	ContentType string // of the page, for its charset
	URL         string
	Filter      string
	FilterSet   string // a stored filter set's name
	Model       string // a stored model's name
	Style       string
	Threshold   float64
}

// inspectParams are the query parameters of POST /v1/inspect.
var inspectParams = []string{"fetch", "filter", "filter_set", "model", "style", "threshold", "url"}

// InspectAnswer is the answer of POST /v1/inspect: every block of the page
// with its label, score and source span, and the page rewritten for the
// Inspect view's sandboxed frame.
type InspectAnswer struct {
	// Filter names what decided ("model", "model:cleaneval", an expression).
	Filter string `json:"filter"`
	// FilterSet is the stored filter set that decided, NAME@VERSION;
	// Model the stored model.
	FilterSet string `json:"filter_set,omitempty"`
	Model     string `json:"model,omitempty"`
	// Threshold is the score at and above which a block was kept; absent
	// when the model decided per page (Rule "ef").
	Threshold *float64 `json:"threshold,omitempty"`
	Rule      string   `json:"rule,omitempty"`
	URL       string   `json:"url,omitempty"`
	Title     string   `json:"title,omitempty"`
	Encoding  string   `json:"encoding"`
	// Language is the language of the kept text (Result.Language), when
	// it can be told.
	Language string   `json:"language,omitempty"`
	Warnings []string `json:"warnings"`
	Kept     int      `json:"kept"`
	// Blocks are all the blocks in reading order.
	Blocks []InspectBlock `json:"blocks"`
	// Frame is the page in UTF-8 without scripts, its blocks' text wrapped
	// in <span class="sl-k|sl-d" data-b="INDEX" title="...">.
	Frame string `json:"frame"`
}

// InspectBlock is one block of an InspectAnswer.
type InspectBlock struct {
	Text  string  `json:"text"`
	Label string  `json:"label"` // "other" when dropped
	Role  string  `json:"role"`  // the label it has, or would have if kept
	Score float64 `json:"score"` // rounded to 3 decimals
	Start int     `json:"start"` // byte span in the input
	End   int     `json:"end"`
}

// serveInspect is POST /v1/inspect: the page is the raw body, or the
// fetch parameter's address fetched under the proxy's rules; it is cleaned
// with the query's filter, style and threshold and answered as an
// InspectAnswer.
func (wb *workbench) serveInspect(w http.ResponseWriter, r *http.Request) {
	req, target, apiErr := wb.inspectRequest(w, r)
	if apiErr == nil && target != "" {
		apiErr = wb.fetchPage(r, target, req)
	}
	if apiErr != nil {
		server.WriteAPIError(w, r, apiErr)
		return
	}
	opts := server.CleanOptions{Filter: req.Filter, FilterSet: req.FilterSet, Model: req.Model, Style: req.Style, Threshold: req.Threshold}
	cl, setVersion, apiErr := wb.srv.CleanerOf(r.Context(), opts)
	if apiErr != nil {
		server.WriteAPIError(w, r, apiErr)
		return
	}
	ans, apiErr := wb.inspectPage(r.Context(), cl, req)
	if ans != nil {
		ans.FilterSet, ans.Model = setVersion, req.Model
	}
	if apiErr != nil {
		if r.Context().Err() == nil {
			server.WriteAPIError(w, r, apiErr)
		}
		return
	}
	server.WriteJSON(w, r, http.StatusOK, ans)
}

// inspectRequest reads the query and the body of POST /v1/inspect; the
// address to fetch, when given, is returned instead of a page.
func (wb *workbench) inspectRequest(w http.ResponseWriter, r *http.Request) (*inspectRequest, string, *server.APIError) {
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, "", server.NewError(http.StatusBadRequest, "bad_query", fmt.Sprintf("query string: %v", err))
	}
	for k := range q {
		if !slices.Contains(inspectParams, k) {
			return nil, "", server.NewError(http.StatusBadRequest, "unknown_parameter", fmt.Sprintf("unknown query parameter %q", k), server.WithValid(inspectParams))
		}
	}
	req := &inspectRequest{URL: q.Get("url"), Filter: q.Get("filter"), FilterSet: q.Get("filter_set"), Model: q.Get("model"), Style: q.Get("style")}
	if req.Threshold, err = server.ParseThreshold(q.Get("threshold")); err != nil {
		return nil, "", server.NewError(http.StatusBadRequest, "bad_threshold", err.Error())
	}
	if target := q.Get("fetch"); target != "" {
		return req, target, nil
	}
	body, apiErr := wb.srv.ReadBody(w, r)
	if apiErr != nil {
		return nil, "", apiErr
	}
	req.ContentType = r.Header.Get("Content-Type")
	if mt, _, err := mime.ParseMediaType(req.ContentType); req.ContentType != "" && (err != nil || !slices.Contains(server.RawTypes(), mt)) {
		return nil, "", server.NewError(http.StatusUnsupportedMediaType, "unsupported_media_type",
			fmt.Sprintf("Content-Type %q: send the page as the raw body (text/html, or application/octet-stream for a file)", req.ContentType), server.WithValid(server.RawTypes()))
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, "", server.NewError(http.StatusBadRequest, "empty_input", "the page is empty: paste its HTML, choose a file or give an address")
	}
	req.HTML = body
	return req, "", nil
}

// fetchPage fetches target with Config.Fetch into req.
func (wb *workbench) fetchPage(r *http.Request, target string, req *inspectRequest) *server.APIError {
	if wb.fetch == nil {
		return server.NewError(http.StatusNotImplemented, "fetch_disabled", "this server does not fetch pages by address (workbench.Config.Fetch is not set): paste the page or upload it")
	}
	if !wb.mayFetch(r) {
		return server.NewError(http.StatusForbidden, "fetch_forbidden", "fetching by address is for clients on loopback, or with the server's token: paste the page or upload it")
	}
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return server.NewError(http.StatusBadRequest, "bad_url", fmt.Sprintf("%q is not an http:// or https:// address", target))
	}
	pg, err := proxy.Fetch(r.Context(), wb.fetch, target, "")
	var se *proxy.StatusError
	switch {
	case errors.As(err, &se):
		return server.NewError(http.StatusBadGateway, "fetch_status", se.Error())
	case err != nil:
		return fetchError(u, err)
	}
	if len(bytes.TrimSpace(pg.Body)) == 0 {
		return server.NewError(http.StatusBadGateway, "empty_input", fmt.Sprintf("%s answered an empty page", u.Redacted()))
	}
	req.HTML, req.ContentType = pg.Body, pg.ContentType
	if req.URL == "" {
		req.URL = pg.URL
	}
	return nil
}

// fetchError names what went wrong fetching u.
func fetchError(u *url.URL, err error) *server.APIError {
	var ref *proxy.Refusal
	var ne net.Error
	switch {
	case errors.As(err, &ref):
		hint := "such addresses are never fetched"
		if ref.Rule.Liftable() {
			hint = "private, loopback and link-local addresses are fetched only when sluice serve runs with --fetch-allow-private"
		}
		return server.NewError(http.StatusForbidden, "fetch_refused", fmt.Sprintf("refused to fetch %s: %s is a %s address: %s", u.Redacted(), ref.Addr, ref.Rule, hint))
	case errors.Is(err, proxy.ErrFetchTooLarge):
		return server.NewError(http.StatusRequestEntityTooLarge, "fetch_too_large", fmt.Sprintf("fetching %s: %v", u.Redacted(), err))
	case errors.As(err, &ne) && ne.Timeout():
		return server.NewError(http.StatusGatewayTimeout, "fetch_timeout", fmt.Sprintf("%s did not answer in time", u.Redacted()))
	}
	return server.NewError(http.StatusBadGateway, "fetch_failed", fmt.Sprintf("fetching %s: %v", u.Redacted(), err))
}

// mayFetch reports whether r may have the server fetch a page: from
// loopback, or with the token when there is one.
func (wb *workbench) mayFetch(r *http.Request) bool {
	if ap, err := netip.ParseAddrPort(r.RemoteAddr); err == nil && ap.Addr().Unmap().IsLoopback() {
		return true
	}
	return wb.srv.Config().Token != "" && wb.srv.Authorized(r)
}

// inspectPage admits req's page, cleans it with cl and describes the result.
func (wb *workbench) inspectPage(ctx context.Context, cl *sluice.Cleaner, req *inspectRequest) (*InspectAnswer, *server.APIError) {
	cost := sluice.CleanCost(len(req.HTML)) * 2 // the frame and the answer besides
	if apiErr := wb.srv.Admit(ctx, cost); apiErr != nil {
		return nil, apiErr
	}
	defer wb.srv.Release(cost)
	res, err := cl.Clean(ctx, sluice.Input{Data: req.HTML, ContentType: req.ContentType, URL: req.URL})
	if err != nil {
		return nil, server.CleanError(ctx, err)
	}
	p := res.Page
	ans := &InspectAnswer{Filter: cl.Filter(), URL: p.Meta.URL, Title: p.Meta.Title, Encoding: p.Meta.Encoding,
		Language: res.Language(), Warnings: res.Warnings, Blocks: make([]InspectBlock, len(p.Blocks))}
	if ans.Warnings == nil {
		ans.Warnings = []string{}
	}
	if t := cl.Threshold(); t == label.ExpectedF1 {
		ans.Rule = "ef"
	} else {
		ans.Threshold = &t
	}
	roles := make([]string, len(p.Blocks))
	for i := range p.Blocks {
		b := &p.Blocks[i]
		role := b.Label
		if role == page.Other {
			role = structure.Kind(p, b.Node)
		} else {
			ans.Kept++
		}
		roles[i] = role.String()
		ans.Blocks[i] = InspectBlock{Text: b.Text, Label: b.Label.String(), Role: roles[i],
			Score: math.Round(b.Score*1000) / 1000, Start: b.Source.Start, End: b.Source.End}
	}
	ans.Frame = frameDoc(req.HTML, req.ContentType, p, roles)
	return ans, nil
}
