package proxy

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"syscall"
	"time"
)

// Rule names a class of destination addresses the proxy refuses. The name
// is what a refusal's body and the Refusal error report.
type Rule string

// The destination rules, checked in this order on every address a host
// name resolves to (and on IP literals) at dial time. A rule marked
// "lifted by AllowPrivate" protects an intranet and its own host: tests and
// intranet deployments lift it. The others are never a web server a
// client means to reach through a proxy and stay refused even with
// AllowPrivate; only Config.Allow lets a listed address through.
const (
	RuleMetadata    Rule = "metadata"     // cloud instance metadata services: 169.254.169.254, fd00:ec2::254, 100.100.100.200...
	RuleUnspecified Rule = "unspecified"  // 0.0.0.0/8, :: (connecting to it reaches this host)
	RuleMulticast   Rule = "multicast"    // 224.0.0.0/4, ff00::/8
	RuleBroadcast   Rule = "broadcast"    // 255.255.255.255
	RuleLoopback    Rule = "loopback"     // 127.0.0.0/8, ::1 (lifted by AllowPrivate)
	RulePrivate     Rule = "private"      // RFC 1918 10/8, 172.16/12, 192.168/16; ULA fc00::/7; local NAT64 64:ff9b:1::/48 (lifted by AllowPrivate)
	RuleLinkLocal   Rule = "link-local"   // 169.254.0.0/16, fe80::/10 (lifted by AllowPrivate)
	RuleCGNAT       Rule = "cgnat"        // shared address space 100.64.0.0/10 (lifted by AllowPrivate)
	RuleReserved    Rule = "reserved"     // IETF, documentation, benchmarking and future-use ranges (lifted by AllowPrivate)
	RuleDeny        Rule = "deny-list"    // Config.Deny
	RuleClient      Rule = "client"       // the client is not in Config.Clients
	RulePort        Rule = "connect-port" // CONNECT to a port not in Config.ConnectPorts
	RuleNotProxy    Rule = "not-a-proxy-request"
	RuleScheme      Rule = "scheme" // neither http nor https
	RuleLoop        Rule = "loop"   // the request has already been through this proxy
)

// addrRule is one row of the destination table.
type addrRule struct {
	prefix   netip.Prefix
	rule     Rule
	liftable bool // AllowPrivate lifts it
}

// destRules is the destination table, in the order it is checked: the
// most specific rows first, so that the metadata addresses inside the
// link-local, CGNAT and ULA ranges are named (and kept refused) as such.
// IPv4-mapped IPv6 addresses are unmapped before the check; NAT64 and 6to4
// and IPv4-compatible addresses are checked again by the IPv4 address
// they embed.
var destRules = []addrRule{
	{netip.MustParsePrefix("169.254.169.254/32"), RuleMetadata, false}, // AWS, GCP, Azure, OpenStack, Oracle...
	{netip.MustParsePrefix("169.254.170.2/32"), RuleMetadata, false},   // AWS ECS task metadata
	{netip.MustParsePrefix("169.254.170.23/32"), RuleMetadata, false},  // AWS EKS pod identity
	{netip.MustParsePrefix("100.100.100.200/32"), RuleMetadata, false}, // Alibaba Cloud
	{netip.MustParsePrefix("fd00:ec2::254/128"), RuleMetadata, false},  // AWS over IPv6
	{netip.MustParsePrefix("fd00:ec2::23/128"), RuleMetadata, false},   // AWS EKS pod identity over IPv6
	{netip.MustParsePrefix("0.0.0.0/8"), RuleUnspecified, false},
	{netip.MustParsePrefix("::/128"), RuleUnspecified, false},
	{netip.MustParsePrefix("224.0.0.0/4"), RuleMulticast, false},
	{netip.MustParsePrefix("ff00::/8"), RuleMulticast, false},
	{netip.MustParsePrefix("255.255.255.255/32"), RuleBroadcast, false},
	{netip.MustParsePrefix("127.0.0.0/8"), RuleLoopback, true},
	{netip.MustParsePrefix("::1/128"), RuleLoopback, true},
	{netip.MustParsePrefix("10.0.0.0/8"), RulePrivate, true},
	{netip.MustParsePrefix("172.16.0.0/12"), RulePrivate, true},
	{netip.MustParsePrefix("192.168.0.0/16"), RulePrivate, true},
	{netip.MustParsePrefix("fc00::/7"), RulePrivate, true},
	{netip.MustParsePrefix("64:ff9b:1::/48"), RulePrivate, true}, // local-use NAT64 (RFC 8215)
	{netip.MustParsePrefix("169.254.0.0/16"), RuleLinkLocal, true},
	{netip.MustParsePrefix("fe80::/10"), RuleLinkLocal, true},
	{netip.MustParsePrefix("100.64.0.0/10"), RuleCGNAT, true},
	{netip.MustParsePrefix("192.0.0.0/24"), RuleReserved, true},    // IETF protocol assignments
	{netip.MustParsePrefix("192.0.2.0/24"), RuleReserved, true},    // documentation
	{netip.MustParsePrefix("198.18.0.0/15"), RuleReserved, true},   // benchmarking
	{netip.MustParsePrefix("198.51.100.0/24"), RuleReserved, true}, // documentation
	{netip.MustParsePrefix("203.0.113.0/24"), RuleReserved, true},  // documentation
	{netip.MustParsePrefix("240.0.0.0/4"), RuleReserved, true},     // future use
	{netip.MustParsePrefix("::/96"), RuleReserved, true},           // IPv4-compatible (deprecated)
	{netip.MustParsePrefix("100::/64"), RuleReserved, true},        // discard
	{netip.MustParsePrefix("2001:db8::/32"), RuleReserved, true},   // documentation
}

// Prefixes that embed an IPv4 address, checked again by that address.
var (
	nat64Prefix = netip.MustParsePrefix("64:ff9b::/96") // RFC 6052: the last 32 bits
	sixToFour   = netip.MustParsePrefix("2002::/16")    // RFC 3056: bits 16 to 48
	// IPv4-compatible addresses (deprecated, RFC 4291): the last 32 bits.
	ipv4Compatible = netip.MustParsePrefix("::/96")
)

// Refusal is the error of a destination or client the proxy refuses: the
// address (or host) and the rule it broke. Dial errors wrap it, so
// errors.As finds it under a transport's error.
type Refusal struct {
	Rule Rule
	Addr string // the address, host or client refused
}

func (e *Refusal) Error() string {
	return fmt.Sprintf("proxy: %s refused by rule %q", e.Addr, e.Rule)
}

// policy decides which destination addresses the proxy may connect to.
type policy struct {
	allowPrivate bool
	allow        []netip.Prefix // let through whatever the rules say
	deny         []netip.Prefix // refused whatever AllowPrivate says
}

// check returns the rule addr breaks, or "" when the proxy may connect to
// it.
func (p *policy) check(addr netip.Addr) Rule {
	addr = addr.WithZone("")
	if addr.Is4In6() {
		addr = addr.Unmap()
	}
	for _, pf := range p.allow {
		if pf.Contains(addr) {
			return ""
		}
	}
	for _, pf := range p.deny {
		if pf.Contains(addr) {
			return RuleDeny
		}
	}
	if v4, ok := embeddedIPv4(addr); ok {
		if r := p.check(v4); r != "" {
			return r
		}
	}
	return p.table(addr)
}

// table looks addr up in destRules.
func (p *policy) table(addr netip.Addr) Rule {
	for i := range destRules {
		r := &destRules[i]
		if r.prefix.Contains(addr) {
			if r.liftable && p.allowPrivate {
				return ""
			}
			return r.rule
		}
	}
	return ""
}

// embeddedIPv4 returns the IPv4 address a NAT64 or 6to4 address reaches.
func embeddedIPv4(addr netip.Addr) (netip.Addr, bool) {
	if !addr.Is6() {
		return netip.Addr{}, false
	}
	b := addr.As16()
	switch {
	case nat64Prefix.Contains(addr):
		return netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}), true
	case sixToFour.Contains(addr):
		return netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]}), true
	case ipv4Compatible.Contains(addr) && b[12] != 0: // not :: or ::1
		return netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}), true
	}
	return netip.Addr{}, false
}

// Resolver looks host names up; *net.Resolver implements it, and tests
// give their own to make a name resolve to any address.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// guardedDialer resolves a host itself, checks every address it resolves
// to and dials only a checked address, so that a name cannot resolve to
// one address when checked and another when dialled (DNS rebinding). The
// dialer's Control hook checks the socket's address once more, whatever
// path led to it.
type guardedDialer struct {
	policy   *policy
	resolver Resolver
	dialer   net.Dialer
}

func newGuardedDialer(p *policy, r Resolver, cfg *Config) *guardedDialer {
	g := &guardedDialer{policy: p, resolver: r}
	g.dialer = net.Dialer{Timeout: cfg.DialTimeout, KeepAlive: 30 * time.Second, Control: g.control}
	return g
}

// control is net.Dialer.Control: the last check, on the address the socket
// is about to connect to.
func (g *guardedDialer) control(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return &Refusal{Rule: RuleReserved, Addr: address}
	}
	if r := g.policy.check(ap.Addr()); r != "" {
		return &Refusal{Rule: r, Addr: address}
	}
	return nil
}

// resolve returns the addresses of host, all of them allowed, or a
// *Refusal naming the first that is not: a name with any forbidden address
// is refused whole, so that the order of the answers does not matter.
func (g *guardedDialer) resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	if a, err := netip.ParseAddr(host); err == nil {
		if r := g.policy.check(a); r != "" {
			return nil, &Refusal{Rule: r, Addr: host}
		}
		return []netip.Addr{a}, nil
	}
	addrs, err := g.resolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil, err
	}
	if len(addrs) == 0 {
		return nil, &net.DNSError{Err: "no addresses", Name: host, IsNotFound: true}
	}
	for _, a := range addrs {
		if r := g.policy.check(a); r != "" {
			return nil, &Refusal{Rule: r, Addr: fmt.Sprintf("%s (%s)", host, a)}
		}
	}
	return addrs, nil
}

// DialContext connects to address ("host:port") through the checks: it is
// the Transport's dialer and the CONNECT tunnels'.
func (g *guardedDialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return nil, err
	}
	addrs, err := g.resolve(ctx, host)
	if err != nil {
		return nil, err
	}
	var first error
	for _, a := range addrs {
		c, err := g.dialer.DialContext(ctx, network, net.JoinHostPort(a.String(), port))
		if err == nil {
			return c, nil
		}
		if first == nil {
			first = err
		}
		if ctx.Err() != nil {
			break
		}
	}
	return nil, first
}
