package server

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"runtime/debug"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// RequestIDHeader is the header that carries a request's id: a client's
// own id is kept when it is sane (printable ASCII, at most 128 bytes),
// otherwise one is made; either way it is echoed in the answer and is in
// every log line and error body of the request.
const RequestIDHeader = "X-Request-Id"

// requestInfo is what the middleware knows of a request in flight; the
// route is set by dispatch once the request is matched.
type requestInfo struct {
	id     string
	method string
	path   string
	start  time.Time
	route  atomic.Pointer[string]
}

func (i *requestInfo) setRoute(r string) { i.route.Store(&r) }

// routeName is the matched route, or "unmatched".
func (i *requestInfo) routeName() string {
	if r := i.route.Load(); r != nil {
		return *r
	}
	return "unmatched"
}

type infoKey struct{}

// requestInfoFrom returns the request's info; outside the middleware (a
// handler called directly) an empty one.
func requestInfoFrom(ctx context.Context) *requestInfo {
	if i, ok := ctx.Value(infoKey{}).(*requestInfo); ok {
		return i
	}
	return &requestInfo{}
}

// RequestID returns the id of the request whose context ctx is, or "".
func RequestID(ctx context.Context) string { return requestInfoFrom(ctx).id }

// requestID returns the client's id when it is sane, else a new one.
func requestID(h string) string {
	if len(h) > 0 && len(h) <= 128 {
		ok := true
		for i := 0; i < len(h) && ok; i++ {
			ok = h[i] > ' ' && h[i] < 0x7f
		}
		if ok {
			return h
		}
	}
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// statusWriter records the status and size of an answer.
type statusWriter struct {
	http.ResponseWriter
	status   int
	bytes    int64
	hijacked bool // the handler took the connection over
}

// Hijack hands the connection to the handler (a proxy's CONNECT tunnel),
// noting that the answer is now the handler's own.
func (w *statusWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	c, rw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	w.hijacked = w.hijacked || err == nil
	return c, rw, err
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(p)
	w.bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// observe is the outermost middleware: it gives the request its id, counts
// it in flight, and when it ends logs it and records its metrics.
func (s *Server) observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		info := &requestInfo{id: requestID(r.Header.Get(RequestIDHeader)), method: r.Method, path: r.URL.Path, start: time.Now()}
		w.Header().Set(RequestIDHeader, info.id)
		r = r.WithContext(context.WithValue(r.Context(), infoKey{}, info))
		sw := &statusWriter{ResponseWriter: w}
		s.inflight.add(info)
		s.metrics.inFlight.Inc()
		defer func() {
			s.metrics.inFlight.Dec()
			s.inflight.remove(info)
			status := sw.status
			code := strconv.Itoa(status)
			switch {
			case sw.hijacked:
				code = "hijacked"
			case status == 0:
				status = statusClientClosed // the handler wrote nothing
				code = strconv.Itoa(status)
			}
			d := time.Since(info.start)
			route := info.routeName()
			s.metrics.observe(route, code, d)
			level := slog.LevelInfo
			if status >= 500 {
				level = slog.LevelError
			}
			s.log.LogAttrs(r.Context(), level, "request", slog.String("request_id", info.id), slog.String("method", r.Method),
				slog.String("path", r.URL.Path), slog.String("route", route), slog.String("status", code),
				slog.Int64("bytes_in", max(r.ContentLength, 0)), slog.Int64("bytes_out", sw.bytes),
				slog.Duration("duration", d), slog.String("remote", r.RemoteAddr))
		}()
		next.ServeHTTP(sw, r)
	})
}

// statusClientClosed is recorded for a request that got no answer because
// its client went away (nginx's 499).
const statusClientClosed = 499

// recoverPanics turns a panic in a handler into a 500 naming the request
// id, logs it with its stack, and keeps the server up. http.ErrAbortHandler
// is passed on: it is how a handler aborts a response on purpose.
func (s *Server) recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v)
			}
			id := requestInfoFrom(r.Context()).id
			s.metrics.panics.Inc()
			s.log.Error("panic in handler", "request_id", id, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			if sw, ok := w.(*statusWriter); ok && sw.status != 0 {
				panic(http.ErrAbortHandler) // the answer has begun: cut the connection
			}
			WriteError(w, r, http.StatusInternalServerError, "internal",
				"the server failed on this request (a bug); it is logged with request id "+id)
		}()
		next.ServeHTTP(w, r)
	})
}

// inflight tracks the requests being served, for the shutdown log.
type inflight struct {
	mu   sync.Mutex
	reqs map[*requestInfo]struct{}
}

func (f *inflight) add(i *requestInfo) {
	f.mu.Lock()
	if f.reqs == nil {
		f.reqs = map[*requestInfo]struct{}{}
	}
	f.reqs[i] = struct{}{}
	f.mu.Unlock()
}

func (f *inflight) remove(i *requestInfo) {
	f.mu.Lock()
	delete(f.reqs, i)
	f.mu.Unlock()
}

func (f *inflight) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.reqs)
}

// inflightRequest is a request in flight as the shutdown log names it.
type inflightRequest struct {
	id, method, path, route string
	start                   time.Time
}

// list returns the requests in flight, oldest first.
func (f *inflight) list() []inflightRequest {
	f.mu.Lock()
	var out []inflightRequest
	for i := range f.reqs {
		out = append(out, inflightRequest{id: i.id, method: i.method, path: i.path, route: i.routeName(), start: i.start})
	}
	f.mu.Unlock()
	slices.SortFunc(out, func(a, b inflightRequest) int { return a.start.Compare(b.start) })
	return out
}
