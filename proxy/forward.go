package proxy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/textproto"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// hopHeaders are the hop-by-hop fields of RFC 9110 section 7.6.1
// (Connection, Proxy-Connection, Keep-Alive, TE, Transfer-Encoding,
// Upgrade) and the proxy's own authentication fields (section 11.7), which
// a proxy consumes or replaces rather than forwards. The fields a
// Connection header lists are removed too (removeHopHeaders).
var hopHeaders = []string{
	"Connection", "Proxy-Connection", "Keep-Alive", "TE", "Transfer-Encoding", "Upgrade",
	"Proxy-Authenticate", "Proxy-Authorization",
}

// removeHopHeaders deletes the hop-by-hop fields of h: those listed in its
// Connection headers, then the fixed ones.
func removeHopHeaders(h http.Header) {
	for _, v := range h.Values("Connection") {
		for f := range strings.SplitSeq(v, ",") {
			if f = textproto.TrimString(f); f != "" {
				h.Del(f)
			}
		}
	}
	for _, k := range hopHeaders {
		h.Del(k)
	}
}

// addVia appends this proxy to the Via header of a message of protocol
// version major.minor (RFC 9110 section 7.6.3).
func (p *Proxy) addVia(h http.Header, major, minor int) {
	v := fmt.Sprintf("%d.%d %s", major, minor, p.via)
	if major >= 2 {
		v = fmt.Sprintf("%d %s", major, p.via)
	}
	h.Add("Via", v)
}

// acquire takes an upstream slot, waiting up to ConnWait; it reports
// whether it got one. release gives it back.
func (p *Proxy) acquire(ctx context.Context) bool {
	select {
	case p.conns <- struct{}{}:
		return true
	default:
	}
	t := time.NewTimer(p.cfg.ConnWait)
	defer t.Stop()
	select {
	case p.conns <- struct{}{}:
		return true
	case <-t.C:
	case <-ctx.Done():
	}
	return false
}

func (p *Proxy) release() { <-p.conns }

// errNoSlot is the 503 of a request that found no free upstream slot.
var errNoSlot = errors.New("every upstream connection slot is busy: try again later")

// forward serves an absolute-form request: it sends it upstream (without
// following redirects: the client follows them, each one a new request
// checked anew) and answers with the response, cleaned when it is an HTML
// page, streamed unchanged otherwise.
func (p *Proxy) forward(w http.ResponseWriter, r *http.Request) {
	if r.URL.Scheme != "http" && r.URL.Scheme != "https" {
		p.refuse(w, r, &Refusal{Rule: RuleScheme, Addr: r.URL.Scheme + ":"})
		return
	}
	if r.ContentLength > p.cfg.MaxRequestBody {
		p.fail(w, r, http.StatusRequestEntityTooLarge, fmt.Errorf("the request body has %d bytes, more than the proxy's limit of %d", r.ContentLength, p.cfg.MaxRequestBody))
		return
	}
	ctx, cancel := p.exchangeContext(r.Context())
	defer cancel()
	if !p.acquire(ctx) {
		p.fail(w, r, http.StatusServiceUnavailable, errNoSlot)
		return
	}
	defer p.release()
	out, body := p.outbound(ctx, r)
	resp, err := p.transport.RoundTrip(out)
	if err != nil {
		p.upstreamError(w, r, err, body != nil && body.over.Load())
		return
	}
	defer resp.Body.Close()
	removeHopHeaders(resp.Header)
	p.addVia(resp.Header, resp.ProtoMajor, resp.ProtoMinor)
	if cleanable(r, resp) {
		if c, name := p.choose(r); c != nil {
			p.serveCleaned(ctx, w, r, resp, page{cleaner: c, set: name})
			return
		}
	}
	p.passThrough(w, resp, nil, "")
}

// exchangeContext bounds one forwarded exchange by Config.Timeout.
func (p *Proxy) exchangeContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if p.cfg.Timeout > 0 {
		return context.WithTimeout(ctx, p.cfg.Timeout)
	}
	return context.WithCancel(ctx)
}

// outbound makes the upstream request of r: its hop-by-hop fields removed,
// Via added, the body bounded by MaxRequestBody, and an Accept-Encoding
// the proxy can clean (gzip when the client takes it, identity otherwise).
func (p *Proxy) outbound(ctx context.Context, r *http.Request) (*http.Request, *limitedBody) {
	out := r.Clone(ctx)
	out.RequestURI = ""
	out.Host = ""
	out.Close = false
	removeHopHeaders(out.Header)
	p.addVia(out.Header, r.ProtoMajor, r.ProtoMinor)
	if acceptsGzip(r.Header) {
		out.Header.Set("Accept-Encoding", "gzip")
	} else {
		out.Header.Set("Accept-Encoding", "identity")
	}
	var body *limitedBody
	if r.ContentLength == 0 || r.Body == nil || r.Body == http.NoBody {
		out.Body = http.NoBody
	} else {
		body = &limitedBody{r: r.Body, left: p.cfg.MaxRequestBody}
		out.Body = body
	}
	return out, body
}

// acceptsGzip reports whether an Accept-Encoding header takes gzip (or
// "*") with a non-zero weight.
func acceptsGzip(h http.Header) bool {
	for _, v := range h.Values("Accept-Encoding") {
		for f := range strings.SplitSeq(v, ",") {
			name, params, _ := strings.Cut(f, ";")
			name = strings.ToLower(textproto.TrimString(name))
			if name != "gzip" && name != "x-gzip" && name != "*" {
				continue
			}
			if q, ok := strings.CutPrefix(textproto.TrimString(params), "q="); ok {
				w, err := strconv.ParseFloat(textproto.TrimString(q), 64)
				return err != nil || w > 0
			}
			return true
		}
	}
	return false
}

// limitedBody is a request body that fails once more than left bytes have
// been read, and remembers it, so that the proxy answers 413 rather than
// 502.
type limitedBody struct {
	r    io.ReadCloser
	left int64
	over atomic.Bool
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		var one [1]byte
		if n, _ := b.r.Read(one[:]); n > 0 {
			b.over.Store(true)
			return 0, errors.New("proxy: request body over the limit")
		}
		return b.r.Read(p) // 0 bytes: io.EOF or the read's error
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *limitedBody) Close() error { return b.r.Close() }

// copyBuffers holds the buffers of the streaming copies.
var copyBuffers = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// passThrough answers with resp unchanged (its hop-by-hop fields aside):
// the header, then prefix (body bytes already read), then the rest of the
// body, streamed with a flush after every write. note, when set, says in a
// Sluice-Proxy header why an HTML page was not cleaned. A body that fails
// midway aborts the client's connection, so that the client sees a
// truncated response rather than a complete-looking one.
func (p *Proxy) passThrough(w http.ResponseWriter, resp *http.Response, prefix []byte, note string) {
	h := w.Header()
	for k, v := range resp.Header {
		h[k] = v
	}
	if note != "" {
		h.Set("Sluice-Proxy", "not cleaned: "+note)
	}
	w.WriteHeader(resp.StatusCode)
	fw := flushWriter{w: w, rc: http.NewResponseController(w)}
	if len(prefix) > 0 {
		if _, err := fw.Write(prefix); err != nil {
			panic(http.ErrAbortHandler)
		}
	}
	buf := copyBuffers.Get().(*[]byte)
	defer copyBuffers.Put(buf)
	if _, err := io.CopyBuffer(fw, resp.Body, *buf); err != nil {
		p.log.Info("proxy: body cut", "err", err)
		panic(http.ErrAbortHandler)
	}
}

// flushWriter flushes the response after every write, so that a streamed
// body reaches the client as it arrives.
type flushWriter struct {
	w  io.Writer
	rc *http.ResponseController
}

func (f flushWriter) Write(b []byte) (int, error) {
	n, err := f.w.Write(b)
	if err == nil {
		if ferr := f.rc.Flush(); ferr != nil && !errors.Is(ferr, http.ErrNotSupported) {
			err = ferr
		}
	}
	return n, err
}
