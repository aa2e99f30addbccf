package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/render"
)

// TestCleanFormats cleans the example page in every format, sent raw and
// as JSON: the answers are what sluice clean writes, with the format's
// Content-Type.
func TestCleanFormats(t *testing.T) {
	ts := startServer(t, Config{})
	html := examplePage(t)
	cl, err := sluice.New(sluice.Options{})
	if err != nil {
		t.Fatal(err)
	}
	types := map[string]string{"text": "text/plain; charset=utf-8", "cleaneval": "text/plain; charset=utf-8",
		"markdown": "text/markdown; charset=utf-8", "json": "application/json", "html": "text/html; charset=utf-8", "parser": "text/plain; charset=utf-8",
		"xml": "application/xml", "tei": "application/tei+xml"}
	for _, format := range render.Formats() {
		t.Run(format, func(t *testing.T) {
			raw := do(t, "POST", ts.url+"/v1/clean?format="+format, "text/html", html)
			if raw.status != http.StatusOK {
				t.Fatalf("status %d: %s", raw.status, raw.body)
			}
			if got := raw.header.Get("Content-Type"); got != types[format] {
				t.Errorf("Content-Type %q, want %q", got, types[format])
			}
			if got := raw.header.Get("Sluice-Filter"); got != "model" {
				t.Errorf("Sluice-Filter %q, want model", got)
			}
			want := renderLocal(t, cl, html, format)
			if !bytes.Equal(raw.body, want) {
				t.Errorf("raw body: answer differs from sluice.Clean + render:\n%s\nwant\n%s", raw.body, want)
			}
			body, _ := json.Marshal(map[string]string{"html": string(html), "format": format})
			js := do(t, "POST", ts.url+"/v1/clean", "application/json", body)
			if js.status != http.StatusOK || !bytes.Equal(js.body, want) {
				t.Errorf("JSON body: status %d, answer differs from the raw one:\n%s", js.status, js.body)
			}
		})
	}
}

// renderLocal is what the server should answer: the page cleaned in
// process and rendered.
func renderLocal(t *testing.T, cl *sluice.Cleaner, html []byte, format string) []byte {
	t.Helper()
	res, err := cl.Clean(t.Context(), sluice.Input{Data: html, ContentType: "text/html"})
	if err != nil {
		t.Fatal(err)
	}
	r, err := render.Lookup(format, render.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := r.Render(&buf, res.Page); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestCleanJSONDocument checks the json format's per-block labels, scores
// and source spans, the options of a JSON body and include_dropped.
func TestCleanJSONDocument(t *testing.T) {
	ts := startServer(t, Config{})
	html := examplePage(t)
	body, _ := json.Marshal(map[string]any{"html": string(html), "format": "json", "url": "http://example.com/mill",
		"threshold": 0.5, "include_dropped": true})
	a := do(t, "POST", ts.url+"/v1/clean", "application/json", body)
	if a.status != http.StatusOK {
		t.Fatalf("status %d: %s", a.status, a.body)
	}
	var doc render.JSONDocument
	if err := json.Unmarshal(a.body, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.URL != "http://example.com/mill" || doc.Host != "example.com" {
		t.Errorf("url %q host %q", doc.URL, doc.Host)
	}
	var kept, dropped int
	for _, b := range doc.Blocks {
		if b.End <= b.Start || b.End > len(html) {
			t.Errorf("block %d: span %d-%d outside the %d-byte input", b.Index, b.Start, b.End, len(html))
		} else if src := string(html[b.Start:b.End]); !slices.ContainsFunc(strings.Fields(b.Text), func(w string) bool { return len(w) > 3 && strings.Contains(src, w) }) {
			t.Errorf("block %d: span %q does not hold its text %q", b.Index, src, b.Text)
		}
		if b.Label == page.Other.String() {
			dropped++
			continue
		}
		kept++
		if b.Score < 0.5 {
			t.Errorf("block %d kept with score %g under the threshold 0.5", b.Index, b.Score)
		}
	}
	if kept == 0 || dropped == 0 {
		t.Errorf("include_dropped: %d kept and %d dropped blocks; want both", kept, dropped)
	}
	// A filter pipeline, asked for by the query of a raw body.
	a = do(t, "POST", ts.url+"/v1/clean?filter=bte&format=text", "text/html; charset=utf-8", html)
	if a.status != http.StatusOK || a.header.Get("Sluice-Filter") != "bte" || !bytes.Contains(a.body, []byte("water mill")) {
		t.Errorf("filter=bte: status %d, filter %q, body %q", a.status, a.header.Get("Sluice-Filter"), a.body)
	}
}

// TestCleanErrors sends every kind of bad request and checks the status,
// the error code and what the message or the error's fields name.
func TestCleanErrors(t *testing.T) {
	ts := startServer(t, Config{MaxBodyBytes: 4096})
	page := `<html><body><h1>Title</h1><p>Some text of the page that is long enough to keep.</p></body></html>`
	js := func(s string) []byte { return []byte(s) }
	cases := []struct {
		name, method, path, ctype string
		body                      []byte
		status                    int
		code                      string
		mention                   string // in the message
		valid                     string // in Valid
		offset                    int64  // -1: none wanted
	}{
		{"malformed JSON", "POST", "/v1/clean", "application/json", js(`{"html": "x" "format": "text"}`), 400, "malformed_json", "offset 13", "", 13},
		{"truncated JSON", "POST", "/v1/clean", "application/json", js(`{"html": "x",`), 400, "malformed_json", "ends early", "", 13},
		{"unknown field", "POST", "/v1/clean", "application/json", js(`{"html": "x", "colour": "red"}`), 400, "unknown_field", `"colour"`, "html", 14},
		{"wrong type", "POST", "/v1/clean", "application/json", js(`{"html": 42}`), 400, "bad_field", `"html"`, "", 11},
		{"no html", "POST", "/v1/clean", "application/json", js(`{"format": "text"}`), 400, "missing_field", `"html"`, "", -1},
		{"two values", "POST", "/v1/clean", "application/json", js(`{"html": "x"} {}`), 400, "malformed_json", "more than one", "", 14},
		{"empty raw body", "POST", "/v1/clean", "text/html", nil, 400, "empty_input", "empty", "", -1},
		{"body over the limit", "POST", "/v1/clean", "text/html", bytes.Repeat([]byte("<p>word</p>"), 1000), 413, "body_too_large", "4096", "", -1},
		{"unknown format", "POST", "/v1/clean?format=pdf", "text/html", js(page), 400, "unknown_format", `"pdf"`, "markdown", -1},
		{"bad filter", "POST", "/v1/clean", "application/json", js(`{"html": "x", "filter": "bte>nosuch"}`), 400, "bad_filter", `"nosuch"`, "lqf", -1},
		{"unknown style", "POST", "/v1/clean?style=poetry", "text/html", js(page), 400, "unknown_style", `"poetry"`, "cleaneval", -1},
		{"style with a filter", "POST", "/v1/clean?style=main&filter=bte", "text/html", js(page), 400, "bad_style", "trained model", "", -1},
		{"ef with a filter", "POST", "/v1/clean?threshold=ef&filter=bte", "text/html", js(page), 400, "bad_threshold", "probabilities", "", -1},
		{"threshold out of range", "POST", "/v1/clean?threshold=1.5", "text/html", js(page), 400, "bad_threshold", "between 0 and 1", "", -1},
		{"threshold not a number", "POST", "/v1/clean", "application/json", js(`{"html": "x", "threshold": "high"}`), 400, "bad_threshold", "between 0 and 1", "", 14},
		{"unknown parameter", "POST", "/v1/clean?fromat=json", "text/html", js(page), 400, "unknown_parameter", `"fromat"`, "format", -1},
		{"media type", "POST", "/v1/clean", "image/png", js(page), 415, "unsupported_media_type", "image/png", "text/html", -1},
		{"binary page", "POST", "/v1/clean", "application/octet-stream", js("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00"), 422, "not_html", "binary", "", -1},
		{"wrong method", "GET", "/v1/clean", "", nil, 405, "method_not_allowed", "GET", "POST", -1},
		{"unknown route", "GET", "/v2/clean", "", nil, 404, "not_found", "/v2/clean", "", -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := do(t, c.method, ts.url+c.path, c.ctype, c.body)
			e := a.apiError(t, c.status, c.code)
			if !strings.Contains(e.Message, c.mention) {
				t.Errorf("message %q does not mention %q", e.Message, c.mention)
			}
			if c.valid != "" && !slices.Contains(e.Valid, c.valid) {
				t.Errorf("valid %q lacks %q", e.Valid, c.valid)
			}
			switch {
			case c.offset < 0 && e.Offset != nil:
				t.Errorf("offset %d, want none", *e.Offset)
			case c.offset >= 0 && e.Offset == nil:
				t.Errorf("no offset, want %d", c.offset)
			case c.offset >= 0 && *e.Offset != c.offset:
				t.Errorf("offset %d, want %d", *e.Offset, c.offset)
			}
			if c.status == 405 && a.header.Get("Allow") != "POST" {
				t.Errorf("Allow %q, want POST", a.header.Get("Allow"))
			}
		})
	}
	// The server is still up and cleans.
	if a := do(t, "POST", ts.url+"/v1/clean", "text/html", js(page)); a.status != 200 || !strings.Contains(string(a.body), "Some text") {
		t.Errorf("after the errors: status %d, body %q", a.status, a.body)
	}
}

// TestBodyLimitChunked: a body without a Content-Length (chunked) is cut
// at the limit by http.MaxBytesReader and answered 413; one under it is
// cleaned.
func TestBodyLimitChunked(t *testing.T) {
	ts := startServer(t, Config{MaxBodyBytes: 4096})
	for _, c := range []struct {
		size   int
		status int
	}{{4000, 200}, {5000, 413}} {
		body := io.MultiReader(strings.NewReader("<p>"+strings.Repeat("word ", (c.size-7)/5)), strings.NewReader("</p>"))
		req, _ := http.NewRequest("POST", ts.url+"/v1/clean", body) // no length: chunked
		req.Header.Set("Content-Type", "text/html")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if req.ContentLength != 0 || resp.StatusCode != c.status {
			t.Errorf("%d bytes chunked: status %d, want %d (%s)", c.size, resp.StatusCode, c.status, data)
		}
		if c.status == 413 {
			answer{resp.StatusCode, resp.Header, data}.apiError(t, 413, "body_too_large")
		}
	}
}

// TestCleanTables: the tables option says how data tables are written, in
// the query or the JSON body; an unknown mode is answered 400 bad_tables.
func TestCleanTables(t *testing.T) {
	ts := startServer(t, Config{})
	page := []byte(`<html><body><h1>Handhelds compared</h1>
<p>The two handhelds differ less than their makers say, as the measures below show for anyone who cares to look.</p>
<table><tr><th></th><th>DS Lite</th><th>PSP</th></tr><tr><th>Length</th><td>133.0mm</td><td>170.0mm</td></tr>
<tr><th>Weight</th><td>218g</td><td>260g</td></tr></table>
<p>Both fit in a coat pocket, and both last a long train journey on one charge of their batteries.</p></body></html>`)
	clause := "DS Lite ; Length: 133.0mm / PSP ; Length: 170.0mm."
	for _, tc := range []struct {
		query string
		json  map[string]any
		want  bool
	}{
		{query: "?format=parser&threshold=0.001", want: true},
		{query: "?format=parser&threshold=0.001&tables=blocks", want: false},
		{query: "?format=text&threshold=0.001&tables=linear", want: true},
		{json: map[string]any{"format": "text", "threshold": 0.001, "tables": "linear"}, want: true},
	} {
		var a answer
		if tc.json != nil {
			tc.json["html"] = string(page)
			body, _ := json.Marshal(tc.json)
			a = do(t, "POST", ts.url+"/v1/clean", "application/json", body)
		} else {
			a = do(t, "POST", ts.url+"/v1/clean"+tc.query, "text/html; charset=utf-8", page)
		}
		if a.status != http.StatusOK {
			t.Fatalf("%s%v: status %d: %s", tc.query, tc.json, a.status, a.body)
		}
		if got := strings.Contains(string(a.body), clause); got != tc.want {
			t.Errorf("%s%v: clause written %v, want %v:\n%s", tc.query, tc.json, got, tc.want, a.body)
		}
	}
	a := do(t, "POST", ts.url+"/v1/clean?tables=rows", "text/html", page)
	if e := a.apiError(t, http.StatusBadRequest, "bad_tables"); !slices.Contains(e.Valid, "linear") {
		t.Errorf("bad_tables error lists %q", e.Valid)
	}
}
