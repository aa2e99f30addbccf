package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
)

// ErrorBody is the JSON body of every error answer:
//
//	{"error": {"code": "unknown_format", "message": "...", "valid": ["cleaneval", ...],
//	           "offset": 17, "request_id": "..."}}
//
// Code is stable and machine-readable; Message says what was wrong and how
// to fix it. Valid lists the accepted values when the problem is a value
// outside a set (formats, filters, styles, methods); Offset is the byte
// offset in the request body of a JSON syntax or type error.
type ErrorBody struct {
	Error APIError `json:"error"`
}

// APIError is the error object of ErrorBody.
type APIError struct {
	Code    string   `json:"code"`
	Message string   `json:"message"`
	Valid   []string `json:"valid,omitempty"`
	Offset  *int64   `json:"offset,omitempty"`
	// Errors are the problems of a document sent in the body (a filter
	// set), each at its line and column.
	Errors    []Problem `json:"errors,omitempty"`
	RequestID string    `json:"request_id,omitempty"`

	status int // the HTTP status it is answered with
}

func (e *APIError) Error() string { return e.Code + ": " + e.Message }

// ErrorOption adds detail to an error answer.
type ErrorOption func(*APIError)

// WithValid names the accepted values.
func WithValid(v []string) ErrorOption { return func(e *APIError) { e.Valid = v } }

// WithOffset gives the byte offset of the problem in the body.
func WithOffset(off int64) ErrorOption { return func(e *APIError) { e.Offset = &off } }

// Problem is one problem in a document sent in the body, at a 1-based line
// and column (counted in characters); 0 and 0 when it is about the
// document as a whole.
type Problem struct {
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Message string `json:"message"`
}

// WithProblems lists the problems of the document sent.
func WithProblems(p []Problem) ErrorOption { return func(e *APIError) { e.Errors = p } }

// newError makes an APIError to answer with status.
func newError(status int, code, msg string, opts ...ErrorOption) *APIError {
	e := &APIError{Code: code, Message: msg, status: status}
	for _, o := range opts {
		o(e)
	}
	return e
}

// WriteError answers r with status and an ErrorBody of code and message,
// carrying the request's id. Handlers of later routes use it so that
// every error of the API has one shape.
func WriteError(w http.ResponseWriter, r *http.Request, status int, code, message string, opts ...ErrorOption) {
	writeAPIError(w, r, newError(status, code, message, opts...))
}

// writeAPIError answers r with e.
func writeAPIError(w http.ResponseWriter, r *http.Request, e *APIError) {
	e.RequestID = requestInfoFrom(r.Context()).id
	if e.status == http.StatusServiceUnavailable && w.Header().Get("Retry-After") == "" {
		w.Header().Set("Retry-After", "1")
	}
	writeJSON(w, r, e.status, ErrorBody{Error: *e})
}

// writeJSON answers r with status and v as JSON (HTML characters not
// escaped), with its length.
func writeJSON(w http.ResponseWriter, r *http.Request, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Only a value of the package's own types is encoded: a bug.
		panic(err)
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write(buf.Bytes())
	}
}
