package proxy

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// addressClasses holds an address of every class the proxy refuses, in
// its plain and its IPv6-embedded forms, with the rule that refuses it and
// whether AllowPrivate lifts it.
var addressClasses = []struct {
	addr     string
	rule     Rule
	liftable bool
}{
	{"127.0.0.1", RuleLoopback, true},
	{"127.255.0.9", RuleLoopback, true},
	{"::1", RuleLoopback, true},
	{"::ffff:127.0.0.1", RuleLoopback, true},
	{"10.1.2.3", RulePrivate, true},
	{"172.16.0.1", RulePrivate, true},
	{"172.31.255.254", RulePrivate, true},
	{"192.168.1.1", RulePrivate, true},
	{"::ffff:192.168.1.1", RulePrivate, true},
	{"fc00::1", RulePrivate, true},
	{"fd12:3456:789a::1", RulePrivate, true},
	{"64:ff9b::a01:203", RulePrivate, true}, // NAT64 of 10.1.2.3
	{"2002:c0a8:101::1", RulePrivate, true}, // 6to4 of 192.168.1.1
	{"169.254.1.1", RuleLinkLocal, true},
	{"fe80::1", RuleLinkLocal, true},
	{"fe80::1%lo", RuleLinkLocal, true},
	{"::ffff:169.254.1.1", RuleLinkLocal, true},
	{"169.254.169.254", RuleMetadata, false},
	{"::ffff:169.254.169.254", RuleMetadata, false},
	{"::169.254.169.254", RuleMetadata, false}, // IPv4-compatible
	{"64:ff9b::a9fe:a9fe", RuleMetadata, false},
	{"169.254.170.2", RuleMetadata, false},
	{"fd00:ec2::254", RuleMetadata, false},
	{"100.100.100.200", RuleMetadata, false},
	{"0.0.0.0", RuleUnspecified, false},
	{"0.1.2.3", RuleUnspecified, false},
	{"::", RuleUnspecified, false},
	{"::ffff:0.0.0.0", RuleUnspecified, false},
	{"224.0.0.1", RuleMulticast, false},
	{"239.255.255.250", RuleMulticast, false},
	{"ff02::1", RuleMulticast, false},
	{"255.255.255.255", RuleBroadcast, false},
	{"::ffff:255.255.255.255", RuleBroadcast, false},
	{"100.64.0.1", RuleCGNAT, true},
	{"100.127.255.254", RuleCGNAT, true},
	{"192.0.2.1", RuleReserved, true},
	{"198.18.0.1", RuleReserved, true},
	{"240.0.0.1", RuleReserved, true},
	{"2001:db8::1", RuleReserved, true},
}

// publicAddresses are reachable web addresses the rules let through.
var publicAddresses = []string{"93.184.215.14", "8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:4700::6810:84e5", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1"}

func TestPolicy(t *testing.T) {
	strict := &policy{}
	open := &policy{allowPrivate: true}
	for _, c := range addressClasses {
		a := netip.MustParseAddr(c.addr)
		if got := strict.check(a); got != c.rule {
			t.Errorf("%s: rule %q, want %q", c.addr, got, c.rule)
		}
		want := c.rule
		if c.liftable {
			want = ""
		}
		if got := open.check(a); got != want {
			t.Errorf("%s with AllowPrivate: rule %q, want %q", c.addr, got, want)
		}
	}
	for _, s := range publicAddresses {
		if got := strict.check(netip.MustParseAddr(s)); got != "" {
			t.Errorf("public %s refused by rule %q", s, got)
		}
	}
	lists := &policy{
		allowPrivate: true,
		allow:        []netip.Prefix{netip.MustParsePrefix("169.254.169.254/32")},
		deny:         []netip.Prefix{netip.MustParsePrefix("10.9.0.0/16"), netip.MustParsePrefix("8.8.8.8/32")},
	}
	for addr, want := range map[string]Rule{"169.254.169.254": "", "10.9.1.1": RuleDeny, "::ffff:10.9.1.1": RuleDeny, "8.8.8.8": RuleDeny, "10.8.1.1": ""} {
		if got := lists.check(netip.MustParseAddr(addr)); got != want {
			t.Errorf("%s with Allow and Deny: rule %q, want %q", addr, got, want)
		}
	}
}

// TestRefusesEveryClass sends a request for an address of each class
// through the proxy, as an IP literal and as a name resolving to it, and
// a CONNECT to it: each is refused with a 403 naming the rule, without a
// connection attempt.
func TestRefusesEveryClass(t *testing.T) {
	var pairs []string
	for i, c := range addressClasses {
		if !strings.Contains(c.addr, "%") {
			pairs = append(pairs, fmt.Sprintf("host%d.test=%s", i, c.addr))
		}
	}
	res := resolver(pairs...)
	p, pu := startProxy(t, Config{Resolver: res, ConnectPorts: []int{443, 80}})
	c := proxyClient(pu)
	for i, cl := range addressClasses {
		host := cl.addr
		if strings.Contains(host, ":") {
			host = "[" + strings.Replace(host, "%", "%25", 1) + "]"
		}
		resp, body := get(t, c, "http://"+host+"/")
		wantRefusal(t, "GET "+cl.addr, resp, body, cl.rule)
		if !strings.Contains(cl.addr, "%") {
			name := fmt.Sprintf("host%d.test", i)
			resp, body = get(t, c, "http://"+name+":8080/x")
			wantRefusal(t, "GET "+name+" ("+cl.addr+")", resp, body, cl.rule)
		}
		req := httptest.NewRequest("CONNECT", "http://"+host+":443", nil)
		req.Host = net.JoinHostPort(strings.Trim(host, "[]"), "443")
		req.RemoteAddr = "127.0.0.1:3000"
		rec := httptest.NewRecorder()
		p.ServeHTTP(rec, req)
		wantRefusal(t, "CONNECT "+req.Host, rec.Result(), rec.Body.Bytes(), cl.rule)
	}
	checkUp := htmlUpstream(t, testPage)
	resp, body := get(t, c, checkUp.URL)
	wantRefusal(t, "the loopback test upstream without AllowPrivate", resp, body, RuleLoopback)
}

// TestNameResolution: a name with any forbidden address is refused whole,
// whatever the order of the answers; a name is resolved once per
// connection and the checked address is the one dialled; the dialer's
// Control hook refuses a forbidden socket address whatever led to it.
func TestNameResolution(t *testing.T) {
	up := htmlUpstream(t, testPage)
	upAddr := netip.MustParseAddrPort(strings.TrimPrefix(up.URL, "http://"))
	res := resolver(
		"mixed.test=93.184.215.14,192.168.1.1",
		"mixed2.test=10.0.0.1,93.184.215.14",
		"upstream.test=127.0.0.1",
	)
	p, pu := startProxy(t, Config{Resolver: res, Allow: []netip.Prefix{loopback}})
	c := proxyClient(pu)
	for _, name := range []string{"mixed.test", "mixed2.test"} {
		resp, body := get(t, c, "http://"+name+"/")
		wantRefusal(t, name, resp, body, RulePrivate)
	}
	res.lookups = 0
	resp, body := get(t, c, "http://upstream.test:"+strconv.Itoa(int(upAddr.Port()))+"/")
	if resp.StatusCode != 200 || !strings.Contains(string(body), "seven bridges") {
		t.Errorf("a name resolving to an allowed address: status %d, %.200q", resp.StatusCode, body)
	}
	if res.lookups != 1 {
		t.Errorf("%d lookups for one request, want 1", res.lookups)
	}
	for _, addr := range []string{"10.0.0.1:80", "[::ffff:169.254.169.254]:80", "127.0.0.2:80"} {
		err := p.dialer.control("tcp", addr, nil)
		var ref *Refusal
		if !errors.As(err, &ref) {
			t.Errorf("Control(%s) = %v, want a refusal", addr, err)
		}
	}
	if err := p.dialer.control("tcp", upAddr.String(), nil); err != nil {
		t.Errorf("Control(%s) = %v, want nil (Allow)", upAddr, err)
	}
}

// TestRedirectToPrivate: the proxy does not follow redirects; the client
// that follows one to a private address, by IP or by a name resolving to
// one, is refused there.
func TestRedirectToPrivate(t *testing.T) {
	var hits atomic.Int32
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		switch r.URL.Path {
		case "/to-ip":
			http.Redirect(w, r, "http://10.0.0.1/admin", http.StatusFound)
		case "/to-name":
			http.Redirect(w, r, "http://intranet.test/admin", http.StatusMovedPermanently)
		case "/to-metadata":
			http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusTemporaryRedirect)
		}
	}))
	defer up.Close()
	res := resolver("intranet.test=192.168.0.10")
	_, pu := startProxy(t, Config{Resolver: res, Allow: []netip.Prefix{loopback}})
	noFollow := proxyClient(pu)
	follow := &http.Client{Transport: noFollow.Transport}
	for path, rule := range map[string]Rule{"/to-ip": RulePrivate, "/to-name": RulePrivate, "/to-metadata": RuleMetadata} {
		hits.Store(0)
		resp, _ := get(t, noFollow, up.URL+path)
		if resp.StatusCode/100 != 3 || resp.Header.Get("Location") == "" || hits.Load() != 1 {
			t.Errorf("%s: status %d, Location %q, %d upstream hits: the redirect should reach the client unfollowed", path, resp.StatusCode, resp.Header.Get("Location"), hits.Load())
		}
		resp, body := get(t, follow, up.URL+path)
		wantRefusal(t, "following "+path, resp, body, rule)
	}
}
