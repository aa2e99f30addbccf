package metadata

import (
	"strings"
	"unicode/utf8"
)

// titleSeps are the separators between a page's title and its site's
// name in a <title> or og:title.
var titleSeps = []string{" | ", " - ", " – ", " — ", " :: ", " · ", " » ", " • ", " ~ "}

// cleanTitle removes the site's name from a title: a first or last part,
// between separators, that is the site's name or host, or that is short
// beside the rest. When the page's <h1> is the title's remaining text or
// a prefix of it, the h1 is the title.
func cleanTitle(title, h1, site, host string) string {
	parts, seps := splitTitle(title)
	for len(parts) > 1 {
		last, firstP := parts[len(parts)-1], parts[0]
		switch {
		case isSite(last, site, host) || (!isSite(firstP, site, host) && short(last, parts[:len(parts)-1])):
			parts, seps = parts[:len(parts)-1], seps[:len(seps)-1]
		case isSite(firstP, site, host) || short(firstP, parts[1:]):
			parts, seps = parts[1:], seps[1:]
		default:
			return join(parts, seps)
		}
	}
	t := join(parts, seps)
	if h1 != "" && t != "" && strings.HasPrefix(strings.ToLower(t), strings.ToLower(h1)) && utf8.RuneCountInString(h1)*2 >= utf8.RuneCountInString(t) {
		return h1
	}
	if t == "" {
		return h1
	}
	return t
}

// splitTitle splits at every separator, returning the parts and the
// separators between them.
func splitTitle(t string) (parts, seps []string) {
	for {
		at, sep := -1, ""
		for _, s := range titleSeps {
			if i := strings.Index(t, s); i > 0 && (at < 0 || i < at) {
				at, sep = i, s
			}
		}
		if at < 0 {
			return append(parts, strings.TrimSpace(t)), seps
		}
		parts = append(parts, strings.TrimSpace(t[:at]))
		seps = append(seps, sep)
		t = t[at+len(sep):]
	}
}

func join(parts, seps []string) string {
	var sb strings.Builder
	for i, p := range parts {
		if i > 0 {
			sb.WriteString(seps[i-1])
		}
		sb.WriteString(p)
	}
	return sb.String()
}

// isSite reports whether a title part is the site's name or its host.
func isSite(part, site, host string) bool {
	p := strings.ToLower(strings.TrimSpace(part))
	if p == "" {
		return false
	}
	if site != "" && (p == strings.ToLower(site) || strings.Contains(strings.ToLower(site), p) && len(p) >= 4) {
		return true
	}
	if host != "" {
		squashed := strings.ReplaceAll(p, " ", "")
		name, _, _ := strings.Cut(host, ".")
		return p == host || strings.HasPrefix(host, squashed+".") || squashed == name
	}
	return false
}

// short reports whether a part has at most 3 words while the rest has at
// least twice its length: a site's name beside a headline.
func short(part string, rest []string) bool {
	if len(strings.Fields(part)) > 3 {
		return false
	}
	n := 0
	for _, r := range rest {
		n += utf8.RuneCountInString(r)
	}
	return n >= 2*utf8.RuneCountInString(part)
}
