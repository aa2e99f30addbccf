package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// lockedBuffer collects the server's log from its goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startServe runs sluice serve with args on a free loopback port until the
// test ends, and returns its address, its exit code to come and its log.
func startServe(t *testing.T, args ...string) (url string, code chan int, logs *lockedBuffer) {
	t.Helper()
	// run sets the process's soft memory limit to --memory: put it back.
	lim := debug.SetMemoryLimit(-1)
	logs = &lockedBuffer{}
	c := &serveCmd{cmdIO: cmdIO{nil, io.Discard, logs}}
	args, err := parseInterspersed(c.flagSet(), append([]string{"--listen", "127.0.0.1:0", "--log-format", "json", "--memory", "512M", "--db", filepath.Join(t.TempDir(), "sluice.db")}, args...))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.validate(args); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	code = make(chan int, 1)
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		code <- c.run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-stopped:
		case <-time.After(10 * time.Second):
			t.Error("sluice serve did not stop")
		}
		debug.SetMemoryLimit(lim)
	})
	addr := regexp.MustCompile(`"addr":"(127\.0\.0\.1:\d+)"`)
	for end := time.Now().Add(5 * time.Second); url == "" && time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if m := addr.FindStringSubmatch(logs.String()); m != nil {
			url = "http://" + m[1]
		}
	}
	if url == "" {
		t.Fatalf("the server did not say where it listens:\n%s", logs)
	}
	return url, code, logs
}

// TestServeCommand runs sluice serve on a free loopback port: it cleans a
// page with the defaults of its flags, logs the request as JSON with its
// id, and stops cleanly on SIGTERM.
func TestServeCommand(t *testing.T) {
	url, code, logs := startServe(t, "--format", "markdown", "--log-format", "json")
	page, err := os.ReadFile("../../testdata/example.html")
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("POST", url+"/v1/clean", bytes.NewReader(page))
	req.Header.Set("Content-Type", "text/html")
	req.Header.Set("X-Request-Id", "cmd-test-1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(string(body), "# Restoring a water mill") {
		t.Errorf("status %d, body %q: want the page in Markdown", resp.StatusCode, body)
	}
	// SIGTERM, as a service manager sends it: run's handler has been
	// installed since before it logged its address.
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-code:
		if got != exitOK {
			t.Errorf("exit code %d after shutdown", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("sluice serve did not stop")
	}
	for _, want := range []string{`"request_id":"cmd-test-1"`, `"msg":"shutting down"`, `"msg":"stopped"`} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("the log lacks %s:\n%s", want, logs)
		}
	}
}

// TestServeProxy runs sluice serve --proxy: a page fetched through it comes
// back cleaned under the bar, the API still answers origin-form requests on
// the same address, and the upstream on loopback is refused without
// --allow-private.
func TestServeProxy(t *testing.T) {
	page, err := os.ReadFile("../../testdata/example.html")
	if err != nil {
		t.Fatal(err)
	}
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
	}))
	defer upstream.Close()
	get := func(proxyURL, target string) (int, string) {
		t.Helper()
		pu, _ := url.Parse(proxyURL)
		client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(pu)}}
		resp, err := client.Get(target)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}

	open, _, _ := startServe(t, "--proxy", "--allow-private", "--filter", "lqf>targetnode")
	status, body := get(open, upstream.URL+"/mill.html")
	if status != 200 || !strings.Contains(body, "Restoring a water mill") || !strings.Contains(body, "lqf&gt;targetnode") && !strings.Contains(body, "lqf>targetnode") {
		t.Errorf("through the proxy: status %d, body %.300q: want the cleaned page under a bar naming lqf>targetnode", status, body)
	}
	if strings.Contains(body, "<script") {
		t.Errorf("the cleaned page keeps a script: %.300q", body)
	}
	resp, err := http.Get(open + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("/healthz beside the proxy: status %d", resp.StatusCode)
	}

	strict, _, _ := startServe(t, "--proxy")
	if status, body := get(strict, upstream.URL+"/mill.html"); status != http.StatusForbidden {
		t.Errorf("an upstream on loopback without --allow-private: status %d, body %.200q; want 403", status, body)
	}
}

// TestServeStore runs sluice serve with its store: the --db file is made
// in a new folder, a filter set is created, evaluated on a data set under
// --data-root to a result, and a data set outside it is refused; the
// filter sets outlive the server.
func TestServeStore(t *testing.T) {
	tmp := t.TempDir()
	db := filepath.Join(tmp, "new", "folder", "sluice.db")
	root := filepath.Join(tmp, "data")
	for _, d := range []string{"html", "gold"} {
		os.MkdirAll(filepath.Join(root, "tiny", d), 0o755)
	}
	os.WriteFile(filepath.Join(root, "tiny", "html", "1.html"), []byte(`<html><body><div><a href="/">Home</a> <a href="/b">Blog</a></div>
<h1>Mill wheels</h1><p>The wheel of a water mill turns slowly, and the miller listens to it all day long.</p></body></html>`), 0o644)
	os.WriteFile(filepath.Join(root, "tiny", "gold", "1.txt"), []byte("URL: http://example.org/1\n\n<h>Mill wheels\n\n<p>The wheel of a water mill turns slowly, and the miller listens to it all day long.\n"), 0o644)

	api, _, _ := startServe(t, "--db", db, "--data-root", root)
	post := func(path, contentType, body string) (int, string, http.Header) {
		t.Helper()
		resp, err := http.Post(api+path, contentType, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), resp.Header
	}
	if code, body, _ := post("/v1/filter-sets", "application/toml", "version = 1\nname = \"lqf\"\nfilter = \"lqf>targetnode\"\n"); code != 201 {
		t.Fatalf("create: %d %s", code, body)
	}
	if code, body, _ := post("/v1/filter-sets/lqf/evaluate", "application/json", `{"data": "/etc"}`); code != 403 || !strings.Contains(body, "forbidden_path") {
		t.Errorf("a data set outside --data-root: %d %s", code, body)
	}
	code, body, h := post("/v1/filter-sets/lqf/evaluate", "application/json", `{"data": "tiny"}`)
	if code != 202 {
		t.Fatalf("evaluate: %d %s", code, body)
	}
	for end := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		resp, err := http.Get(api + h.Get("Location"))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if strings.Contains(string(b), `"status":"done"`) {
			if !strings.Contains(string(b), `"metric":"cleaneval"`) || !strings.Contains(string(b), `"f1"`) {
				t.Errorf("job done without a score: %s", b)
			}
			break
		}
		if time.Now().After(end) || !strings.Contains(string(b), `"status":"queued"`) && !strings.Contains(string(b), `"status":"running"`) {
			t.Fatalf("job: %s", b)
		}
	}
	if _, err := os.Stat(db); err != nil {
		t.Errorf("the --db file: %v", err)
	}
}

// TestServeDefaultDB: without --db the store is in $XDG_DATA_HOME/sluice,
// made when missing; --db none serves without one.
func TestServeDefaultDB(t *testing.T) {
	data := t.TempDir()
	t.Setenv("XDG_DATA_HOME", data)
	c := &serveCmd{cmdIO: cmdIO{nil, io.Discard, io.Discard}}
	args, err := parseInterspersed(c.flagSet(), []string{"--memory", "512M"})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.validate(args); err != nil {
		t.Fatal(err)
	}
	c.closeStore()
	if _, err := os.Stat(filepath.Join(data, "sluice", "sluice.db")); err != nil {
		t.Errorf("the default store: %v", err)
	}
	none := &serveCmd{cmdIO: cmdIO{nil, io.Discard, io.Discard}}
	args, _ = parseInterspersed(none.flagSet(), []string{"--memory", "512M", "--db", "none", "--listen", ":0"})
	if err := none.validate(args); err != nil || none.store != nil {
		t.Fatalf("--db none: %v, store %v", err, none.store)
	}
	if err := none.srv.CheckListener(&net.TCPAddr{IP: net.IPv4zero}); err != nil {
		t.Errorf("--db none has no management routes, yet: %v", err)
	}
}
