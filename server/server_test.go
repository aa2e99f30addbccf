package server

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/parallel"
)

// TestRequestID: a sane client id is echoed in the header, the error body
// and the log; a missing or insane one is replaced by a new one.
func TestRequestID(t *testing.T) {
	ts := startServer(t, Config{})
	a := do(t, "GET", ts.url+"/nowhere", "", nil, RequestIDHeader, "client-id-42")
	if e := a.apiError(t, 404, "not_found"); e.RequestID != "client-id-42" {
		t.Errorf("request id %q, want the client's", e.RequestID)
	}
	if !strings.Contains(ts.logs.String(), `"request_id":"client-id-42"`) {
		t.Errorf("the log has no line with the request id:\n%s", ts.logs)
	}
	ids := map[string]bool{}
	for _, given := range []string{"", "bad id with spaces", strings.Repeat("x", 129)} {
		a := do(t, "GET", ts.url+"/healthz", "", nil, RequestIDHeader, given)
		id := a.header.Get(RequestIDHeader)
		if id == "" || id == given || ids[id] {
			t.Errorf("id given %q: answered %q, want a new one", given, id)
		}
		ids[id] = true
	}
}

// TestHealthAndOpenAPI: /healthz answers JSON (HEAD without a body), and
// the OpenAPI file is JSON documenting every route.
func TestHealthAndOpenAPI(t *testing.T) {
	ts := startServer(t, Config{Store: testStore(t)}) // with the store's routes
	a := do(t, "GET", ts.url+"/healthz", "", nil)
	var h map[string]any
	if err := json.Unmarshal(a.body, &h); err != nil || a.status != 200 || h["status"] != "ok" || h["memory_budget"] != float64(DefaultMemory) {
		t.Errorf("healthz: status %d, %s (%v)", a.status, a.body, err)
	}
	if a := do(t, "HEAD", ts.url+"/healthz", "", nil); a.status != 200 || len(a.body) != 0 {
		t.Errorf("HEAD healthz: status %d, %d bytes of body", a.status, len(a.body))
	}
	a = do(t, "GET", ts.url+"/v1/openapi.json", "", nil)
	var doc struct {
		OpenAPI string                                `json:"openapi"`
		Paths   map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(a.body, &doc); err != nil || !strings.HasPrefix(doc.OpenAPI, "3.") {
		t.Fatalf("openapi.json: %v, version %q", err, doc.OpenAPI)
	}
	for _, name := range ts.routeNames() {
		method, path, _ := strings.Cut(name, " ")
		path = strings.NewReplacer("{$}", "", "...}", "}").Replace(path) // ServeMux's forms
		if doc.Paths[path][strings.ToLower(method)] == nil {
			t.Errorf("route %s is not in openapi.json", name)
		}
	}
}

// metricValue returns the value of the sample line of the exposition text
// that starts with series (name and labels), or -1.
func metricValue(t *testing.T, text, series string) float64 {
	t.Helper()
	for line := range strings.SplitSeq(text, "\n") {
		if rest, ok := strings.CutPrefix(line, series+" "); ok {
			v, err := strconv.ParseFloat(rest, 64)
			if err != nil {
				t.Fatalf("%q: %v", line, err)
			}
			return v
		}
	}
	return -1
}

// TestMetrics: requests are counted by route and status, pages and bytes
// by format, and the budget is exposed.
func TestMetrics(t *testing.T) {
	ts := startServer(t, Config{Budget: parallel.NewBudget(300 << 20)})
	html := examplePage(t)
	for range 3 {
		do(t, "POST", ts.url+"/v1/clean?format=markdown", "text/html", html)
	}
	do(t, "POST", ts.url+"/v1/clean?format=nope", "text/html", html)
	do(t, "GET", ts.url+"/nope", "", nil)
	text := string(do(t, "GET", ts.url+"/metrics", "", nil).body)
	want := map[string]float64{
		`sluice_http_requests_total{code="200",route="POST /v1/clean"}`:                 3,
		`sluice_http_requests_total{code="400",route="POST /v1/clean"}`:                 1,
		`sluice_http_requests_total{code="404",route="unmatched"}`:                      1,
		`sluice_http_request_duration_seconds_count{route="POST /v1/clean"}`:            4,
		`sluice_pages_cleaned_total{format="markdown"}`:                                 3,
		`sluice_clean_input_bytes_total`:                                                float64(3 * len(html)),
		`sluice_memory_budget_bytes`:                                                    300 << 20,
		`sluice_memory_budget_used_bytes`:                                               0,
		`sluice_http_requests_in_flight`:                                                1, // this one
		`sluice_http_request_duration_seconds_bucket{route="POST /v1/clean",le="+Inf"}`: 4,
	}
	for series, v := range want {
		if got := metricValue(t, text, series); got != v {
			t.Errorf("%s = %g, want %g", series, got, v)
		}
	}
	if metricValue(t, text, "sluice_clean_output_bytes_total") <= 0 || metricValue(t, text, "go_goroutines") <= 0 {
		t.Error("no output bytes or no Go collector")
	}
}

// TestAdmission: a request waits for memory; one that waits longer than
// AdmissionWait gets 503 with Retry-After; a client that gives up frees its
// place; and a request waiting when the server shuts down still finishes.
func TestAdmission(t *testing.T) {
	budget := parallel.NewBudget(sluice.CleanCost(4096))
	// The client below gives up long before AdmissionWait, so that even a
	// loaded machine sees it leave before it could be refused.
	ts := startServer(t, Config{Budget: budget, AdmissionWait: time.Second})
	html := examplePage(t)
	held := budget.Size()
	if err := budget.Acquire(context.Background(), held); err != nil {
		t.Fatal(err)
	}
	a := do(t, "POST", ts.url+"/v1/clean", "text/html", html)
	a.apiError(t, 503, "busy")
	if a.header.Get("Retry-After") == "" {
		t.Error("503 without Retry-After")
	}
	// A client that gives up while waiting holds nothing after.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	req, _ := http.NewRequestWithContext(ctx, "POST", ts.url+"/v1/clean", strings.NewReader(string(html)))
	if _, err := http.DefaultClient.Do(req); err == nil {
		t.Error("a request that timed out on the client succeeded")
	}
	cancel()
	waitFor(t, "the abandoned request to end", func() bool { return ts.inflight.count() == 0 })
	if budget.Used() != held {
		t.Errorf("budget used %d after the client left, want %d", budget.Used(), held)
	}
	text := string(do(t, "GET", ts.url+"/metrics", "", nil).body)
	if v := metricValue(t, text, "sluice_clean_admission_rejected_total"); v != 1 {
		t.Errorf("%g requests counted as refused, want the one answered 503", v)
	}
	budget.Release(held)
	if a := do(t, "POST", ts.url+"/v1/clean", "text/html", html); a.status != 200 || budget.Used() != 0 {
		t.Errorf("after release: status %d, budget used %d", a.status, budget.Used())
	}
}

// TestCleaningSlots: no more pages are cleaned at once than MaxCleans; a
// request that waits for a slot longer than AdmissionWait gets 503.
func TestCleaningSlots(t *testing.T) {
	ts := startServer(t, Config{MaxCleans: 1, AdmissionWait: 100 * time.Millisecond})
	html := examplePage(t)
	ts.slots <- struct{}{} // the one slot is taken
	a := do(t, "POST", ts.url+"/v1/clean", "text/html", html)
	if e := a.apiError(t, 503, "busy"); !strings.Contains(e.Message, "all 1 cleaning slots") {
		t.Errorf("message %q does not say the slots are taken", e.Message)
	}
	if used := ts.budget.Used(); used != 0 {
		t.Errorf("a request refused for want of a slot holds %d of the budget", used)
	}
	<-ts.slots
	if a := do(t, "POST", ts.url+"/v1/clean", "text/html", html); a.status != 200 || len(ts.slots) != 0 {
		t.Errorf("with the slot free: status %d, %d slots held after", a.status, len(ts.slots))
	}
}

// waitFor polls cond for up to 5 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// TestShutdownFinishesInFlight: a clean request in flight when the server
// is told to stop (here: waiting for memory) is finished and answered,
// and Serve returns nil after it.
func TestShutdownFinishesInFlight(t *testing.T) {
	budget := parallel.NewBudget(sluice.CleanCost(4096))
	ts := startServer(t, Config{Budget: budget})
	if err := budget.Acquire(context.Background(), budget.Size()); err != nil {
		t.Fatal(err)
	}
	got := make(chan answer, 1)
	go func() { got <- do(t, "POST", ts.url+"/v1/clean", "text/html", examplePage(t)) }()
	waitFor(t, "the request to be in flight", func() bool { return ts.inflight.count() == 1 })
	ts.stop()
	waitFor(t, "the listener to close", func() bool {
		conn, err := net.DialTimeout("tcp", strings.TrimPrefix(ts.url, "http://"), time.Second)
		if err == nil {
			conn.Close()
		}
		return err != nil
	})
	if ts.inflight.count() != 1 {
		t.Error("the request in flight was dropped when the listener closed")
	}
	budget.Release(budget.Size())
	a := <-got
	if a.status != 200 || !strings.Contains(string(a.body), "water mill") {
		t.Errorf("in-flight request: status %d, body %q", a.status, a.body)
	}
	if err := ts.shutdown(t); err != nil {
		t.Errorf("Serve: %v", err)
	}
	if !strings.Contains(ts.logs.String(), `"msg":"shutting down","in_flight":1`) {
		t.Errorf("the log does not say a request was in flight:\n%s", ts.logs)
	}
}

// TestShutdownInterrupts: a request still running at the shutdown
// deadline is interrupted (its context cancelled) and logged.
func TestShutdownInterrupts(t *testing.T) {
	started := make(chan struct{})
	stuck := Route{Method: "GET", Path: "/v1/stuck", Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-r.Context().Done()
	})}
	ts := startServer(t, Config{Routes: []Route{stuck}, Timeouts: Timeouts{Shutdown: 100 * time.Millisecond}})
	go func() {
		req, _ := http.NewRequest("GET", ts.url+"/v1/stuck", nil)
		req.Header.Set(RequestIDHeader, "stuck-1")
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	<-started
	if err := ts.shutdown(t); err != nil {
		t.Errorf("Serve: %v", err)
	}
	logs := ts.logs.String()
	if !strings.Contains(logs, `"msg":"interrupted by shutdown","request_id":"stuck-1","route":"GET /v1/stuck"`) {
		t.Errorf("the interrupted request is not logged:\n%s", logs)
	}
}

// TestManagementToken: the token rule for routes that declare themselves
// management routes.
func TestManagementToken(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("managed")) })
	mgmt := Route{Method: "PUT", Path: "/v1/things/{name}", Management: true, Handler: ok}
	ts := startServer(t, Config{Token: "s3cret", Routes: []Route{mgmt}})
	for _, auth := range []string{"", "Bearer wrong", "s3cret", "Basic czNjcmV0"} {
		a := do(t, "PUT", ts.url+"/v1/things/a", "", nil, "Authorization", auth)
		a.apiError(t, 401, "unauthorized")
		if a.header.Get("WWW-Authenticate") == "" {
			t.Errorf("%q: 401 without WWW-Authenticate", auth)
		}
	}
	if a := do(t, "PUT", ts.url+"/v1/things/a", "", nil, "Authorization", "Bearer s3cret"); a.status != 200 || string(a.body) != "managed" {
		t.Errorf("with the token: status %d, body %q", a.status, a.body)
	}
	if a := do(t, "GET", ts.url+"/healthz", "", nil); a.status != 200 {
		t.Errorf("healthz needs no token, got %d", a.status)
	}

	// Listening beyond loopback with management routes needs a token.
	any4 := &net.TCPAddr{IP: net.IPv4zero, Port: 8080}
	lan := &net.TCPAddr{IP: net.ParseIP("192.168.1.10"), Port: 8080}
	loop6 := &net.TCPAddr{IP: net.IPv6loopback, Port: 8080}
	noToken, err := New(Config{Routes: []Route{mgmt}})
	if err != nil {
		t.Fatal(err)
	}
	for _, addr := range []net.Addr{any4, lan} {
		if err := noToken.CheckListener(addr); err == nil || !strings.Contains(err.Error(), "--token") {
			t.Errorf("%s without a token: %v, want a refusal naming --token", addr, err)
		}
		if err := ts.CheckListener(addr); err != nil {
			t.Errorf("%s with a token: %v", addr, err)
		}
	}
	if err := noToken.CheckListener(loop6); err != nil {
		t.Errorf("loopback without a token: %v", err)
	}
	core, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := core.CheckListener(any4); err != nil {
		t.Errorf("no management routes, every interface: %v", err)
	}
}

// TestPanicRecovered: a panicking handler is answered 500 with the request
// id, logged, counted, and the server goes on.
func TestPanicRecovered(t *testing.T) {
	boom := Route{Method: "GET", Path: "/v1/boom", Handler: http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") })}
	ts := startServer(t, Config{Routes: []Route{boom}})
	a := do(t, "GET", ts.url+"/v1/boom", "", nil, RequestIDHeader, "panic-1")
	if e := a.apiError(t, 500, "internal"); !strings.Contains(e.Message, "panic-1") {
		t.Errorf("message %q does not name the request id", e.Message)
	}
	if logs := ts.logs.String(); !strings.Contains(logs, `"msg":"panic in handler","request_id":"panic-1","panic":"boom"`) {
		t.Errorf("the panic is not logged:\n%s", logs)
	}
	if a := do(t, "GET", ts.url+"/healthz", "", nil); a.status != 200 {
		t.Errorf("after the panic: status %d", a.status)
	}
	text := string(do(t, "GET", ts.url+"/metrics", "", nil).body)
	if v := metricValue(t, text, "sluice_http_panics_total"); v != 1 {
		t.Errorf("panics %g, want 1", v)
	}
}

// TestHandle: routes that cannot be added are refused with a reason.
func TestHandle(t *testing.T) {
	h := http.NotFoundHandler()
	srv, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []Route{
		{Method: "POST", Path: "/v1/clean", Handler: h}, // routed already
		{Method: "GET", Path: "GET /x", Handler: h},     // method in the path
		{Method: "GET", Path: "/x"},                     // no handler
		{Method: "GET", Path: "/x/{a}/{a}", Handler: h}, // ServeMux refuses it
		{Method: "", Path: "/x", Handler: h},            // no method
	} {
		if err := srv.Handle(r); err == nil {
			t.Errorf("Handle(%s %s) succeeded", r.Method, r.Path)
		}
	}
	if err := srv.Handle(Route{Method: "delete", Path: "/v1/clean", Handler: h}); err != nil {
		t.Errorf("a second method on a path: %v", err)
	}
	srv.Handler()
	if err := srv.Handle(Route{Method: "GET", Path: "/late", Handler: h}); err == nil || !strings.Contains(err.Error(), "after the server started") {
		t.Errorf("a route added after start: %v", err)
	}
}

// TestSlowHeaders: a client that sends its headers too slowly is cut off
// at ReadHeaderTimeout.
func TestSlowHeaders(t *testing.T) {
	ts := startServer(t, Config{Timeouts: Timeouts{ReadHeader: 200 * time.Millisecond}})
	conn, err := net.Dial("tcp", strings.TrimPrefix(ts.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	conn.Write([]byte("POST /v1/clean HTTP/1.1\r\nHost: x\r\n"))
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err == nil && !strings.Contains(line, "408") {
		t.Errorf("answer %q to an unfinished header, want 408 or the connection closed", line)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("the slow client held its connection %s", d)
	}
}

// TestCleanerCache: the cache keeps at most its size, and concurrent
// requests for one configuration get one cleaner.
func TestCleanerCache(t *testing.T) {
	c := newCleanerCache(2, nil)
	keys := []cleanerKey{{filter: "bte"}, {filter: "dsc"}, {filter: "lqf"}}
	for _, k := range keys {
		if _, err := c.get(k); err != nil {
			t.Fatal(err)
		}
	}
	if c.len() != 2 {
		t.Errorf("%d cleaners kept, want 2", c.len())
	}
	got := make(chan *sluice.Cleaner, 4)
	for range 4 {
		go func() {
			cl, _ := c.get(cleanerKey{threshold: 0.3})
			got <- cl
		}()
	}
	first := <-got
	for range 3 {
		if cl := <-got; cl != first || cl == nil {
			t.Error("concurrent gets built different cleaners")
		}
	}
	if _, err := c.get(cleanerKey{filter: "nosuch"}); err == nil || c.len() != 2 {
		t.Errorf("a failed build: err %v, %d kept", err, c.len())
	}
}

// TestResponseController: a route's handler reaches the connection's Flush
// and Hijack through the middleware (a proxy streams and tunnels).
func TestResponseController(t *testing.T) {
	flush := Route{Method: "GET", Path: "/v1/flush", Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("part"))
		if err := http.NewResponseController(w).Flush(); err != nil {
			t.Errorf("Flush: %v", err)
		}
	})}
	hijack := Route{Method: "GET", Path: "/v1/hijack", Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			t.Errorf("Hijack: %v", err)
			return
		}
		conn.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 6\r\nConnection: close\r\n\r\ntunnel"))
		conn.Close()
	})}
	ts := startServer(t, Config{Routes: []Route{flush, hijack}})
	if a := do(t, "GET", ts.url+"/v1/flush", "", nil); a.status != 200 || string(a.body) != "part" {
		t.Errorf("flush: status %d, body %q", a.status, a.body)
	}
	if a := do(t, "GET", ts.url+"/v1/hijack", "", nil); a.status != 200 || string(a.body) != "tunnel" {
		t.Errorf("hijack: status %d, body %q", a.status, a.body)
	}
	// The handler may still be returning when the client has the answer.
	waitFor(t, "the hijacked request to be counted", func() bool {
		text := string(do(t, "GET", ts.url+"/metrics", "", nil).body)
		return metricValue(t, text, `sluice_http_requests_total{code="hijacked",route="GET /v1/hijack"}`) == 1
	})
}
