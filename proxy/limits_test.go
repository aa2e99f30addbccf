package proxy

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"
)

// TestRequestBodyLimit: a request body over MaxRequestBody is answered
// 413, whether its length is declared or it comes chunked; a smaller one
// reaches the upstream whole.
func TestRequestBodyLimit(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		fmt.Fprintf(w, "got %d", len(b))
	}))
	defer up.Close()
	_, pu := startProxy(t, Config{AllowPrivate: true, Limits: Limits{MaxRequestBody: 100}})
	c := proxyClient(pu)
	big := strings.Repeat("x", 1000)
	post := func(body io.Reader) (*http.Response, []byte) {
		req, _ := http.NewRequest("POST", up.URL, body)
		return do(t, c, req)
	}
	resp, body := post(strings.NewReader(big))
	wantStatus(t, "a declared body of 1000 bytes", resp, body, http.StatusRequestEntityTooLarge)
	resp, body = post(io.MultiReader(strings.NewReader(big[:10]), strings.NewReader(big[10:])))
	wantStatus(t, "a chunked body of 1000 bytes", resp, body, http.StatusRequestEntityTooLarge)
	if resp, body = post(io.MultiReader(strings.NewReader(big[:50]))); string(body) != "got 50" {
		t.Errorf("a chunked body of 50 bytes: %d %q", resp.StatusCode, body)
	}
}

// TestBadUpstreams: an upstream that never answers, closes early, sends
// garbage or a huge header gets a 502 or 504 with the proxy's JSON body,
// and the proxy stays up after each.
func TestBadUpstreams(t *testing.T) {
	const shortHTML = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 1000\r\n\r\n<p>only this"
	hugeHeader := "HTTP/1.1 200 OK\r\nX-Big: " + strings.Repeat("a", 100_000) + "\r\nContent-Length: 2\r\n\r\nok"
	cases := []struct {
		name   string
		serve  func(c net.Conn, br *bufio.Reader)
		status int
	}{
		{"never answers", func(c net.Conn, br *bufio.Reader) {
			readRequestHead(br)
			io.Copy(io.Discard, br) // until the proxy gives up
		}, http.StatusGatewayTimeout},
		{"closes at once", func(c net.Conn, br *bufio.Reader) {}, http.StatusBadGateway},
		{"closes after the request", func(c net.Conn, br *bufio.Reader) {
			readRequestHead(br)
		}, http.StatusBadGateway},
		{"closes mid-header", func(c net.Conn, br *bufio.Reader) {
			readRequestHead(br)
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: text/ht")
		}, http.StatusBadGateway},
		{"garbage", func(c net.Conn, br *bufio.Reader) {
			readRequestHead(br)
			io.WriteString(c, "\x00\x01\x02 SSH-2.0-OpenSSH\r\n\r\n")
		}, http.StatusBadGateway},
		{"huge header", func(c net.Conn, br *bufio.Reader) {
			readRequestHead(br)
			io.WriteString(c, hugeHeader)
		}, http.StatusBadGateway},
		{"HTML body cut short", func(c net.Conn, br *bufio.Reader) {
			readRequestHead(br)
			io.WriteString(c, shortHTML)
		}, http.StatusBadGateway},
		{"HTML body never finishes", func(c net.Conn, br *bufio.Reader) {
			readRequestHead(br)
			io.WriteString(c, shortHTML)
			io.Copy(io.Discard, br)
		}, http.StatusGatewayTimeout},
	}
	_, pu := startProxy(t, Config{AllowPrivate: true, Limits: Limits{
		MaxResponseHeader: 4096, ResponseHeaderTimeout: 300 * time.Millisecond, Timeout: time.Second,
	}})
	c := proxyClient(pu)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			addr := rawUpstream(t, tc.serve)
			resp, body := get(t, c, "http://"+addr+"/")
			wantStatus(t, tc.name, resp, body, tc.status)
			checkUp(t, pu)
		})
	}
}

// TestBodyCutWhileStreaming: when a streamed body fails midway, the client
// sees the failure (not a short body that looks complete).
func TestBodyCutWhileStreaming(t *testing.T) {
	for _, te := range []string{"Content-Length: 100000", "Transfer-Encoding: chunked"} {
		addr := rawUpstream(t, func(c net.Conn, br *bufio.Reader) {
			readRequestHead(br)
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"+te+"\r\n\r\n")
			if strings.HasPrefix(te, "Transfer") {
				io.WriteString(c, "5\r\nhello\r\n")
			} else {
				io.WriteString(c, "hello")
			}
		})
		_, pu := startProxy(t, Config{AllowPrivate: true})
		resp, err := proxyClient(pu).Get("http://" + addr + "/")
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err == nil {
			t.Errorf("%s: a body cut by the upstream after %q reads as complete", te, body)
		}
		checkUp(t, pu)
	}
}

// TestConnLimit: with every upstream slot busy past ConnWait, a request
// (forwarded or CONNECT) is answered 503; once a slot frees, requests go
// through again.
func TestConnLimit(t *testing.T) {
	release := make(chan struct{})
	entered := make(chan struct{}, 1)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			entered <- struct{}{}
			<-release
		}
		io.WriteString(w, "done")
	}))
	defer up.Close()
	_, pu := startProxy(t, Config{AllowPrivate: true, ConnectPorts: []int{portOf(t, up.Listener.Addr().String())},
		Limits: Limits{MaxConns: 1, ConnWait: 100 * time.Millisecond}})
	c := proxyClient(pu)
	slow := make(chan string, 1)
	go func() {
		resp, err := c.Get(up.URL + "/slow")
		if err != nil {
			slow <- err.Error()
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		slow <- string(b)
	}()
	<-entered
	resp, body := get(t, c, up.URL+"/fast")
	wantStatus(t, "a request with no slot free", resp, body, http.StatusServiceUnavailable)
	_, _, cresp := connect(t, pu, up.Listener.Addr().String())
	body, _ = io.ReadAll(cresp.Body)
	wantStatus(t, "a CONNECT with no slot free", cresp, body, http.StatusServiceUnavailable)
	close(release)
	if got := <-slow; got != "done" {
		t.Errorf("the slow request: %q", got)
	}
	if resp, body = get(t, c, up.URL+"/fast"); string(body) != "done" {
		t.Errorf("after the slot freed: %d %q", resp.StatusCode, body)
	}
}

// TestIPv6Upstream: an upstream on [::1] is reached with AllowPrivate and
// refused without it.
func TestIPv6Upstream(t *testing.T) {
	ln, err := net.Listen("tcp6", "[::1]:0")
	if err != nil {
		t.Skipf("no IPv6 loopback: %v", err)
	}
	up := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, testPage)
	}))
	up.Listener.Close()
	up.Listener = ln
	up.Start()
	defer up.Close()
	_, pu := startProxy(t, Config{AllowPrivate: true})
	resp, body := get(t, proxyClient(pu), up.URL)
	if resp.StatusCode != 200 || !strings.Contains(string(body), "sluice-bar") {
		t.Errorf("[::1] with AllowPrivate: %d %.200q", resp.StatusCode, body)
	}
	_, pu = startProxy(t, Config{Allow: []netip.Prefix{loopback}})
	resp, body = get(t, proxyClient(pu), up.URL)
	wantRefusal(t, "[::1] without AllowPrivate", resp, body, RuleLoopback)
}
