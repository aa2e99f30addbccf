package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/filter"
	"github.com/sluice-project/sluice/ingest"
	"github.com/sluice-project/sluice/label"
	"github.com/sluice-project/sluice/render"
)

// modelFilter is the filter name of the trained model in requests;
// "model:STYLE" names a style too.
const modelFilter = "model"

// maxFilterLen caps a filter expression in a request.
const maxFilterLen = 1024

// serveClean is POST /v1/clean: read and decode the request, check its
// options, wait for its place in the memory budget, clean, render, answer.
func (s *Server) serveClean(w http.ResponseWriter, r *http.Request) {
	body, apiErr := s.readBody(w, r)
	if apiErr != nil {
		writeAPIError(w, r, apiErr)
		return
	}
	req, apiErr := decodeRequest(r.Header.Get("Content-Type"), r.URL.RawQuery, body)
	if apiErr != nil {
		writeAPIError(w, r, apiErr)
		return
	}
	body = nil
	rf, apiErr := s.renderer(req)
	if apiErr != nil {
		writeAPIError(w, r, apiErr)
		return
	}
	cl, apiErr := s.requestCleaner(r.Context(), req)
	if apiErr != nil {
		writeAPIError(w, r, apiErr)
		return
	}
	out, warnings, apiErr := s.admitAndClean(r.Context(), cl, rf, req)
	if apiErr != nil {
		if r.Context().Err() == nil {
			writeAPIError(w, r, apiErr)
		}
		return
	}
	s.metrics.pages.WithLabelValues(rf.name).Inc()
	s.metrics.bytesIn.Add(float64(len(req.HTML)))
	s.metrics.bytesOut.Add(float64(out.Len()))
	h := w.Header()
	h.Set("Content-Type", rf.contentType)
	h.Set("Content-Length", strconv.Itoa(out.Len()))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Sluice-Filter", cl.Filter())
	if req.setVersion != "" {
		h.Set("Sluice-Filter-Set", req.setVersion)
	}
	if req.Model != "" {
		h.Set("Sluice-Model", req.Model)
	}
	for i, wr := range warnings {
		if i == maxWarnings {
			h.Add("Sluice-Warning", fmt.Sprintf("%d more warnings", len(warnings)-i))
			break
		}
		h.Add("Sluice-Warning", headerSafe(wr))
	}
	w.WriteHeader(http.StatusOK)
	w.Write(out.Bytes())
}

// requestCleaner returns the cleaner req asks for: that of a stored
// model, of a stored filter set, or of its filter, style and threshold.
func (s *Server) requestCleaner(ctx context.Context, req *cleanRequest) (*sluice.Cleaner, *APIError) {
	switch {
	case req.Model != "":
		return s.modelCleaner(ctx, req)
	case req.FilterSet != "":
		return s.setCleaner(ctx, req)
	}
	return s.cleaner(req)
}

// maxWarnings is the most Sluice-Warning headers an answer carries.
const maxWarnings = 8

// headerSafe makes s a header value: printable ASCII, at most 300 bytes.
func headerSafe(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c < ' ' || c >= 0x7f {
			b[i] = '?'
		}
	}
	if len(b) > 300 {
		b = append(b[:297], "..."...)
	}
	return string(b)
}

// readBody reads the request body, at most Config.MaxBodyBytes.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, *APIError) {
	return readBodyLimit(w, r, s.cfg.MaxBodyBytes, "(sluice serve --max-body); pages longer than the cleaner's cap are cut anyway")
}

// readBodyLimit reads the request body, at most limit bytes; why says
// where the limit comes from.
func readBodyLimit(w http.ResponseWriter, r *http.Request, limit int64, why string) ([]byte, *APIError) {
	tooLarge := newError(http.StatusRequestEntityTooLarge, "body_too_large",
		strings.TrimSpace(fmt.Sprintf("the body is larger than the limit of %d bytes %s", limit, why)))
	if r.ContentLength > limit {
		return nil, tooLarge
	}
	var buf bytes.Buffer
	if r.ContentLength > 0 {
		buf.Grow(int(r.ContentLength))
	}
	_, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, limit))
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		return nil, tooLarge
	case err != nil:
		return nil, newError(http.StatusBadRequest, "bad_body", fmt.Sprintf("reading the body: %v", err))
	}
	return buf.Bytes(), nil
}

// admit waits for cost in the memory budget, then for a cleaning slot,
// at most Config.AdmissionWait in all. Call release after.
func (s *Server) admit(ctx context.Context, cost int64) *APIError {
	actx, cancel := context.WithTimeout(ctx, s.cfg.AdmissionWait)
	defer cancel()
	busy := func(what string) *APIError {
		if ctx.Err() == nil { // not a client that left
			s.metrics.admission.Inc()
		}
		return newError(http.StatusServiceUnavailable, "busy",
			fmt.Sprintf("the server stayed busy for %s (%s): retry later", s.cfg.AdmissionWait, what))
	}
	if err := s.budget.Acquire(actx, cost); err != nil {
		return busy("its memory budget is taken by the pages being cleaned")
	}
	if s.slots == nil {
		return nil
	}
	select {
	case s.slots <- struct{}{}:
		return nil
	case <-actx.Done():
		s.budget.Release(cost)
		return busy(fmt.Sprintf("all %d cleaning slots are taken", cap(s.slots)))
	}
}

// release gives back what admit took.
func (s *Server) release(cost int64) {
	if s.slots != nil {
		<-s.slots
	}
	s.budget.Release(cost)
}

// admitAndClean waits for req's place (see admit), cleans and renders,
// and gives the place back, even when cleaning panics.
func (s *Server) admitAndClean(ctx context.Context, cl *sluice.Cleaner, rf rendererFor, req *cleanRequest) (*bytes.Buffer, []string, *APIError) {
	cost := sluice.CleanCost(len(req.HTML))
	if apiErr := s.admit(ctx, cost); apiErr != nil {
		return nil, nil, apiErr
	}
	defer s.release(cost)
	return s.clean(ctx, cl, rf, req)
}

// clean cleans req's page with cl and renders it.
func (s *Server) clean(ctx context.Context, cl *sluice.Cleaner, rf rendererFor, req *cleanRequest) (*bytes.Buffer, []string, *APIError) {
	res, err := cl.Clean(ctx, sluice.Input{Data: req.HTML, ContentType: req.ContentType, URL: req.URL})
	if err != nil {
		return nil, nil, cleanError(ctx, err)
	}
	var out bytes.Buffer
	if err := rf.r.Render(&out, res.Page); err != nil {
		return nil, nil, newError(http.StatusInternalServerError, "render", "rendering the page: "+err.Error())
	}
	return &out, res.Warnings, nil
}

// cleanError is the answer to a page Clean failed on.
func cleanError(ctx context.Context, err error) *APIError {
	switch {
	case ctx.Err() != nil:
		return newError(statusClientClosed, "canceled", "the request was canceled")
	case errors.Is(err, ingest.ErrEmpty):
		return newError(http.StatusBadRequest, "empty_input", "the page has no content: "+err.Error())
	}
	return newError(http.StatusUnprocessableEntity, "not_html", "the page could not be cleaned: "+err.Error())
}

// rendererFor is the renderer a request asked for, with what its answer
// is called.
type rendererFor struct {
	r           render.Renderer
	name        string // the format's canonical name
	contentType string
}

// renderer makes the renderer of req's format.
func (s *Server) renderer(req *cleanRequest) (rendererFor, *APIError) {
	name := req.Format
	if name == "" {
		name = s.cfg.Defaults.Format
	}
	r, err := render.Lookup(name, render.Options{IncludeDropped: req.Dropped, Tables: req.Tables, BlockLanguages: true})
	if err != nil {
		return rendererFor{}, newError(http.StatusBadRequest, "unknown_format", fmt.Sprintf("unknown format %q", name), WithValid(render.Formats()))
	}
	rf := rendererFor{r: r}
	switch r.(type) {
	case *render.CleanEval:
		rf.name, rf.contentType = "cleaneval", "text/plain; charset=utf-8"
	case render.Text:
		rf.name, rf.contentType = "text", "text/plain; charset=utf-8"
	case render.Markdown:
		rf.name, rf.contentType = "markdown", "text/markdown; charset=utf-8"
	case *render.JSON:
		rf.name, rf.contentType = "json", "application/json"
	case render.HTML:
		rf.name, rf.contentType = "html", "text/html; charset=utf-8"
	case render.Parser:
		rf.name, rf.contentType = "parser", "text/plain; charset=utf-8"
	case render.XML:
		rf.name, rf.contentType = "xml", "application/xml"
	case render.TEI:
		rf.name, rf.contentType = "tei", "application/tei+xml"
	default:
		rf.name, rf.contentType = "other", "application/octet-stream"
	}
	return rf, nil
}

// cleaner returns the cleaner of req's filter, style and threshold. A
// request that names a filter leaves the default style and threshold
// aside: they go with the default filter.
func (s *Server) cleaner(req *cleanRequest) (*sluice.Cleaner, *APIError) {
	k := cleanerKey{filter: req.Filter, style: req.Style, threshold: req.Threshold}
	if k.filter == "" {
		d := s.cfg.Defaults
		k.filter = d.Filter
		if k.style == "" {
			k.style = d.Style
		}
		if k.threshold == 0 {
			k.threshold = d.Threshold
		}
	}
	if style, ok := strings.CutPrefix(k.filter, modelFilter+":"); ok && k.style == "" {
		k.filter, k.style = modelFilter, style
	}
	if k.filter == modelFilter {
		k.filter = ""
	}
	if apiErr := s.checkOptions(k); apiErr != nil {
		return nil, apiErr
	}
	cl, err := s.cleaners.get(k)
	if err != nil {
		return nil, newError(http.StatusBadRequest, "bad_options", err.Error())
	}
	return cl, nil
}

// checkOptions names what is wrong with k's options, before a cleaner is
// built for them.
func (s *Server) checkOptions(k cleanerKey) *APIError {
	if k.filter != "" {
		valid := append([]string{modelFilter}, filter.Names()...)
		if len(k.filter) > maxFilterLen {
			return newError(http.StatusBadRequest, "bad_filter", fmt.Sprintf("the filter expression is %d bytes long; at most %d", len(k.filter), maxFilterLen))
		}
		if _, err := filter.Parse(k.filter); err != nil {
			return newError(http.StatusBadRequest, "bad_filter", err.Error()+`; give a filter expression of these names ("a>b", "union(a,b)", "vote(a,b,c)") or "model"`, WithValid(valid))
		}
		switch {
		case k.style != "":
			return newError(http.StatusBadRequest, "bad_style", fmt.Sprintf("style %q: styles are for the trained model (filter \"model\"), not for filter %q", k.style, k.filter))
		case k.threshold == label.ExpectedF1:
			return newError(http.StatusBadRequest, "bad_threshold", fmt.Sprintf("threshold \"ef\" needs the trained model's probabilities; filter %q gives scores", k.filter))
		}
		return nil
	}
	base, err := s.cleaners.get(cleanerKey{})
	if err != nil {
		return newError(http.StatusInternalServerError, "model", "loading the model: "+err.Error())
	}
	if styles := base.Styles(); k.style != "" && !slices.Contains(styles, k.style) {
		return newError(http.StatusBadRequest, "unknown_style", fmt.Sprintf("the model knows no style %q", k.style), WithValid(styles))
	}
	return nil
}
