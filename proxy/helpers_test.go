package proxy

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sluice-project/sluice"
)

// testCleaner is a heuristic cleaner, quicker to build than the model.
var testCleaner = sync.OnceValues(func() (*sluice.Cleaner, error) {
	return sluice.New(sluice.Options{Filter: sluice.DefaultFilter})
})

// loopback is 127.0.0.1/32, the address of the test servers.
var loopback = netip.MustParsePrefix("127.0.0.1/32")

// startProxy serves a Proxy built from cfg (with the test cleaner and a
// quiet logger unless cfg has its own) on loopback and returns it with its
// address.
func startProxy(t *testing.T, cfg Config) (*Proxy, *url.URL) {
	t.Helper()
	if cfg.Cleaner == nil && cfg.Choose == nil {
		c, err := testCleaner()
		if err != nil {
			t.Fatal(err)
		}
		cfg.Cleaner = c
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	p, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(p)
	t.Cleanup(func() {
		p.Close()
		srv.Close()
	})
	u, _ := url.Parse(srv.URL)
	return p, u
}

// proxyClient is a client that sends every request through the proxy at
// pu and does not follow redirects.
func proxyClient(pu *url.URL) *http.Client {
	return &http.Client{
		Transport: &http.Transport{Proxy: http.ProxyURL(pu), DisableCompression: true},
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
		Timeout: 20 * time.Second,
	}
}

// get fetches target through the client c and returns the response with
// its body read.
func get(t *testing.T, c *http.Client, target string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest("GET", target, nil)
	if err != nil {
		t.Fatal(err)
	}
	return do(t, c, req)
}

// do sends req with c and returns the response with its body read.
func do(t *testing.T, c *http.Client, req *http.Request) (*http.Response, []byte) {
	t.Helper()
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the body: %v", req.Method, req.URL, err)
	}
	return resp, body
}

// wantRefusal checks that resp is a 403 naming rule.
func wantRefusal(t *testing.T, what string, resp *http.Response, body []byte, rule Rule) {
	t.Helper()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("%s: status %d, want 403 (body %q)", what, resp.StatusCode, body)
		return
	}
	var e errorBody
	if err := json.Unmarshal(body, &e); err != nil {
		t.Errorf("%s: the body is not JSON: %v: %q", what, err, body)
		return
	}
	if e.Rule != rule || !strings.Contains(e.Error, string(rule)) {
		t.Errorf("%s: refused by rule %q (%q), want %q", what, e.Rule, e.Error, rule)
	}
}

// wantStatus checks resp's status and that the body is the proxy's JSON
// error.
func wantStatus(t *testing.T, what string, resp *http.Response, body []byte, status int) {
	t.Helper()
	if resp.StatusCode != status {
		t.Errorf("%s: status %d, want %d (body %q)", what, resp.StatusCode, status, body)
		return
	}
	var e errorBody
	if err := json.Unmarshal(body, &e); err != nil || e.Error == "" {
		t.Errorf("%s: the body is not the proxy's JSON error: %q", what, body)
	}
}

// mapResolver resolves the names it holds; others are not found.
type mapResolver struct {
	mu      sync.Mutex
	names   map[string][]netip.Addr
	lookups int
}

func (m *mapResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.lookups++
	if a, ok := m.names[host]; ok {
		return a, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

// resolver returns a mapResolver of name=address pairs (several addresses
// separated by commas).
func resolver(pairs ...string) *mapResolver {
	m := &mapResolver{names: map[string][]netip.Addr{}}
	for _, p := range pairs {
		name, addrs, _ := strings.Cut(p, "=")
		for a := range strings.SplitSeq(addrs, ",") {
			m.names[name] = append(m.names[name], netip.MustParseAddr(a))
		}
	}
	return m
}

// rawUpstream is a TCP server on loopback that serves each connection with
// serve: for upstreams that misbehave in ways net/http will not.
func rawUpstream(t *testing.T, serve func(c net.Conn, br *bufio.Reader)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() {
		ln.Close()
		wg.Wait()
	})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer c.Close()
				c.SetDeadline(time.Now().Add(10 * time.Second))
				serve(c, bufio.NewReader(c))
			}()
		}
	}()
	return ln.Addr().String()
}

// readRequestHead reads an HTTP request's header from br and returns it.
func readRequestHead(br *bufio.Reader) (*http.Request, error) {
	return http.ReadRequest(br)
}

// testPage is an HTML page with boilerplate around an article.
const testPage = `<!DOCTYPE html><html><head><title>The river</title>
<script>var tracker = 1;</script><style>p{color:red}</style></head><body>
<nav><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/about">About us</a></li><li><a href="/contact">Contact</a></li></ul></nav>
<div class="article"><h1>A river runs through the valley</h1>
<p>The river starts high in the mountains, where the snow melts every spring and feeds a hundred small streams that join one another on the way down.</p>
<p>By the time it reaches the valley it is wide and slow, and the farmers along its banks have used its water for their fields for more than a thousand years.</p>
<p>In the town the river is crossed by seven bridges, the oldest of which was built of stone in the twelfth century and still carries traffic every day.</p>
</div>
<div class="footer"><a href="/privacy">Privacy</a> | <a href="/terms">Terms</a> | Copyright 2024</div>
</body></html>`

// htmlUpstream serves body as text/html.
func htmlUpstream(t *testing.T, body string) *httptest.Server {
	t.Helper()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, body)
	}))
	t.Cleanup(s.Close)
	return s
}

// checkUp checks that the proxy at pu still cleans a page.
func checkUp(t *testing.T, pu *url.URL) {
	t.Helper()
	up := htmlUpstream(t, testPage)
	resp, body := get(t, proxyClient(pu), up.URL+"/still-up")
	if resp.StatusCode != 200 || !strings.Contains(string(body), "sluice-bar") {
		t.Errorf("the proxy is not up after the test: status %d, body %.200q", resp.StatusCode, body)
	}
}
