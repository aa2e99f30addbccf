// Package proxy is sluice's filtering HTTP forward proxy, CombinE's use
// case: a browser or a crawler sends its requests through it, the text/html
// pages come back cleaned (the kept blocks as a minimal HTML document, a bar
// at the top naming the filter set and linking to the inspector), and
// everything else passes through unchanged and streamed. HTTPS CONNECT
// tunnels are relayed untouched: the proxy never sees inside TLS.
//
// A Proxy is an http.Handler for a server to mount. It is safe by default:
// only loopback clients may use it, and it refuses to connect to loopback,
// private, link-local, metadata and other non-public addresses (see Rule),
// checked on the resolved address at dial time so that DNS rebinding cannot
// get around the check. Every read, wait and connection is bounded (see
// Config). docs/proxy.md describes the rules and the limits.
package proxy

import (
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/parallel"
)

// Chooser picks the cleaner of one proxied page, for example from a filter
// set the user selected: it returns the cleaner and the name the bar shows.
// A nil cleaner passes the page through unchanged.
type Chooser func(r *http.Request) (c *sluice.Cleaner, name string)

// Config configures a Proxy. The zero value means the documented defaults,
// which are the safe ones.
type Config struct {
	// Cleaner cleans every text/html page, and FilterSet is the name the
	// bar shows for it. Default: sluice.New(sluice.Options{}) (the embedded
	// model), named "default".
	Cleaner   *sluice.Cleaner
	FilterSet string
	// Choose, when set, picks the cleaner per request instead of Cleaner.
	Choose Chooser
	// InspectURL is the address of the inspector view the bar links to,
	// with "{url}" standing for the page's address and "{set}" for the
	// filter set's name, both query-escaped; for example
	// "http://127.0.0.1:8080/inspect?url={url}&set={set}". Empty: no link.
	InspectURL string

	// Clients are the networks whose clients may use the proxy, checked on
	// the connection's remote address. Default: loopback only (127.0.0.0/8
	// and ::1).
	Clients []netip.Prefix
	// AllowPrivate lifts the destination rules that protect a host and its
	// intranet (loopback, private, link-local, CGNAT, reserved): for tests
	// and intranets. The metadata, unspecified, multicast and broadcast
	// rules stay.
	AllowPrivate bool
	// Allow lists destination networks let through whatever the rules say
	// (one intranet host, or a test server on 127.0.0.1).
	Allow []netip.Prefix
	// Deny lists destination networks refused whatever AllowPrivate says.
	Deny []netip.Prefix
	// Resolver looks up upstream host names. Default: net.DefaultResolver.
	Resolver Resolver
	// ConnectPorts are the ports a CONNECT tunnel may reach. Default: 443.
	ConnectPorts []int
	// TLS configures the proxy's own TLS connections to upstreams of
	// absolute-form https:// requests (not CONNECT tunnels, whose TLS is
	// the client's). Default: the system's roots.
	TLS *tls.Config

	// Budget, if set, admits pages to cleaning by their estimated memory
	// cost (sluice.CleanCost), shared with whatever else in the process
	// cleans (the server's API, a corpus run). Default: only the limit on
	// pages cleaned at once.
	Budget *parallel.Budget

	// Fallback serves the requests that are not proxy requests (origin-form
	// "GET /path"), for example the server's API. Default: they are
	// refused with 403.
	Fallback http.Handler
	// Logger logs refusals and upstream failures. Default: slog.Default().
	Logger *slog.Logger

	Limits
}

// Limits bound what one request may cost. Zero means the default; a
// negative duration or size means none.
type Limits struct {
	// MaxRequestBody is the largest request body forwarded upstream;
	// a larger one is answered 413. Default: 10 MiB.
	MaxRequestBody int64
	// MaxResponseHeader is the largest upstream response header (a larger
	// one is answered 502). Default: 64 KiB.
	MaxResponseHeader int64
	// MaxCleanBody is the largest text/html body cleaned, after gzip
	// decoding; a larger one passes through unchanged. Default: 4 MiB
	// (cleaning takes up to sluice.CleanCost of it in memory).
	MaxCleanBody int64
	// MaxConns is the most upstream exchanges and tunnels at once; a
	// request that finds none free within ConnWait is answered 503.
	// Default: 64.
	MaxConns int
	// ConnWait is how long a request waits for a free upstream slot.
	// Default: 5s.
	ConnWait time.Duration
	// MaxCleaning is the most pages cleaned at once (cleaning is CPU
	// bound; the others wait). Default: GOMAXPROCS.
	MaxCleaning int
	// DialTimeout bounds a TCP connection to an upstream. Default: 10s.
	DialTimeout time.Duration
	// TLSHandshakeTimeout bounds the proxy's TLS handshake with an https
	// upstream. Default: 10s.
	TLSHandshakeTimeout time.Duration
	// ResponseHeaderTimeout bounds the wait for the upstream's response
	// header after the request is sent (504 past it). Default: 30s.
	ResponseHeaderTimeout time.Duration
	// Timeout bounds a whole forwarded exchange, the body streamed to the
	// client included: a download taking longer is cut. Default: 2m.
	Timeout time.Duration
	// TunnelIdleTimeout closes a CONNECT tunnel when no byte has crossed
	// it either way for this long. Default: 2m.
	TunnelIdleTimeout time.Duration
}

// The defaults of Limits.
const (
	DefaultMaxRequestBody        = 10 << 20
	DefaultMaxResponseHeader     = 64 << 10
	DefaultMaxCleanBody          = 4 << 20
	DefaultMaxConns              = 64
	DefaultConnWait              = 5 * time.Second
	DefaultDialTimeout           = 10 * time.Second
	DefaultTLSHandshakeTimeout   = 10 * time.Second
	DefaultResponseHeaderTimeout = 30 * time.Second
	DefaultTimeout               = 2 * time.Minute
	DefaultTunnelIdleTimeout     = 2 * time.Minute
)

// Proxy is the filtering forward proxy, an http.Handler. Build it with New;
// it is safe for concurrent use.
type Proxy struct {
	cfg       Config
	clients   []netip.Prefix
	dialer    *guardedDialer
	transport *http.Transport
	conns     chan struct{} // upstream slots
	cleaning  chan struct{} // cleaning slots
	via       string        // this proxy's pseudonym in Via
	log       *slog.Logger
	done      chan struct{} // closed by Close: the tunnels end
	closeOnce sync.Once
}

// New builds a Proxy from cfg, filling in the defaults. It fails when the
// default cleaner cannot be built or a setting is invalid.
func New(cfg Config) (*Proxy, error) {
	if cfg.Cleaner == nil && cfg.Choose == nil {
		c, err := sluice.New(sluice.Options{})
		if err != nil {
			return nil, err
		}
		cfg.Cleaner = c
	}
	if cfg.FilterSet == "" {
		cfg.FilterSet = "default"
	}
	if cfg.InspectURL != "" && !strings.Contains(cfg.InspectURL, "{url}") {
		return nil, errors.New("proxy: Config.InspectURL has no {url} for the page's address")
	}
	cfg.Limits = cfg.Limits.withDefaults()
	p := &Proxy{cfg: cfg, log: cfg.Logger, done: make(chan struct{})}
	if p.log == nil {
		p.log = slog.Default()
	}
	p.clients = cfg.Clients
	if len(p.clients) == 0 {
		p.clients = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	}
	if len(p.cfg.ConnectPorts) == 0 {
		p.cfg.ConnectPorts = []int{443}
	}
	var res Resolver = net.DefaultResolver
	if cfg.Resolver != nil {
		res = cfg.Resolver
	}
	pol := &policy{allowPrivate: cfg.AllowPrivate, allow: cfg.Allow, deny: cfg.Deny}
	p.dialer = newGuardedDialer(pol, res, &p.cfg)
	p.transport = p.newTransport()
	p.conns = make(chan struct{}, p.cfg.MaxConns)
	p.cleaning = make(chan struct{}, p.cfg.MaxCleaning)
	var id [4]byte
	rand.Read(id[:])
	p.via = "sluice-" + hex.EncodeToString(id[:])
	return p, nil
}

// withDefaults fills in the zero limits and turns the negative ones into
// "none" (0 for the timeouts, the largest value for the sizes).
func (l Limits) withDefaults() Limits {
	size := func(v *int64, def int64) {
		switch {
		case *v == 0:
			*v = def
		case *v < 0:
			*v = 1<<63 - 1
		}
	}
	dur := func(v *time.Duration, def time.Duration) {
		switch {
		case *v == 0:
			*v = def
		case *v < 0:
			*v = 0
		}
	}
	size(&l.MaxRequestBody, DefaultMaxRequestBody)
	size(&l.MaxResponseHeader, DefaultMaxResponseHeader)
	size(&l.MaxCleanBody, DefaultMaxCleanBody)
	if l.MaxConns <= 0 {
		l.MaxConns = DefaultMaxConns
	}
	if l.MaxCleaning <= 0 {
		l.MaxCleaning = runtime.GOMAXPROCS(0)
	}
	dur(&l.ConnWait, DefaultConnWait)
	dur(&l.DialTimeout, DefaultDialTimeout)
	dur(&l.TLSHandshakeTimeout, DefaultTLSHandshakeTimeout)
	dur(&l.ResponseHeaderTimeout, DefaultResponseHeaderTimeout)
	dur(&l.Timeout, DefaultTimeout)
	dur(&l.TunnelIdleTimeout, DefaultTunnelIdleTimeout)
	return l
}

// newTransport is the upstream transport: the guarded dialer, no proxy of
// its own, no automatic decompression (the proxy decides), bounded
// headers and waits.
func (p *Proxy) newTransport() *http.Transport {
	return &http.Transport{
		Proxy:                  nil,
		DialContext:            p.dialer.DialContext,
		TLSClientConfig:        p.cfg.TLS,
		TLSHandshakeTimeout:    p.cfg.TLSHandshakeTimeout,
		ResponseHeaderTimeout:  p.cfg.ResponseHeaderTimeout,
		MaxResponseHeaderBytes: p.cfg.MaxResponseHeader,
		DisableCompression:     true,
		ForceAttemptHTTP2:      true,
		MaxIdleConns:           p.cfg.MaxConns,
		MaxIdleConnsPerHost:    8,
		IdleConnTimeout:        90 * time.Second,
		ExpectContinueTimeout:  time.Second,
	}
}

// Close ends the CONNECT tunnels (which http.Server.Shutdown does not
// wait for: their connections are hijacked) and closes the idle upstream
// connections. Forwarded exchanges in flight end with their requests, which
// Shutdown waits for. Call it after Shutdown.
func (p *Proxy) Close() {
	p.closeOnce.Do(func() { close(p.done) })
	p.transport.CloseIdleConnections()
}

// ServeHTTP serves one request: a CONNECT tunnel, an absolute-form request
// to forward, or (origin-form) the fallback handler's business.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodConnect && !r.URL.IsAbs() {
		if p.cfg.Fallback != nil {
			p.cfg.Fallback.ServeHTTP(w, r)
			return
		}
		p.refuse(w, r, &Refusal{Rule: RuleNotProxy, Addr: r.URL.String()})
		return
	}
	if ref := p.checkClient(r); ref != nil {
		p.refuse(w, r, ref)
		return
	}
	if p.looped(r) {
		p.refuse(w, r, &Refusal{Rule: RuleLoop, Addr: r.Host})
		return
	}
	if r.Method == http.MethodConnect {
		p.serveConnect(w, r)
		return
	}
	p.forward(w, r)
}

// checkClient checks the client's address against Config.Clients.
func (p *Proxy) checkClient(r *http.Request) *Refusal {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return &Refusal{Rule: RuleClient, Addr: r.RemoteAddr}
	}
	a := ap.Addr().WithZone("").Unmap()
	for _, pf := range p.clients {
		if pf.Contains(a) {
			return nil
		}
	}
	return &Refusal{Rule: RuleClient, Addr: a.String()}
}

// looped reports whether the request has already been through this proxy
// (its pseudonym is in a Via header): a request to the proxy's own address
// would otherwise go round until the slots run out.
func (p *Proxy) looped(r *http.Request) bool {
	for _, v := range r.Header.Values("Via") {
		if strings.Contains(v, p.via) {
			return true
		}
	}
	return false
}
