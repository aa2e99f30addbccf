package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/sluice-project/sluice/label"
	"github.com/sluice-project/sluice/render"
)

// cleanRequest is a POST /v1/clean request once decoded: the page and the
// options, "" or 0 where the request gave none.
type cleanRequest struct {
	HTML        []byte
	ContentType string // of the page: the charset of a raw body; UTF-8 for JSON
	URL         string
	Format      string
	Filter      string
	FilterSet   string // the name of a stored filter set
	Model       string // the name of a stored model
	Style       string
	Threshold   float64
	Dropped     bool          // json format: list the dropped blocks too
	Tables      render.Tables // how data tables are written; default: the format's

	setVersion string // the stored filter set used, "NAME@VERSION"
}

// jsonRequest is the JSON body of POST /v1/clean.
type jsonRequest struct {
	HTML           *string       `json:"html"`
	URL            string        `json:"url"`
	Format         string        `json:"format"`
	Filter         string        `json:"filter"`
	FilterSet      string        `json:"filter_set"`
	Model          string        `json:"model"`
	Style          string        `json:"style"`
	Threshold      jsonThreshold `json:"threshold"`
	IncludeDropped bool          `json:"include_dropped"`
	Tables         string        `json:"tables"`
}

// jsonThreshold reads a threshold given as a number or as "ef".
type jsonThreshold float64

func (t *jsonThreshold) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		v, err := parseThreshold(s)
		*t = jsonThreshold(v)
		return err
	}
	var v float64
	if err := json.Unmarshal(b, &v); err != nil {
		return errThreshold
	}
	if err := checkThreshold(v); err != nil {
		return err
	}
	*t = jsonThreshold(v)
	return nil
}

var errThreshold = errors.New("threshold: want a number between 0 and 1, or \"ef\" (the expected-F1 rule of the model); 0 or none for the default")

// parseThreshold reads a threshold as a query parameter gives it.
func parseThreshold(s string) (float64, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "":
		return 0, nil
	case "ef", "expected-f1":
		return label.ExpectedF1, nil
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return 0, errThreshold
	}
	return v, checkThreshold(v)
}

func checkThreshold(v float64) error {
	if !(v >= 0 && v <= 1) { // NaN too
		return errThreshold
	}
	return nil
}

// queryParams are the query parameters POST /v1/clean takes.
var queryParams = []string{"filter", "filter_set", "format", "include_dropped", "model", "style", "tables", "threshold", "url"}

// rawTypes are the media types of a raw page body; an absent Content-Type
// is taken as application/octet-stream (RFC 9110, 8.3).
var rawTypes = []string{"application/octet-stream", "application/xhtml+xml", "text/html", "text/plain"}

// decodeRequest decodes a POST /v1/clean request from its Content-Type,
// query string and body. Every failure is an *APIError naming the problem.
func decodeRequest(contentType, rawQuery string, body []byte) (*cleanRequest, *APIError) {
	req := &cleanRequest{}
	if err := req.readQuery(rawQuery); err != nil {
		return nil, err
	}
	mt := "application/octet-stream"
	var params map[string]string
	if contentType != "" {
		var err error
		if mt, params, err = mime.ParseMediaType(contentType); err != nil {
			return nil, newError(http.StatusUnsupportedMediaType, "bad_content_type", fmt.Sprintf("Content-Type %q: %v", contentType, err), WithValid(append(rawTypes, "application/json")))
		}
	}
	switch {
	case mt == "application/json":
		if cs := strings.ToLower(params["charset"]); cs != "" && cs != "utf-8" && cs != "utf8" {
			return nil, newError(http.StatusUnsupportedMediaType, "bad_content_type", fmt.Sprintf("a JSON body is UTF-8, not %q", params["charset"]))
		}
		if err := req.readJSON(body); err != nil {
			return nil, err
		}
		req.ContentType = "text/html; charset=utf-8"
	case slices.Contains(rawTypes, mt):
		req.HTML = body
		req.ContentType = contentType
	default:
		return nil, newError(http.StatusUnsupportedMediaType, "unsupported_media_type",
			fmt.Sprintf("Content-Type %q: send the page as raw HTML (text/html, with its charset if known) or as JSON {\"html\": ...} (application/json)", mt),
			WithValid(append(rawTypes, "application/json")))
	}
	if len(bytes.TrimSpace(req.HTML)) == 0 {
		return nil, newError(http.StatusBadRequest, "empty_input", "the page is empty: send its HTML as the body, or in the \"html\" field of a JSON body")
	}
	return req, nil
}

// readQuery reads the options of the query string.
func (req *cleanRequest) readQuery(rawQuery string) *APIError {
	q, apiErr := parseQuery(rawQuery, queryParams)
	if apiErr != nil {
		return apiErr
	}
	var err error
	req.URL, req.Format, req.Filter, req.Style = q.Get("url"), q.Get("format"), q.Get("filter"), q.Get("style")
	req.FilterSet, req.Model = q.Get("filter_set"), q.Get("model")
	if req.Threshold, err = parseThreshold(q.Get("threshold")); err != nil {
		return newError(http.StatusBadRequest, "bad_threshold", err.Error())
	}
	if apiErr := req.setTables(q.Get("tables")); apiErr != nil {
		return apiErr
	}
	if d := q.Get("include_dropped"); d != "" {
		if req.Dropped, err = strconv.ParseBool(d); err != nil {
			return newError(http.StatusBadRequest, "bad_query", fmt.Sprintf("include_dropped=%q: want true or false", d))
		}
	}
	return nil
}

// parseQuery parses a query string, refusing parameters not in known and
// those given twice.
func parseQuery(rawQuery string, known []string) (url.Values, *APIError) {
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		return nil, newError(http.StatusBadRequest, "bad_query", fmt.Sprintf("query string: %v", err))
	}
	for k, v := range q {
		if !slices.Contains(known, k) {
			return nil, newError(http.StatusBadRequest, "unknown_parameter", fmt.Sprintf("unknown query parameter %q", k), WithValid(known))
		}
		if len(v) > 1 {
			return nil, newError(http.StatusBadRequest, "bad_query", fmt.Sprintf("query parameter %q given %d times; give it once", k, len(v)))
		}
	}
	return q, nil
}

// readJSON reads a JSON body; its fields override the query's.
func (req *cleanRequest) readJSON(body []byte) *APIError {
	var jr jsonRequest
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&jr); err != nil {
		return jsonError(err, dec.InputOffset(), body, jsonFields)
	}
	end := dec.InputOffset()
	if _, err := dec.Token(); err != io.EOF {
		for end < int64(len(body)) && strings.IndexByte(" \t\r\n", body[end]) >= 0 {
			end++
		}
		return newError(http.StatusBadRequest, "malformed_json", fmt.Sprintf("the body holds more than one JSON value (the second at offset %d): send one object", end), WithOffset(end))
	}
	if jr.HTML == nil {
		return newError(http.StatusBadRequest, "missing_field", "the JSON body has no \"html\" field: {\"html\": \"<html>...\"}")
	}
	req.HTML = []byte(*jr.HTML)
	set := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	set(&req.URL, jr.URL)
	set(&req.Format, jr.Format)
	set(&req.Filter, jr.Filter)
	set(&req.FilterSet, jr.FilterSet)
	set(&req.Model, jr.Model)
	set(&req.Style, jr.Style)
	if jr.Threshold != 0 {
		req.Threshold = float64(jr.Threshold)
	}
	req.Dropped = req.Dropped || jr.IncludeDropped
	if jr.Tables != "" {
		return req.setTables(jr.Tables)
	}
	return nil
}

// tableModes are the values of the tables option.
var tableModes = []string{"default", "blocks", "linear", "grid"}

// setTables reads the tables option: how data tables are written.
func (req *cleanRequest) setTables(v string) *APIError {
	t, err := render.ParseTables(v)
	if err != nil {
		return newError(http.StatusBadRequest, "bad_tables", fmt.Sprintf("tables=%q: want blocks (each cell a paragraph), linear (one clause per row) or grid (the format's table), or default", v), WithValid(tableModes))
	}
	req.Tables = t
	return nil
}

// jsonError names a JSON decoding error with its offset in the body.
// Offsets count bytes from 0: a syntax error's is that of the byte at
// fault, a field's that of its name.
func jsonError(err error, offset int64, body []byte, fields []string) *APIError {
	size := int64(len(body))
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		off := max(syn.Offset-1, 0)
		return newError(http.StatusBadRequest, "malformed_json", fmt.Sprintf("malformed JSON at offset %d: %v", off, syn), WithOffset(off))
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return newError(http.StatusBadRequest, "malformed_json", fmt.Sprintf("the JSON body ends early, at offset %d: send a whole object", size), WithOffset(size))
	case errors.As(err, &typ):
		return newError(http.StatusBadRequest, "bad_field", fmt.Sprintf("field %q at offset %d: a JSON %s where a %s is wanted", typ.Field, typ.Offset, typ.Value, typeName(typ.Type.Kind().String())), WithOffset(typ.Offset))
	case errors.Is(err, errThreshold):
		off := keyOffset(body, `"threshold"`, offset)
		return newError(http.StatusBadRequest, "bad_threshold", fmt.Sprintf("field \"threshold\" at offset %d: %v", off, err), WithOffset(off))
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name := strings.TrimPrefix(err.Error(), "json: unknown field ")
		off := keyOffset(body, name, offset)
		return newError(http.StatusBadRequest, "unknown_field", fmt.Sprintf("unknown field %s at offset %d of the JSON body", name, off), WithOffset(off), WithValid(fields))
	}
	return newError(http.StatusBadRequest, "malformed_json", fmt.Sprintf("the JSON body (offset %d): %v", offset, err), WithOffset(offset))
}

// keyOffset returns the offset in body of the object key quoted (a JSON
// string with its quotes), the first occurrence followed by a colon; def
// when there is none (the key was written with escapes).
func keyOffset(body []byte, quoted string, def int64) int64 {
	for from := 0; ; {
		i := bytes.Index(body[from:], []byte(quoted))
		if i < 0 {
			return def
		}
		at := from + i
		rest := bytes.TrimLeft(body[at+len(quoted):], " \t\r\n")
		if len(rest) > 0 && rest[0] == ':' {
			return int64(at)
		}
		from = at + 1
	}
}

// jsonFields are the fields of the JSON body.
var jsonFields = []string{"filter", "filter_set", "format", "html", "include_dropped", "model", "style", "tables", "threshold", "url"}

// typeName names a Go kind as the JSON type it reads.
func typeName(kind string) string {
	switch kind {
	case "string", "ptr":
		return "string"
	case "bool":
		return "boolean"
	case "float64":
		return "number"
	}
	return kind
}
