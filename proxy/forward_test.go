package proxy

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sluice-project/sluice"
)

// TestNothingKeptNoted: a page the cleaner keeps nothing of (the shell of
// a page that a script fills in, ../testdata/shell.html: a noscript
// notice and a footer of links)
// comes back with the bar saying so, not as a blank page that looks
// broken; a page with content has no such note.
func TestNothingKeptNoted(t *testing.T) {
	shell, err := os.ReadFile("../testdata/shell.html")
	if err != nil {
		t.Fatal(err)
	}
	model, err := sluice.New(sluice.Options{}) // the proxy's default, not the tests' heuristic
	if err != nil {
		t.Fatal(err)
	}
	_, pu := startProxy(t, Config{AllowPrivate: true, Cleaner: model})
	for _, tc := range []struct {
		body string
		note bool
	}{{string(shell), true}, {testPage, false}} {
		up := htmlUpstream(t, tc.body)
		resp, body := get(t, proxyClient(pu), up.URL+"/")
		if resp.StatusCode != 200 || !strings.Contains(string(body), "sluice-bar") {
			t.Fatalf("status %d: %s", resp.StatusCode, body)
		}
		if got := strings.Contains(string(body), "nothing kept"); got != tc.note {
			t.Errorf("note %v, want %v:\n%s", got, tc.note, body)
		}
	}
}

func TestCleansHTML(t *testing.T) {
	up := htmlUpstream(t, testPage)
	_, pu := startProxy(t, Config{AllowPrivate: true, FilterSet: "news & blogs", InspectURL: "http://127.0.0.1:8080/inspect?url={url}&set={set}"})
	target := up.URL + "/river?x=1&y=2"
	resp, body := get(t, proxyClient(pu), target)
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	s := string(body)
	for _, want := range []string{
		"<h1>A river runs through the valley</h1>",
		"seven bridges, the oldest",
		`<div id="sluice-bar"`,
		"<strong>news &amp; blogs</strong>",
		`href="http://127.0.0.1:8080/inspect?url=` + strings.ReplaceAll(url.QueryEscape(target), "&", "&amp;") + `&amp;set=news+%26+blogs"`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the cleaned page lacks %q:\n%s", want, s)
		}
	}
	for _, gone := range []string{"tracker", "About us", "Privacy"} {
		if strings.Contains(s, gone) {
			t.Errorf("the cleaned page still has %q:\n%s", gone, s)
		}
	}
	if i, j := strings.Index(s, "<body>"), strings.Index(s, "sluice-bar"); i < 0 || j < i || strings.Contains(s[i:j], "<h1>") {
		t.Errorf("the bar is not at the top of the body:\n%s", s)
	}
	h := resp.Header
	if h.Get("Content-Length") != strconv.Itoa(len(body)) || resp.ContentLength != int64(len(body)) {
		t.Errorf("Content-Length %q for a body of %d bytes", h.Get("Content-Length"), len(body))
	}
	if h.Get("Content-Type") != "text/html; charset=utf-8" || h.Get("Sluice-Filter-Set") != "news & blogs" {
		t.Errorf("headers %v", h)
	}
	if !strings.Contains(h.Get("Via"), "sluice-") || !strings.Contains(h.Get("Content-Security-Policy"), "default-src 'none'") {
		t.Errorf("no Via or CSP in %v", h)
	}
}

// TestCleansGzip: the proxy asks for gzip when the client takes it,
// decodes it to clean, and asks for identity when the client does not.
func TestCleansGzip(t *testing.T) {
	asked := make(chan string, 2)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked <- r.Header.Get("Accept-Encoding")
		w.Header().Set("Content-Type", "text/html")
		if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			io.WriteString(w, testPage)
			return
		}
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("ETag", `"abc"`)
		zw := gzip.NewWriter(w)
		io.WriteString(zw, testPage)
		zw.Close()
	}))
	defer up.Close()
	_, pu := startProxy(t, Config{AllowPrivate: true})
	for _, enc := range []string{"gzip, deflate, br", ""} {
		req, _ := http.NewRequest("GET", up.URL, nil)
		if enc != "" {
			req.Header.Set("Accept-Encoding", enc)
		}
		resp, body := do(t, proxyClient(pu), req)
		got := <-asked
		want := map[string]string{"": "identity"}[enc]
		if want == "" {
			want = "gzip"
		}
		if got != want {
			t.Errorf("client Accept-Encoding %q: upstream asked for %q, want %q", enc, got, want)
		}
		if !bytes.Contains(body, []byte("seven bridges")) || !bytes.Contains(body, []byte("sluice-bar")) {
			t.Errorf("client Accept-Encoding %q: not cleaned: %.300q", enc, body)
		}
		if resp.Header.Get("Content-Encoding") != "" || resp.Header.Get("ETag") != "" {
			t.Errorf("the cleaned page keeps the original's Content-Encoding or ETag: %v", resp.Header)
		}
	}
}

// TestPassThroughStreamed: non-HTML bodies come through byte for byte,
// with their headers, and streamed: the client gets the first part before
// the upstream has written the rest.
func TestPassThroughStreamed(t *testing.T) {
	img := make([]byte, 1<<20)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range img {
		img[i] = byte(rng.Uint32())
	}
	firstSeen := make(chan struct{})
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/img":
			w.Header().Set("Content-Type", "image/png")
			w.Header().Set("ETag", `"img1"`)
			w.Write(img)
		case "/json":
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"html":"<p>not a page</p>"}`)
		case "/stream":
			w.Header().Set("Content-Type", "application/octet-stream")
			io.WriteString(w, "first part;")
			w.(http.Flusher).Flush()
			select {
			case <-firstSeen:
			case <-time.After(10 * time.Second):
			}
			io.WriteString(w, "second part")
		}
	}))
	defer up.Close()
	_, pu := startProxy(t, Config{AllowPrivate: true})
	c := proxyClient(pu)
	resp, body := get(t, c, up.URL+"/img")
	if !bytes.Equal(body, img) || resp.Header.Get("Content-Type") != "image/png" || resp.Header.Get("ETag") != `"img1"` {
		t.Errorf("the image changed on the way: %d bytes (want %d), headers %v", len(body), len(img), resp.Header)
	}
	if _, body = get(t, c, up.URL+"/json"); string(body) != `{"html":"<p>not a page</p>"}` {
		t.Errorf("the JSON changed on the way: %q", body)
	}
	resp, err := c.Get(up.URL + "/stream")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	first := make([]byte, len("first part;"))
	if _, err := io.ReadFull(resp.Body, first); err != nil {
		t.Fatalf("the first part did not come before the rest was written: %v", err)
	}
	close(firstSeen)
	rest, _ := io.ReadAll(resp.Body)
	if string(first)+string(rest) != "first part;second part" {
		t.Errorf("streamed body %q%q", first, rest)
	}
}

// TestNotHTMLOrLyingCharset: a body labelled text/html that is binary
// passes through unchanged; a page whose charset lies comes out cleaned
// as best it can; the proxy stays up.
func TestNotHTMLOrLyingCharset(t *testing.T) {
	binary := append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), bytes.Repeat([]byte{0, 1, 2, 0xff, 0xfe}, 2000)...)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/binary":
			w.Header().Set("Content-Type", "text/html")
			w.Write(binary)
		case "/utf16":
			w.Header().Set("Content-Type", "text/html; charset=utf-16")
			io.WriteString(w, testPage)
		case "/bogus":
			w.Header().Set("Content-Type", "text/html; charset=no-such-charset")
			io.WriteString(w, strings.Replace(testPage, "river", "ri\xe9ver \xff\xfe", -1))
		case "/empty":
			w.Header().Set("Content-Type", "text/html")
		}
	}))
	defer up.Close()
	_, pu := startProxy(t, Config{AllowPrivate: true})
	c := proxyClient(pu)
	resp, body := get(t, c, up.URL+"/binary")
	if resp.StatusCode != 200 || !bytes.Equal(body, binary) || !strings.HasPrefix(resp.Header.Get("Sluice-Proxy"), "not cleaned") {
		t.Errorf("binary labelled text/html: status %d, %d bytes (want %d unchanged), Sluice-Proxy %q", resp.StatusCode, len(body), len(binary), resp.Header.Get("Sluice-Proxy"))
	}
	for _, path := range []string{"/utf16", "/bogus", "/empty"} {
		resp, body := get(t, c, up.URL+path)
		if resp.StatusCode != 200 {
			t.Errorf("%s: status %d: %q", path, resp.StatusCode, body)
		}
		if path != "/empty" && !bytes.Contains(body, []byte("sluice-bar")) && resp.Header.Get("Sluice-Proxy") == "" {
			t.Errorf("%s: neither cleaned nor marked as passed through: %.200q", path, body)
		}
	}
	checkUp(t, pu)
}

// TestLargeHTMLPassesThrough: a page larger than MaxCleanBody, before or
// after gzip decoding, passes through unchanged.
func TestLargeHTMLPassesThrough(t *testing.T) {
	big := strings.Repeat("<p>a paragraph of some length</p>\n", 200) // 6.8 kB
	var zbuf bytes.Buffer
	zw := gzip.NewWriter(&zbuf)
	io.WriteString(zw, big)
	zw.Close()
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/known": // Content-Length known
			io.WriteString(w, big)
		case "/chunked":
			io.WriteString(w, big[:100])
			w.(http.Flusher).Flush()
			io.WriteString(w, big[100:])
		case "/gzip": // small on the wire, large decoded
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(zbuf.Bytes())
		}
	}))
	defer up.Close()
	if zbuf.Len() >= 1000 {
		t.Fatalf("the gzip body has %d bytes: make it compress better", zbuf.Len())
	}
	_, pu := startProxy(t, Config{AllowPrivate: true, Limits: Limits{MaxCleanBody: 1000}})
	req, _ := http.NewRequest("GET", up.URL+"/gzip", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	for _, path := range []string{"/known", "/chunked", "/gzip"} {
		req.URL.Path = path
		resp, body := do(t, proxyClient(pu), req)
		want := big
		if path == "/gzip" {
			want = zbuf.String()
		}
		if string(body) != want || !strings.Contains(resp.Header.Get("Sluice-Proxy"), "larger than") {
			t.Errorf("%s: %d bytes, Sluice-Proxy %q: want the %d bytes unchanged and a note", path, len(body), resp.Header.Get("Sluice-Proxy"), len(want))
		}
	}
}

// TestHopByHop: the hop-by-hop fields of RFC 9110 section 7.6.1, those a
// Connection header lists and the proxy authentication fields are removed
// both ways; end-to-end fields go through; Via is added both ways.
func TestHopByHop(t *testing.T) {
	seen := make(chan http.Header, 1)
	upAddr := rawUpstream(t, func(c net.Conn, br *bufio.Reader) {
		req, err := readRequestHead(br)
		if err != nil {
			return
		}
		seen <- req.Header
		io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n"+
			"Connection: X-Up-Hop\r\nX-Up-Hop: 1\r\nKeep-Alive: timeout=5\r\nProxy-Authenticate: Basic\r\n"+
			"Upgrade: h2c\r\nX-Up-End: kept\r\n\r\nok")
	})
	_, pu := startProxy(t, Config{AllowPrivate: true})
	c, err := net.Dial("tcp", pu.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "GET http://%s/hop HTTP/1.1\r\nHost: %s\r\nConnection: X-Hop, keep-alive\r\nX-Hop: secret\r\n"+
		"Proxy-Connection: keep-alive\r\nKeep-Alive: 300\r\nTE: trailers\r\nUpgrade: websocket\r\n"+
		"Proxy-Authorization: Basic dXNlcjpwYXNz\r\nX-End: kept\r\n\r\n", upAddr, upAddr)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "ok" {
		t.Fatalf("status %d, body %q", resp.StatusCode, body)
	}
	up := <-seen
	for _, k := range []string{"X-Hop", "Proxy-Connection", "Keep-Alive", "Te", "Upgrade", "Proxy-Authorization"} {
		if v := up.Values(k); len(v) > 0 {
			t.Errorf("the upstream got the hop-by-hop field %s: %q", k, v)
		}
	}
	if up.Get("X-End") != "kept" || !strings.HasPrefix(up.Get("Via"), "1.1 sluice-") {
		t.Errorf("the upstream's header %v lacks X-End or Via", up)
	}
	for _, k := range []string{"X-Up-Hop", "Keep-Alive", "Proxy-Authenticate", "Upgrade"} {
		if v := resp.Header.Values(k); len(v) > 0 {
			t.Errorf("the client got the hop-by-hop field %s: %q", k, v)
		}
	}
	if resp.Header.Get("X-Up-End") != "kept" || !strings.HasPrefix(resp.Header.Get("Via"), "1.1 sluice-") {
		t.Errorf("the client's header %v lacks X-Up-End or Via", resp.Header)
	}
}

// TestNotAProxyRequest: origin-form requests are refused, or served by
// the fallback handler when there is one; a request that has been through
// the proxy already is refused as a loop.
func TestNotAProxyRequest(t *testing.T) {
	p, pu := startProxy(t, Config{})
	resp, body := get(t, http.DefaultClient, pu.String()+"/v1/clean")
	wantRefusal(t, "origin-form", resp, body, RuleNotProxy)

	_, pu2 := startProxy(t, Config{Fallback: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "api "+r.URL.Path)
	})})
	if resp, body = get(t, http.DefaultClient, pu2.String()+"/v1/clean"); string(body) != "api /v1/clean" {
		t.Errorf("fallback: status %d, body %q", resp.StatusCode, body)
	}

	req := httptest.NewRequest("GET", "http://example.com/", nil)
	req.RemoteAddr = "127.0.0.1:4000"
	req.Header.Add("Via", "1.1 other, 1.1 "+p.via)
	rec := httptest.NewRecorder()
	p.ServeHTTP(rec, req)
	wantRefusal(t, "loop", rec.Result(), rec.Body.Bytes(), RuleLoop)

	req = httptest.NewRequest("GET", "ftp://example.com/file", nil)
	req.RemoteAddr = "127.0.0.1:4000"
	rec = httptest.NewRecorder()
	p.ServeHTTP(rec, req)
	wantRefusal(t, "ftp", rec.Result(), rec.Body.Bytes(), RuleScheme)
}

// TestClientAllowList: only clients in Config.Clients use the proxy;
// the default is loopback, an IPv4-mapped loopback client included.
func TestClientAllowList(t *testing.T) {
	up := htmlUpstream(t, testPage)
	_, pu := startProxy(t, Config{AllowPrivate: true, Clients: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}})
	resp, body := get(t, proxyClient(pu), up.URL)
	wantRefusal(t, "a loopback client outside the list", resp, body, RuleClient)

	p, _ := startProxy(t, Config{AllowPrivate: true})
	for _, tc := range []struct {
		remote string
		ok     bool
	}{
		{"127.0.0.1:5000", true},
		{"127.8.9.10:5000", true},
		{"[::1]:5000", true},
		{"[::ffff:127.0.0.1]:5000", true},
		{"192.168.1.20:5000", false},
		{"[::ffff:10.0.0.1]:5000", false},
		{"[2001:db8::1]:5000", false},
		{"not an address", false},
	} {
		req := httptest.NewRequest("CONNECT", "http://example.com:80", nil)
		req.Host = "example.com:80" // port 80 is not a CONNECT port: an allowed client gets that refusal
		req.RemoteAddr = tc.remote
		rec := httptest.NewRecorder()
		p.ServeHTTP(rec, req)
		want := RuleClient
		if tc.ok {
			want = RulePort
		}
		wantRefusal(t, tc.remote, rec.Result(), rec.Body.Bytes(), want)
	}
}

// TestAbsoluteHTTPS: a client that sends an https:// URL in absolute form
// (rather than CONNECT) has the proxy fetch it over its own TLS, checked
// against Config.TLS, and clean it.
func TestAbsoluteHTTPS(t *testing.T) {
	ts := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, testPage)
	}))
	ts.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake
	ts.StartTLS()
	defer ts.Close()
	roots := x509.NewCertPool()
	roots.AddCert(ts.Certificate())
	for _, tc := range []struct {
		cfg    *tls.Config
		status int
	}{
		{&tls.Config{RootCAs: roots}, http.StatusOK},
		{nil, http.StatusBadGateway}, // the system's roots do not know the test server
	} {
		_, pu := startProxy(t, Config{AllowPrivate: true, TLS: tc.cfg})
		c, err := net.Dial("tcp", pu.Host)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(c, "GET %s/page HTTP/1.1\r\nHost: %s\r\n\r\n", ts.URL, ts.Listener.Addr())
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		c.Close()
		if resp.StatusCode != tc.status || tc.status == 200 && !bytes.Contains(body, []byte("sluice-bar")) {
			t.Errorf("GET %s in absolute form: status %d (want %d), %.200q", ts.URL, resp.StatusCode, tc.status, body)
		}
	}
}
