package projects

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/sluice-project/sluice/server"
	"github.com/sluice-project/sluice/store"
)

// httpError is an error answer: its status, code and message, and the
// accepted values when the problem is a value outside a set.
type httpError struct {
	status        int
	code, message string
	valid         []string
	offset        *int64
}

func (e *httpError) Error() string { return e.code + ": " + e.message }

func newError(status int, code, format string, a ...any) *httpError {
	return &httpError{status: status, code: code, message: fmt.Sprintf(format, a...)}
}

// writeError answers err through server.WriteError: an *httpError as it
// says, a store's not-found or exists as 404 and 409, anything else as 500.
func writeError(w http.ResponseWriter, r *http.Request, err error) {
	var he *httpError
	switch {
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
	if he.offset != nil {
		opts = append(opts, server.WithOffset(*he.offset))
	}
	server.WriteError(w, r, he.status, he.code, he.message, opts...)
}

// checkQuery refuses query parameters not in allowed, and any given twice.
func checkQuery(r *http.Request, allowed ...string) error {
	for k, v := range r.URL.Query() {
		switch {
		case !slices.Contains(allowed, k):
			e := newError(http.StatusBadRequest, "unknown_parameter", "unknown query parameter %q", k)
			if len(allowed) == 0 {
				e.message += ": this endpoint takes none"
			}
			e.valid = allowed
			return e
		case len(v) > 1:
			return newError(http.StatusBadRequest, "bad_query", "query parameter %q given %d times", k, len(v))
		}
	}
	return nil
}

// readBody reads r's body, at most limit bytes (413 above).
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	tooLarge := newError(http.StatusRequestEntityTooLarge, "body_too_large", "the body is larger than the limit of %d bytes", limit)
	if r.ContentLength > limit {
		return nil, tooLarge
	}
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		return nil, tooLarge
	case err != nil:
		return nil, newError(http.StatusBadRequest, "bad_body", "reading the body: %v", err)
	}
	return b, nil
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
	body, err := readBody(w, r, limit)
	if err != nil {
		return err
	}
	return unmarshalStrict(body, v, fields)
}

// unmarshalStrict decodes body, one JSON object of the given fields, into v.
func unmarshalStrict(body []byte, v any, fields []string) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil && dec.More() {
		err = errors.New("more than one JSON value: send one object")
	}
	if err == nil {
		return nil
	}
	off := dec.InputOffset()
	var (
		syn *json.SyntaxError
		typ *json.UnmarshalTypeError
		e   *httpError
	)
	switch {
	case errors.As(err, &syn):
		off = syn.Offset
		e = newError(http.StatusBadRequest, "malformed_json", "the body is not valid JSON: %v (at byte %d)", err, off)
	case errors.As(err, &typ):
		off = typ.Offset
		e = newError(http.StatusBadRequest, "bad_field", "field %q: a JSON %s where %s is wanted", typ.Field, typ.Value, typeName(typ))
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		e = newError(http.StatusBadRequest, "unknown_field", "%s (the fields are %s)", strings.TrimPrefix(err.Error(), "json: "), strings.Join(fields, ", "))
		e.valid = fields
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		e = newError(http.StatusBadRequest, "malformed_json", "the body is empty or cut short: send a JSON object")
	default:
		e = newError(http.StatusBadRequest, "malformed_json", "the body: %v", err)
	}
	e.offset = &off
	return e
}

// typeName says what Go type a JSON value was decoded into, in words.
func typeName(e *json.UnmarshalTypeError) string {
	switch k := e.Type.Kind().String(); {
	case strings.HasPrefix(k, "int"), strings.HasPrefix(k, "float"), strings.HasPrefix(k, "uint"):
		return "a number"
	case k == "string":
		return "a string"
	case k == "slice":
		return "an array"
	case k == "bool":
		return "true or false"
	}
	return "another type"
}

// pathID reads the numeric path wildcard name; 404 when it is no id.
func pathID(r *http.Request, name, what string) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue(name), 10, 64)
	if err != nil || id < 1 {
		return 0, newError(http.StatusNotFound, "not_found", "no %s %q: %s ids are numbers", what, r.PathValue(name), what)
	}
	return id, nil
}
