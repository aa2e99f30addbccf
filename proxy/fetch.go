package proxy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"time"

	"golang.org/x/net/http/httpproxy"
)

// FetchOptions configures NewFetchClient. The zero value is the safe
// default: the proxy's destination rules, 4 MiB, 30 seconds, 5 redirects.
type FetchOptions struct {
	// AllowPrivate, Allow, Deny and Resolver are the proxy's destination
	// rules, as in Config.
	AllowPrivate bool
	Allow, Deny  []netip.Prefix
	Resolver     Resolver
	// MaxBody is the largest response body read; past it the body's Read
	// fails with an error wrapping ErrFetchTooLarge (and a declared
	// Content-Length over it fails the request). Default 4 MiB.
	MaxBody int64
	// Timeout bounds a whole fetch, redirects and body included. Default 30 s.
	Timeout time.Duration
	// MaxRedirects is how many redirects are followed, each one checked
	// anew. Default 5; negative: none.
	MaxRedirects int
	// EnvProxy fetches through the proxy the environment names, as curl
	// and Go's own tools read it: HTTPS_PROXY, HTTP_PROXY and NO_PROXY (or
	// their lower-case forms), read when the client is made. The user
	// chose that proxy, so the connection to it is not checked by the
	// destination rules; and since the proxy resolves the names it is
	// sent, a destination going through it is checked only when it is an
	// address written out (http://10.0.0.1/) or localhost. For the
	// command line; a server fetching for its clients leaves it off.
	EnvProxy bool
}

// ErrFetchTooLarge is the error of a fetched body larger than
// FetchOptions.MaxBody.
var ErrFetchTooLarge = errors.New("the page is larger than the fetch limit")

// NewFetchClient returns an http.Client that fetches pages under the
// proxy's destination rules: every connection, redirects included, goes
// through the guarded dialer (the resolved address checked at dial time,
// see Rule), only http and https are fetched, and the body, the headers and
// the time are bounded. A refused destination is an error that wraps a
// *Refusal (errors.As). The workbench's Inspect view fetches with it.
func NewFetchClient(o FetchOptions) *http.Client {
	if o.MaxBody <= 0 {
		o.MaxBody = DefaultMaxCleanBody
	}
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Second
	}
	if o.MaxRedirects == 0 {
		o.MaxRedirects = 5
	}
	var res Resolver = net.DefaultResolver
	if o.Resolver != nil {
		res = o.Resolver
	}
	lim := Limits{}.withDefaults()
	cfg := Config{Limits: lim}
	pol := &policy{allowPrivate: o.AllowPrivate, allow: o.Allow, deny: o.Deny}
	tr := &http.Transport{
		DialContext:            newGuardedDialer(pol, res, &cfg).DialContext,
		TLSHandshakeTimeout:    lim.TLSHandshakeTimeout,
		ResponseHeaderTimeout:  lim.ResponseHeaderTimeout,
		MaxResponseHeaderBytes: lim.MaxResponseHeader,
		ForceAttemptHTTP2:      true,
		MaxIdleConns:           8,
		IdleConnTimeout:        30 * time.Second,
	}
	if o.EnvProxy {
		useEnvProxy(tr, pol, httpproxy.FromEnvironment().ProxyFunc())
	}
	return &http.Client{
		Transport: &limitedTransport{rt: tr, max: o.MaxBody},
		Timeout:   o.Timeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > o.MaxRedirects {
				return fmt.Errorf("more than %d redirects", max(o.MaxRedirects, 0))
			}
			if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
				return &Refusal{Rule: RuleScheme, Addr: req.URL.Scheme + ":"}
			}
			return nil
		},
	}
}

// limitedTransport refuses a scheme other than http and https and bounds
// the response bodies of rt.
type limitedTransport struct {
	rt  http.RoundTripper
	max int64
}

func (t *limitedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
		return nil, &Refusal{Rule: RuleScheme, Addr: req.URL.Scheme + ":"}
	}
	resp, err := t.rt.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	if resp.ContentLength > t.max {
		resp.Body.Close()
		return nil, fmt.Errorf("%w: %d bytes declared, the limit is %d", ErrFetchTooLarge, resp.ContentLength, t.max)
	}
	resp.Body = &cappedBody{ReadCloser: resp.Body, left: t.max, max: t.max}
	return resp, nil
}

// cappedBody fails once more than max bytes would be read.
type cappedBody struct {
	io.ReadCloser
	left, max int64
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.ReadCloser.Read(p)
	if int64(n) > b.left {
		return int(b.left), fmt.Errorf("%w: more than %d bytes", ErrFetchTooLarge, b.max)
	}
	b.left -= int64(n)
	return n, err
}

// Liftable reports whether AllowPrivate (sluice serve --allow-private,
// --fetch-allow-private) lifts the destination rule r.
func (r Rule) Liftable() bool {
	for _, d := range destRules {
		if d.rule == r {
			return d.liftable
		}
	}
	return false
}

// useEnvProxy makes tr send its requests through the proxy proxyFor names
// for them (FetchOptions.EnvProxy): a request to a destination the rules
// refuse, written as an address or localhost, is refused before it is
// sent, and a dial to one of the proxies proxyFor named bypasses the
// guarded dialer.
func useEnvProxy(tr *http.Transport, pol *policy, proxyFor func(*url.URL) (*url.URL, error)) {
	var chosen sync.Map // "host:port" of a proxy proxyFor returned
	guarded := tr.DialContext
	var plain net.Dialer
	tr.Proxy = func(req *http.Request) (*url.URL, error) {
		u, err := proxyFor(req.URL)
		if u == nil || err != nil {
			return u, err
		}
		host := req.URL.Hostname()
		if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
			host = "127.0.0.1"
		}
		if a, err := netip.ParseAddr(host); err == nil {
			if r := pol.check(a); r != "" {
				return nil, &Refusal{Rule: r, Addr: req.URL.Hostname()}
			}
		}
		port := u.Port()
		switch {
		case port != "":
		case u.Scheme == "https":
			port = "443"
		case u.Scheme == "socks5":
			port = "1080"
		default:
			port = "80"
		}
		chosen.Store(net.JoinHostPort(u.Hostname(), port), true)
		return u, nil
	}
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		if _, ok := chosen.Load(addr); ok {
			return plain.DialContext(ctx, network, addr)
		}
		return guarded(ctx, network, addr)
	}
}
