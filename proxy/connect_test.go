package proxy

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strconv"
	"testing"
	"time"
)

// portOf returns the port of a "host:port" address.
func portOf(t *testing.T, hostport string) int {
	t.Helper()
	_, p, err := net.SplitHostPort(hostport)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := strconv.Atoi(p)
	return n
}

// connect opens a CONNECT tunnel to target through the proxy at pu and
// returns the connection and the proxy's answer.
func connect(t *testing.T, pu *url.URL, target string) (net.Conn, *bufio.Reader, *http.Response) {
	t.Helper()
	c, err := net.Dial("tcp", pu.Host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", target, target)
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, &http.Request{Method: "CONNECT"})
	if err != nil {
		t.Fatalf("CONNECT %s: %v", target, err)
	}
	return c, br, resp
}

// TestConnectTLS: an HTTPS page fetched through a CONNECT tunnel arrives
// exactly as the TLS server sent it: the proxy neither cleans nor sees it.
func TestConnectTLS(t *testing.T) {
	ts := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, testPage)
	}))
	defer ts.Close()
	_, pu := startProxy(t, Config{Allow: []netip.Prefix{loopback}, ConnectPorts: []int{portOf(t, ts.Listener.Addr().String())}})
	tr := ts.Client().Transport.(*http.Transport).Clone()
	tr.Proxy = http.ProxyURL(pu)
	c := &http.Client{Transport: tr, Timeout: 10 * time.Second}
	for range 3 {
		resp, body := get(t, c, ts.URL+"/page")
		if resp.StatusCode != 200 || string(body) != testPage || resp.Header.Get("Via") != "" {
			t.Errorf("through the tunnel: status %d, Via %q, %d bytes, want the page's %d bytes untouched", resp.StatusCode, resp.Header.Get("Via"), len(body), len(testPage))
		}
	}
	tr.CloseIdleConnections()
}

// echoServer echoes each connection back until it closes.
func echoServer(t *testing.T) string {
	t.Helper()
	return rawUpstream(t, func(c net.Conn, br *bufio.Reader) {
		io.Copy(c, br)
	})
}

// TestConnectBytesUntouched: arbitrary bytes, sent right behind the
// CONNECT request (before its answer) and after it, come back unchanged;
// a half-close reaches the other side.
func TestConnectBytesUntouched(t *testing.T) {
	addr := echoServer(t)
	_, pu := startProxy(t, Config{Allow: []netip.Prefix{loopback}, ConnectPorts: []int{portOf(t, addr)}})
	data := make([]byte, 300_000)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	c, err := net.Dial("tcp", pu.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	// The first bytes travel in the same write as the request.
	fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n%s", addr, addr, data[:100])
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, &http.Request{Method: "CONNECT"})
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("CONNECT: %v, %v", resp, err)
	}
	go func() {
		c.Write(data[100:])
		c.(*net.TCPConn).CloseWrite()
	}()
	got, err := io.ReadAll(br)
	if err != nil {
		t.Fatalf("reading the echo: %v", err)
	}
	if !bytes.Equal(got, data) {
		t.Errorf("the tunnel changed the bytes: got %d, sent %d", len(got), len(data))
	}
}

// TestConnectRefusals: a CONNECT to a port not allowed or to a forbidden
// address is refused with 403; one to a port nobody listens on is 502.
func TestConnectRefusals(t *testing.T) {
	addr := echoServer(t)
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	closed := ln.Addr().String()
	ln.Close()
	_, pu := startProxy(t, Config{ConnectPorts: []int{portOf(t, addr), portOf(t, closed)}})
	_, _, resp := connect(t, pu, addr)
	body, _ := io.ReadAll(resp.Body)
	wantRefusal(t, "CONNECT to loopback", resp, body, RuleLoopback)

	_, pu = startProxy(t, Config{Allow: []netip.Prefix{loopback}, ConnectPorts: []int{portOf(t, addr), portOf(t, closed)}})
	_, _, resp = connect(t, pu, "127.0.0.1:25")
	body, _ = io.ReadAll(resp.Body)
	wantRefusal(t, "CONNECT to port 25", resp, body, RulePort)
	_, _, resp = connect(t, pu, closed)
	body, _ = io.ReadAll(resp.Body)
	wantStatus(t, "CONNECT to a closed port", resp, body, http.StatusBadGateway)
}

// TestConnectIdle: a tunnel with no traffic either way is closed after
// TunnelIdleTimeout, while one kept busy in one direction only stays
// open; Close ends the tunnels left.
func TestConnectIdle(t *testing.T) {
	addr := echoServer(t)
	idle := time.Second
	// ticker writes to the client every idle/5 and never reads.
	ticker := rawUpstream(t, func(c net.Conn, _ *bufio.Reader) {
		for i := range 8 {
			fmt.Fprintf(c, "tick%d", i)
			time.Sleep(idle / 5)
		}
		io.Copy(io.Discard, c) // until the proxy closes the idle tunnel
	})
	_, pu := startProxy(t, Config{Allow: []netip.Prefix{loopback}, ConnectPorts: []int{portOf(t, addr), portOf(t, ticker)}, Limits: Limits{TunnelIdleTimeout: idle}})
	c, br, resp := connect(t, pu, addr)
	if resp.StatusCode != 200 {
		t.Fatalf("CONNECT: status %d", resp.StatusCode)
	}
	start := time.Now()
	if n, err := br.Read(make([]byte, 1)); err == nil {
		t.Fatalf("read %d bytes from an idle tunnel", n)
	}
	// The proxy's idle clock starts when it opens the tunnel, a little
	// before the client has read the 200 and taken start: allow a tenth.
	if d := time.Since(start); d < idle*9/10 || d > 20*idle {
		t.Errorf("the idle tunnel closed after %v, want about %v", d, idle)
	}
	c.Close()

	c, br, _ = connect(t, pu, ticker)
	for i := range 8 { // 8 × idle/5: longer than idle, but never quiet for idle
		buf := make([]byte, 5)
		if _, err := io.ReadFull(br, buf); err != nil {
			t.Fatalf("a tunnel busy one way closed after %d ticks: %v", i, err)
		}
	}

	// Without an idle timeout, only Close ends a quiet tunnel.
	p, pu := startProxy(t, Config{Allow: []netip.Prefix{loopback}, ConnectPorts: []int{portOf(t, addr)}, Limits: Limits{TunnelIdleTimeout: -1}})
	_, br, _ = connect(t, pu, addr)
	closed := make(chan error, 1)
	go func() {
		_, err := br.Read(make([]byte, 1))
		closed <- err
	}()
	select {
	case err := <-closed:
		t.Fatalf("a tunnel without idle timeout closed by itself: %v", err)
	case <-time.After(idle + idle/2):
	}
	p.Close()
	if err := <-closed; err == nil {
		t.Error("the tunnel is still open after Close")
	}
}
