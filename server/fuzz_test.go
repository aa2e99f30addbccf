package server

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sluice-project/sluice/label"
)

// FuzzDecodeRequest decodes arbitrary POST /v1/clean requests (Content-Type,
// query string, body): it never panics; a failure is a 4xx with a code, a
// message and, for JSON, an offset inside the body; a success has a page
// and a threshold in range, and a JSON body's html is what was sent.
//
//	go test ./server -run '^$' -fuzz FuzzDecodeRequest -fuzztime 2m
func FuzzDecodeRequest(f *testing.F) {
	seeds := []struct{ ctype, query, body string }{
		{"text/html", "format=json&threshold=0.4", "<html><p>text</p></html>"},
		{"text/html; charset=windows-1252", "url=http%3A%2F%2Fa.example%2F", "<p>caf\xe9</p>"},
		{"", "", "<p>x</p>"},
		{"application/json", "", `{"html": "<p>x</p>", "format": "markdown", "threshold": "ef", "include_dropped": true}`},
		{"application/json", "format=text", `{"html": "<p>\u00e9</p>", "filter": "vote(dsc,bte,accb:2;2)", "style": "cleaneval", "threshold": 0.25}`},
		{"application/json; charset=utf-8", "", `{"html": "x" "format": 1}`},
		{"application/json", "", `{"html": "x", "colour": "red"}`},
		{"application/json", "", `{"html": 42}`},
		{"application/json", "", `{"html": "x"} {}`},
		{"application/json", "", `{"html": "x", "threshold": 1e400}`},
		{"application/json", "", `{"ht\u006dl": "x"}`},
		{"application/json; charset=latin1", "", `{"html": "x"}`},
		{"image/png", "", "\x89PNG"},
		{"text/html", "threshold=NaN", "<p>x</p>"},
		{"text/html", "a=1&a=2", "<p>x</p>"},
		{"text/html", "include_dropped=maybe", "<p>x</p>"},
		{"text/html", "%zz", "<p>x</p>"},
		{"text/html;;", "", "<p>x</p>"},
	}
	for _, s := range seeds {
		f.Add(s.ctype, s.query, []byte(s.body))
	}
	f.Fuzz(func(t *testing.T, ctype, query string, body []byte) {
		req, e := decodeRequest(ctype, query, body)
		if e != nil {
			if e.status < 400 || e.status > 499 || e.Code == "" || e.Message == "" || req != nil {
				t.Fatalf("bad failure: status %d, code %q, message %q, request %v", e.status, e.Code, e.Message, req)
			}
			if e.Offset != nil && (*e.Offset < 0 || *e.Offset > int64(len(body))) {
				t.Fatalf("offset %d outside the %d-byte body", *e.Offset, len(body))
			}
			if !utf8.ValidString(e.Message) && utf8.Valid(body) && utf8.ValidString(query) && utf8.ValidString(ctype) {
				t.Fatalf("message not UTF-8 from UTF-8 input: %q", e.Message)
			}
			return
		}
		if len(bytes.TrimSpace(req.HTML)) == 0 {
			t.Fatal("success without a page")
		}
		if req.Threshold != label.ExpectedF1 && !(req.Threshold >= 0 && req.Threshold <= 1) {
			t.Fatalf("threshold %g out of range", req.Threshold)
		}
		isJSON := strings.HasPrefix(strings.ToLower(strings.TrimSpace(ctype)), "application/json")
		if !isJSON && !bytes.Equal(req.HTML, body) {
			t.Fatal("a raw body's page differs from the body")
		}
		if isJSON {
			var m map[string]any
			if err := json.Unmarshal(body, &m); err != nil {
				t.Fatalf("accepted a body encoding/json refuses: %v", err)
			}
			if m["html"] != string(req.HTML) || req.ContentType != "text/html; charset=utf-8" {
				t.Fatalf("a JSON body's page %q (%s), want %q", req.HTML, req.ContentType, m["html"])
			}
		}
	})
}
