package inputs

import (
	"net/url"
	"path"
	"strings"
)

// IsURL reports whether arg is an http:// or https:// address.
func IsURL(arg string) bool {
	l := strings.ToLower(arg)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")
}

// URLRel names the page at an address as a relative path, for an output
// file: the host, then the path's segments ("index" for a path ending in
// /), each reduced to letters, digits, '.', '-' and '_' (others become
// '_'); "..", "." and empty segments are left out. The query is left out,
// so two addresses that differ only there have one name (the caller
// refuses such a clash).
func URLRel(addr string) string {
	u, err := url.Parse(addr)
	if err != nil || u.Host == "" {
		return safeSegment(addr)
	}
	segs := []string{safeSegment(strings.ToLower(u.Host))}
	for _, s := range strings.Split(u.Path, "/") {
		if s = safeSegment(s); s != "" && s != "." && s != ".." {
			segs = append(segs, s)
		}
	}
	if len(segs) == 1 || strings.HasSuffix(u.Path, "/") {
		segs = append(segs, "index")
	}
	return path.Join(segs...)
}

func safeSegment(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_') {
			b[i] = '_'
		}
	}
	if len(b) > 100 {
		b = b[:100]
	}
	return strings.Trim(string(b), ".")
}
