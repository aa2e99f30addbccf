package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
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

// TestServeCommand runs sluice serve on a free loopback port: it cleans a
// page with the defaults of its flags, logs the request as JSON with its
// id, and stops cleanly on SIGTERM.
func TestServeCommand(t *testing.T) {
	// run sets the process's soft memory limit to --memory: put it back.
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	logs := &lockedBuffer{}
	c := &serveCmd{cmdIO: cmdIO{nil, io.Discard, logs}}
	args, err := parseInterspersed(c.flagSet(), []string{"--listen", "127.0.0.1:0", "--format", "markdown", "--log-format", "json", "--memory", "512M"})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.validate(args); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	code := make(chan int, 1)
	go func() { code <- c.run(ctx) }()
	addr := regexp.MustCompile(`"addr":"(127\.0\.0\.1:\d+)"`)
	var url string
	for end := time.Now().Add(5 * time.Second); url == "" && time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if m := addr.FindStringSubmatch(logs.String()); m != nil {
			url = "http://" + m[1]
		}
	}
	if url == "" {
		cancel()
		t.Fatalf("the server did not say where it listens:\n%s", logs)
	}
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
