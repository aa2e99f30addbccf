package projects

import (
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strconv"

	"github.com/sluice-project/sluice/server"
	"github.com/sluice-project/sluice/store"
)

// httpError is an error answer: its status, code and message, and the
// accepted values when the problem is a value outside a set.
type httpError struct {
	status        int
	code, message string
	valid         []string
}

func (e *httpError) Error() string { return e.code + ": " + e.message }

func newError(status int, code, format string, a ...any) *httpError {
	return &httpError{status: status, code: code, message: fmt.Sprintf(format, a...)}
}

// writeError answers err through server.WriteError: an *httpError as it
// says, a store's not-found or exists as 404 and 409, anything else as 500.
func writeError(w http.ResponseWriter, r *http.Request, err error) {
	var he *httpError
	var ae *server.APIError
	switch {
	case errors.As(err, &ae):
		server.WriteAPIError(w, r, ae)
		return
	case errors.As(err, &he):
	case errors.Is(err, store.ErrNotFound):
		he = newError(http.StatusNotFound, "not_found", "%v", err)
	case errors.Is(err, store.ErrExists):
		he = newError(http.StatusConflict, "exists", "%v", err)
	default:
		he = newError(http.StatusInternalServerError, "internal", "%v", err)
	}
	var opts []server.ErrorOption
	if he.valid != nil {
		opts = append(opts, server.WithValid(he.valid))
	}
	server.WriteError(w, r, he.status, he.code, he.message, opts...)
}

// mediaType returns r's Content-Type without parameters, lower case; ""
// when there is none.
func mediaType(r *http.Request) (string, error) {
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return "", nil
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return "", newError(http.StatusUnsupportedMediaType, "bad_content_type", "Content-Type %q: %v", ct, err)
	}
	return mt, nil
}

// decodeJSON reads r's body, at most limit bytes, as one JSON object of
// the given fields into v. The body must be application/json (or have no
// Content-Type).
func decodeJSON(w http.ResponseWriter, r *http.Request, limit int64, v any, fields ...string) error {
	mt, err := mediaType(r)
	if err != nil {
		return err
	}
	if mt != "" && mt != "application/json" {
		e := newError(http.StatusUnsupportedMediaType, "unsupported_media_type", "Content-Type %q: send JSON (application/json)", mt)
		e.valid = []string{"application/json"}
		return e
	}
	body, err := server.ReadBodyLimit(w, r, limit)
	if err != nil {
		return err
	}
	return server.DecodeStrict(body, v, fields)
}

// pathID reads the numeric path wildcard name; 404 when it is no id.
func pathID(r *http.Request, name, what string) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue(name), 10, 64)
	if err != nil || id < 1 {
		return 0, newError(http.StatusNotFound, "not_found", "no %s %q: %s ids are numbers", what, r.PathValue(name), what)
	}
	return id, nil
}
