package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
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

// syncBuffer is a log destination safe for the server's goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// testServer is a Server serving on a loopback port for one test.
type testServer struct {
	*Server
	url  string
	logs *syncBuffer
	stop context.CancelFunc
	done chan error // Serve's result
}

// startServer builds a Server from cfg (its logger writing to a buffer)
// and serves it on 127.0.0.1:0 until the test ends or shutdown is called.
func startServer(t testing.TB, cfg Config) *testServer {
	t.Helper()
	logs := &syncBuffer{}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewJSONHandler(logs, nil))
	}
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return serveServer(t, srv, logs)
}

// serveServer serves srv (built by New, its logger writing to logs) on
// 127.0.0.1:0 until the test ends or shutdown is called.
func serveServer(t testing.TB, srv *Server, logs *syncBuffer) *testServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ts := &testServer{Server: srv, url: "http://" + ln.Addr().String(), logs: logs, stop: cancel, done: make(chan error, 1)}
	go func() { ts.done <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-ts.done:
		case <-time.After(10 * time.Second):
			t.Error("the server did not stop within 10 s")
		}
	})
	return ts
}

// shutdown stops the server and returns Serve's result.
func (ts *testServer) shutdown(t testing.TB) error {
	t.Helper()
	ts.stop()
	select {
	case err := <-ts.done:
		ts.done <- err // for the cleanup
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not stop within 10 s")
		return nil
	}
}

// answer is a response read whole.
type answer struct {
	status int
	header http.Header
	body   []byte
}

// do sends one request and reads its answer.
func do(t testing.TB, method, url, contentType string, body []byte, header ...string) answer {
	t.Helper()
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return answer{resp.StatusCode, resp.Header, data}
}

// apiError decodes an error answer, failing the test when it is not one
// with the status and code wanted.
func (a answer) apiError(t testing.TB, status int, code string) APIError {
	t.Helper()
	if a.status != status {
		t.Errorf("status %d, want %d (body %s)", a.status, status, a.body)
	}
	if ct := a.header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q, want application/json", ct)
	}
	var body ErrorBody
	dec := json.NewDecoder(bytes.NewReader(a.body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil {
		t.Fatalf("error body %s: %v", a.body, err)
	}
	e := body.Error
	if e.Code != code {
		t.Errorf("code %q, want %q (message %q)", e.Code, code, e.Message)
	}
	if strings.TrimSpace(e.Message) == "" {
		t.Error("error without a message")
	}
	if id := a.header.Get(RequestIDHeader); e.RequestID == "" || e.RequestID != id {
		t.Errorf("error body's request id %q, header's %q", e.RequestID, id)
	}
	return e
}
