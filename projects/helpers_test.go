package projects

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/server"
	"github.com/sluice-project/sluice/store"
)

// testPages are pages with the labels a person gave their blocks.
var testPages = []struct {
	url, html string
	labels    []page.Label
}{
	{"http://river.example/1", `<ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li></ul>
<h1>Rivers of the north</h1><p>The rivers of the north <a href="/cold">run cold</a><br>and fast in spring.</p>
<ul><li>Salmon</li><li>Trout</li></ul><p>&copy; 2026 River News</p>`,
		[]page.Label{page.Other, page.Other, page.Heading, page.Paragraph, page.Continuation, page.ListItem, page.ListItem, page.Other}},
	{"http://river.example/2", `<div>Menu</div><h2>Lakes</h2><p>The lakes are deep and still.</p><p>Share this</p>`,
		[]page.Label{page.Other, page.Heading, page.Paragraph, page.Other}},
	{"http://www.mill.example:8080/a", `<h1>Mills</h1><p>The mill wheel turns again after sixty years.</p><div>Advertisement</div>`,
		[]page.Label{page.Heading, page.Paragraph, page.Other}},
}

// letters are the labels as Victor's letters, for requests.
func letters(ls []page.Label) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = string("ohplc"[l])
	}
	return out
}

// testServer is a server with the service's routes on loopback.
type testServer struct {
	url   string
	svc   *Service
	db    *store.DB
	token string
	stop  context.CancelFunc
	done  chan error
}

// startServer serves a new store's projects on 127.0.0.1:0 until the
// test ends. The model is the embedded one.
func startServer(t *testing.T, token string) *testServer {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "sluice.db"))
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc, err := New(Config{Store: db, Logger: log, TrainWorkers: 1})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(server.Config{Store: db, Token: token, Logger: log, Routes: svc.Routes()})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ts := &testServer{url: "http://" + ln.Addr().String(), svc: svc, db: db, token: token, stop: cancel, done: make(chan error, 1)}
	go func() { ts.done <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() {
		ts.shutdown(t, time.Second)
		db.Close()
	})
	return ts
}

// shutdown stops the server and the training runs, the running one given
// grace to finish.
func (ts *testServer) shutdown(t *testing.T, grace time.Duration) {
	if ts.stop == nil {
		return
	}
	ts.stop()
	ts.stop = nil
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	ts.svc.Shutdown(ctx)
	if err := <-ts.done; err != nil {
		t.Errorf("Serve: %v", err)
	}
}

// answer is an HTTP answer read whole.
type answer struct {
	status int
	header http.Header
	body   []byte
}

// json decodes the body into v.
func (a answer) json(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(a.body, v); err != nil {
		t.Fatalf("%d %s: %v", a.status, a.body, err)
	}
}

// code is the error code of an error answer.
func (a answer) code(t *testing.T) string {
	t.Helper()
	var e server.ErrorBody
	a.json(t, &e)
	return e.Error.Code
}

// do sends a request with the token; body is JSON-encoded unless it is a
// string or []byte.
func (ts *testServer) do(t *testing.T, method, path, contentType string, body any) answer {
	t.Helper()
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		r = strings.NewReader(b)
	case []byte:
		r = bytes.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		r = bytes.NewReader(data)
		if contentType == "" {
			contentType = "application/json"
		}
	}
	req, err := http.NewRequest(method, ts.url+path, r)
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if ts.token != "" {
		req.Header.Set("Authorization", "Bearer "+ts.token)
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

// want fails the test unless a has the status.
func (a answer) want(t *testing.T, status int) answer {
	t.Helper()
	if a.status != status {
		t.Fatalf("status %d, want %d: %s", a.status, status, a.body)
	}
	return a
}

// newProject creates a project with the test pages, and returns its id
// and its pages' ids.
func (ts *testServer) newProject(t *testing.T, name string) (int64, []int64) {
	t.Helper()
	var p projectJSON
	ts.do(t, "POST", "/v1/projects", "", map[string]string{"name": name, "description": "test pages"}).want(t, 201).json(t, &p)
	var ids []int64
	for i, tp := range testPages {
		var a answer
		if i%2 == 0 {
			a = ts.do(t, "POST", pathf("/v1/projects/%d/pages?url=%s", p.ID, tp.url), "text/html; charset=utf-8", tp.html)
		} else {
			a = ts.do(t, "POST", pathf("/v1/projects/%d/pages", p.ID), "", map[string]string{"url": tp.url, "html": tp.html})
		}
		var pg pageJSON
		a.want(t, 201).json(t, &pg)
		if pg.Blocks != len(tp.labels) {
			t.Fatalf("page %d: %d blocks, the test has %d labels", i, pg.Blocks, len(tp.labels))
		}
		ids = append(ids, pg.ID)
	}
	return p.ID, ids
}

// labelAll labels the test pages ids[i] for each i of which (every one
// when none is given) as the test says.
func (ts *testServer) labelAll(t *testing.T, project int64, ids []int64, which ...int) {
	t.Helper()
	if len(which) == 0 {
		for i := range ids {
			which = append(which, i)
		}
	}
	for _, i := range which {
		ts.do(t, "PUT", pathf("/v1/projects/%d/pages/%d/labels", project, ids[i]), "", map[string]any{"labels": letters(testPages[i].labels), "author": "ann"}).want(t, 200)
	}
}

// pathf formats a path.
func pathf(format string, a ...any) string { return fmt.Sprintf(format, a...) }

// itoa formats an id.
func itoa(id int64) string { return fmt.Sprint(id) }
