package crawlsort

import (
	"net"
	"net/url"
	"strings"

	"golang.org/x/net/idna"
)

// NoHost is the key of the records that have no host: no WARC-Target-URI
// (warcinfo records, most metadata records), or one without a host that
// can be read. They are written first, as the key sorts before every host.
const NoHost = "-"

// HostKey returns the host a record with target URI uri is sorted under:
// the host of the URI in lower case; an internationalised name in its
// ASCII (punycode) form, so that "bücher.example" and
// "xn--bcher-kva.example" are one host; without a trailing dot, without
// its port (any port, as sluice corpus --site groups pages: the sort must
// not split what corpus sees as one host) and without a leading "www."
// (which corpus --site also drops: it names the same site). IP addresses
// are kept as written (IPv6 without its brackets). A dns: URI (Heritrix's
// DNS records) gives the name looked up. Anything else gives NoHost.
func HostKey(uri string) string {
	uri = strings.TrimSpace(uri)
	if uri == "" {
		return NoHost
	}
	u, err := url.Parse(uri)
	if err != nil {
		return NoHost
	}
	h := u.Hostname()
	if h == "" && strings.EqualFold(u.Scheme, "dns") {
		h = u.Opaque
	}
	return normalHost(h)
}

// normalHost is the key of host name h (see HostKey).
func normalHost(h string) string {
	h = strings.TrimSuffix(strings.ToLower(h), ".")
	if h == "" {
		return NoHost
	}
	if net.ParseIP(h) != nil {
		return h
	}
	if a, err := idna.Lookup.ToASCII(h); err == nil {
		h = a
	} else if a, err := idna.Punycode.ToASCII(h); err == nil {
		h = strings.ToLower(a)
	}
	if k, ok := strings.CutPrefix(h, "www."); ok && k != "" {
		h = k
	}
	for i := 0; i < len(h); i++ {
		if c := h[i]; c <= ' ' || c == 0x7f {
			return NoHost // a key is a field of a line: no tabs, no line ends
		}
	}
	return h
}
