package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCleanURL: an address is fetched (on loopback only with
// --allow-private), its charset taken from the HTTP header, its final
// address after a redirect given to the metadata, and its output named
// after host and path; a 404 fails the input.
func TestCleanURL(t *testing.T) {
	page := "<html><head><title>Caf\xe9</title></head><body><h1>Caf\xe9 au lait</h1><p>The caf\xe9 serves coffee with hot milk every morning, as it has done for a hundred years.</p></body></html>"
	var agent string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		agent = r.Header.Get("User-Agent")
		switch r.URL.Path {
		case "/old":
			http.Redirect(w, r, "/news/cafe.html", http.StatusFound)
		case "/news/cafe.html":
			w.Header().Set("Content-Type", "text/html; charset=iso-8859-1")
			w.Write([]byte(page))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	run := func(args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		code := cmdClean(args, strings.NewReader(""), &out, &errOut)
		return code, out.String(), errOut.String()
	}
	code, _, stderr := run(srv.URL + "/old")
	if code != exitFailed || !strings.Contains(stderr, "loopback") || !strings.Contains(stderr, "--allow-private") {
		t.Errorf("loopback without --allow-private: exit %d, %q", code, stderr)
	}
	code, out, stderr := run("--allow-private", "-f", "json", srv.URL+"/old")
	if code != exitOK || !strings.Contains(out, `"url":"`+srv.URL+`/news/cafe.html"`) || !strings.Contains(out, "café serves coffee") {
		t.Errorf("fetched: exit %d, stderr %q, out %.300s", code, stderr, out)
	}
	if !strings.HasPrefix(agent, "sluice") {
		t.Errorf("User-Agent %q", agent)
	}
	dir := t.TempDir()
	if code, _, stderr := run("--allow-private", "-o", dir, srv.URL+"/news/cafe.html"); code != exitOK {
		t.Fatalf("-o: exit %d, %q", code, stderr)
	}
	host := strings.ReplaceAll(strings.TrimPrefix(srv.URL, "http://"), ":", "_")
	if b, err := os.ReadFile(filepath.Join(dir, host, "news", "cafe.txt")); err != nil || !strings.Contains(string(b), "café serves coffee") {
		t.Errorf("-o output: %q, %v", b, err)
	}
	code, _, stderr = run("--allow-private", srv.URL+"/gone")
	if code != exitFailed || !strings.Contains(stderr, "404") {
		t.Errorf("404: exit %d, %q", code, stderr)
	}
}
