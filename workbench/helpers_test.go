package workbench

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/server"
	"github.com/sluice-project/sluice/store"
)

// examplePage is the README's example page.
func examplePage(t testing.TB) []byte {
	t.Helper()
	data, err := os.ReadFile("../testdata/example.html")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// testServer is a server with the workbench for one test: its handler,
// and the same served on a loopback port (for the browser tests).
type testServer struct {
	*server.Server
	handler http.Handler
	url     string
}

// startServer builds a server from cfg (logging nowhere), registers the
// workbench with wcfg and serves them on loopback until the test ends.
func startServer(t testing.TB, cfg server.Config, wcfg Config) *testServer {
	t.Helper()
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	srv, err := server.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := Register(srv, wcfg); err != nil {
		t.Fatal(err)
	}
	h := srv.Handler()
	hs := httptest.NewServer(h)
	t.Cleanup(hs.Close)
	return &testServer{Server: srv, handler: h, url: hs.URL}
}

// answer is a recorded response.
type answer struct {
	status int
	header http.Header
	body   []byte
}

// do serves one request to path from a loopback client, in process.
func (ts *testServer) do(t testing.TB, method, path, contentType string, body []byte) answer {
	t.Helper()
	req := httptest.NewRequest(method, path, bytes.NewReader(body))
	req.RemoteAddr = "127.0.0.1:40000"
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	rec := httptest.NewRecorder()
	ts.handler.ServeHTTP(rec, req)
	return answer{rec.Code, rec.Header(), rec.Body.Bytes()}
}

// apiError decodes an error answer of the API's shape, failing the test
// when its status or code is not the one wanted.
func (a answer) apiError(t testing.TB, status int, code string) server.APIError {
	t.Helper()
	var body server.ErrorBody
	if err := json.Unmarshal(a.body, &body); err != nil {
		t.Fatalf("status %d, error body %s: %v", a.status, a.body, err)
	}
	e := body.Error
	if a.status != status || e.Code != code {
		t.Errorf("status %d, code %q; want %d, %q (message %q)", a.status, e.Code, status, code, e.Message)
	}
	if strings.TrimSpace(e.Message) == "" || e.RequestID != a.header.Get(server.RequestIDHeader) {
		t.Errorf("error %+v: no message, or not the request id of the header", e)
	}
	return e
}

// openStore opens a store in the test's temporary folder.
func openStore(t *testing.T) *store.DB {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "sluice.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
