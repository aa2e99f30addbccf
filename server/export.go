package server

import (
	"context"
	"net/http"
	"slices"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/jobs"
)

// What the parts of the service built on a Server (package workbench, the
// projects' routes...) use of it: its configuration, its errors and JSON
// answers, its cleaners and its admission to cleaning, so that their
// routes behave as the built-in ones.

// NewError makes an APIError to answer with status; write it with
// WriteAPIError.
func NewError(status int, code, message string, opts ...ErrorOption) *APIError {
	return newError(status, code, message, opts...)
}

// Status is the HTTP status e is answered with.
func (e *APIError) Status() int { return e.status }

// WriteAPIError answers r with e, carrying the request's id.
func WriteAPIError(w http.ResponseWriter, r *http.Request, e *APIError) { writeAPIError(w, r, e) }

// WriteJSON answers r with status and v as JSON (HTML characters not
// escaped), with its length and the API's headers.
func WriteJSON(w http.ResponseWriter, r *http.Request, status int, v any) { writeJSON(w, r, status, v) }

// Config returns the server's configuration, its defaults applied.
func (s *Server) Config() Config { return s.cfg }

// ReadBody reads the request body, at most Config.MaxBodyBytes (413
// body_too_large above it).
func (s *Server) ReadBody(w http.ResponseWriter, r *http.Request) ([]byte, *APIError) {
	return s.readBody(w, r)
}

// RawTypes are the media types of a page sent as the raw body.
func RawTypes() []string { return slices.Clone(rawTypes) }

// ParseThreshold reads a threshold as a query gives it: a number in
// [0, 1], "ef" (sluice.ExpectedF1), or "" for 0, the default rule.
func ParseThreshold(s string) (float64, error) { return parseThreshold(s) }

// CleanOptions are the cleaning options of a request, "" or 0 where it
// gave none.
type CleanOptions struct {
	// Filter is a filter expression, "model" or "model:STYLE"; "" for the
	// server's default, with its style and threshold.
	Filter string
	// FilterSet names a stored filter set (its latest version decides),
	// Model a stored model; each excludes Filter and the other, as in
	// POST /v1/clean.
	FilterSet string
	Model     string
	Style     string
	Threshold float64
}

// Cleaner returns the cleaner of o, built once and cached as those of
// POST /v1/clean are; the error is the answer to give (bad_filter,
// unknown_style...). A stored filter set or model is read without a
// deadline: use CleanerOf in a request's handler.
func (s *Server) Cleaner(o CleanOptions) (*sluice.Cleaner, *APIError) {
	cl, _, apiErr := s.CleanerOf(context.Background(), o)
	return cl, apiErr
}

// CleanerOf is Cleaner, reading a stored filter set or model with ctx, and
// also names the stored filter set's version used ("NAME@VERSION"; "" for
// none).
func (s *Server) CleanerOf(ctx context.Context, o CleanOptions) (*sluice.Cleaner, string, *APIError) {
	req := &cleanRequest{Filter: o.Filter, FilterSet: o.FilterSet, Model: o.Model, Style: o.Style, Threshold: o.Threshold}
	cl, apiErr := s.requestCleaner(ctx, req)
	return cl, req.setVersion, apiErr
}

// Admit waits for cost bytes of the memory budget, then for a cleaning
// slot, at most Config.AdmissionWait in all (503 busy after it). Call
// Release with the same cost after.
func (s *Server) Admit(ctx context.Context, cost int64) *APIError { return s.admit(ctx, cost) }

// Release gives back what Admit took.
func (s *Server) Release(cost int64) { s.release(cost) }

// CleanError is the answer to a page sluice.Cleaner.Clean failed on.
func CleanError(ctx context.Context, err error) *APIError { return cleanError(ctx, err) }

// Authorized reports whether r may use a management route: the server
// has no token, or r carries it.
func (s *Server) Authorized(r *http.Request) bool { return s.authorized(r) }

// Jobs returns the runner of the server's background jobs (nil without a
// store): a route of a package above this one records a run in the store,
// submits its work there and answers with the run's id, which
// GET /v1/jobs/{id} then describes.
func (s *Server) Jobs() *jobs.Runner { return s.jobs }

// CheckQuery refuses query parameters not in known, and any given twice,
// with the API's error answer (nil when the query is fine).
func CheckQuery(r *http.Request, known ...string) error {
	if e := checkQuery(r, known); e != nil {
		return e
	}
	return nil
}

// ReadBodyLimit reads r's body, at most limit bytes (413 above), with the
// API's error answers.
func ReadBodyLimit(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	b, e := readBodyLimit(w, r, limit, "")
	if e != nil {
		return nil, e
	}
	return b, nil
}

// DecodeStrict decodes body, one JSON object of the given fields, into v,
// with the API's error answers (offsets, the valid fields).
func DecodeStrict(body []byte, v any, fields []string) error {
	if e := decodeStrict(body, v, fields); e != nil {
		return e
	}
	return nil
}
