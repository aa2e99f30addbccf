package proxy

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
)

// ruleHelp says, for each rule, why the proxy refuses and what lifts it.
var ruleHelp = map[Rule]string{
	RuleMetadata:    "cloud metadata services are never reached through the proxy (list the address in Config.Allow to reach it anyway)",
	RuleUnspecified: "the unspecified address reaches the proxy's own host",
	RuleMulticast:   "multicast addresses are not web servers",
	RuleBroadcast:   "the broadcast address is not a web server",
	RuleLoopback:    "loopback addresses are refused unless the proxy runs with --allow-private",
	RulePrivate:     "private (RFC 1918, ULA) addresses are refused unless the proxy runs with --allow-private",
	RuleLinkLocal:   "link-local addresses are refused unless the proxy runs with --allow-private",
	RuleCGNAT:       "shared (CGNAT) addresses are refused unless the proxy runs with --allow-private",
	RuleReserved:    "reserved, documentation and benchmarking addresses are refused unless the proxy runs with --allow-private",
	RuleDeny:        "the address is on the proxy's deny list",
	RuleClient:      "the client's address is not in the proxy's client allow-list",
	RulePort:        "CONNECT tunnels go only to the allowed ports (443 by default)",
	RuleNotProxy:    "this is a proxy: send absolute-form requests (GET http://host/path) or CONNECT",
	RuleScheme:      "the proxy forwards only http:// and https:// requests",
	RuleLoop:        "the request has already been through this proxy",
}

// errorBody is the JSON body of every error the proxy answers itself.
type errorBody struct {
	Error   string `json:"error"`
	Rule    Rule   `json:"rule,omitempty"`
	Address string `json:"address,omitempty"`
}

// refuse answers 403 for a broken rule, with a body naming it.
func (p *Proxy) refuse(w http.ResponseWriter, r *http.Request, ref *Refusal) {
	p.log.Info("proxy refused", "rule", string(ref.Rule), "address", ref.Addr, "client", r.RemoteAddr, "method", r.Method)
	msg := "refused by rule " + string(ref.Rule) + ": " + ref.Addr
	if h := ruleHelp[ref.Rule]; h != "" {
		msg += ": " + h
	}
	writeError(w, http.StatusForbidden, errorBody{Error: msg, Rule: ref.Rule, Address: ref.Addr})
}

// fail answers an upstream failure with its status (502, 503, 504, 413)
// and a body saying what went wrong.
func (p *Proxy) fail(w http.ResponseWriter, r *http.Request, status int, err error) {
	p.log.Info("proxy upstream failure", "status", status, "url", r.URL.Redacted(), "client", r.RemoteAddr, "err", err)
	writeError(w, status, errorBody{Error: http.StatusText(status) + ": " + err.Error()})
}

func writeError(w http.ResponseWriter, status int, body errorBody) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(body)
}

// upstreamError sends the answer for an error of the upstream exchange: a
// refusal is a 403, a request body over the limit 413, a timeout 504,
// anything else (refused connection, early close, garbage, a header over
// the limit) 502.
func (p *Proxy) upstreamError(w http.ResponseWriter, r *http.Request, err error, bodyTooLarge bool) {
	var ref *Refusal
	var ne net.Error
	switch {
	case errors.As(err, &ref):
		p.refuse(w, r, ref)
	case bodyTooLarge:
		p.fail(w, r, http.StatusRequestEntityTooLarge, errors.New("the request body is larger than the proxy's limit"))
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		p.fail(w, r, http.StatusGatewayTimeout, err)
	default:
		p.fail(w, r, http.StatusBadGateway, err)
	}
}
