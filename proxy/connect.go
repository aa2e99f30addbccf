package proxy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strconv"
	"sync/atomic"
	"time"
)

// serveConnect serves a CONNECT request: a tunnel to host:port, under the
// same destination rules and slots as forwarded requests, relaying the
// bytes both ways untouched (the proxy never sees inside the client's TLS)
// until either side closes or nothing crosses it for TunnelIdleTimeout.
func (p *Proxy) serveConnect(w http.ResponseWriter, r *http.Request) {
	_, portStr, err := net.SplitHostPort(r.Host)
	if err != nil {
		p.fail(w, r, http.StatusBadRequest, fmt.Errorf("CONNECT needs host:port, not %q", r.Host))
		return
	}
	if port, err := strconv.Atoi(portStr); err != nil || !slices.Contains(p.cfg.ConnectPorts, port) {
		p.refuse(w, r, &Refusal{Rule: RulePort, Addr: r.Host})
		return
	}
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	if !p.acquire(ctx) {
		p.fail(w, r, http.StatusServiceUnavailable, errNoSlot)
		return
	}
	defer p.release()
	upstream, err := p.dialer.DialContext(ctx, "tcp", r.Host)
	if err != nil {
		p.upstreamError(w, r, err, false)
		return
	}
	defer upstream.Close()
	client, brw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		p.fail(w, r, http.StatusHTTPVersionNotSupported, errors.New("CONNECT is served over HTTP/1.1 only"))
		return
	}
	defer client.Close()
	client.SetDeadline(time.Time{}) // the server's deadlines were for the request
	if _, err := io.WriteString(client, "HTTP/1.1 200 Connection established\r\n\r\n"); err != nil {
		return
	}
	t := &tunnel{idle: p.cfg.TunnelIdleTimeout}
	t.run(client, brw.Reader, upstream, p.done)
}

// tunnel relays bytes between a client and an upstream connection. It is
// idle when no byte has crossed it either way for idle (0: never).
type tunnel struct {
	idle time.Duration
	last atomic.Int64 // time of the last byte either way, in Unix ns
}

// run relays until both directions have ended, an error ends one of them,
// the tunnel is idle too long, or done is closed. The client's bytes are
// read through clientR, which holds what the server had buffered after the
// CONNECT request.
func (t *tunnel) run(client net.Conn, clientR io.Reader, upstream net.Conn, done <-chan struct{}) {
	t.touch()
	errc := make(chan error, 2)
	go func() { errc <- t.pipe(upstream, clientR, client) }()
	go func() { errc <- t.pipe(client, upstream, upstream) }()
	for range 2 {
		select {
		case err := <-errc:
			if err != nil {
				client.Close()
				upstream.Close()
			}
		case <-done:
			client.Close()
			upstream.Close()
			<-errc
			<-errc
			return
		}
	}
}

func (t *tunnel) touch() { t.last.Store(time.Now().UnixNano()) }

// quiet reports whether no byte has crossed the tunnel for t.idle.
func (t *tunnel) quiet() bool {
	return time.Since(time.Unix(0, t.last.Load())) >= t.idle
}

// pipe copies src (read from the connection srcConn) to dst until src
// ends, then half-closes dst so that its peer sees the end too. A read
// that times out ends the copy only when the whole tunnel has been quiet:
// a download keeps the upload direction alive. It returns nil at the end
// of src.
func (t *tunnel) pipe(dst net.Conn, src io.Reader, srcConn net.Conn) error {
	bp := copyBuffers.Get().(*[]byte)
	defer copyBuffers.Put(bp)
	buf := *bp
	for {
		if t.idle > 0 {
			srcConn.SetReadDeadline(time.Now().Add(t.idle))
		}
		n, err := src.Read(buf)
		if n > 0 {
			t.touch()
			if t.idle > 0 {
				dst.SetWriteDeadline(time.Now().Add(t.idle))
			}
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return werr
			}
			t.touch()
		}
		var ne net.Error
		switch {
		case err == nil:
		case errors.Is(err, io.EOF):
			if cw, ok := dst.(interface{ CloseWrite() error }); ok {
				cw.CloseWrite()
			} else {
				dst.Close()
			}
			return nil
		case errors.As(err, &ne) && ne.Timeout() && !t.quiet():
		default:
			return err
		}
	}
}
