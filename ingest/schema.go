package ingest

import (
	"bytes"
	"slices"
	"strings"
)

// The types a page declares for itself: schema.org types in JSON-LD
// ("@type": "Product") and microdata (itemtype="https://schema.org/Product"),
// and the Open Graph og:type (read by headMeta). They are vocabularies of
// the markup, the same in every language, and say what kind of page it is
// (a product, an article, a thread, a list), which the labeller's page
// features read (page.Meta.Types).

// maxTypes bounds the types recorded for a page.
const maxTypes = 16

// maxTypeLen bounds one type's name.
const maxTypeLen = 40

// declaredTypes returns the distinct schema.org types declared in b, lower
// case, in order of first appearance, at most maxTypes.
func declaredTypes(b []byte) []string {
	var types []string
	add := func(t []byte) {
		if len(t) == 0 || len(t) > maxTypeLen || len(types) >= maxTypes {
			return
		}
		s := strings.ToLower(string(t))
		if !slices.Contains(types, s) {
			types = append(types, s)
		}
	}
	for _, k := range typeKeys {
		key, rest := []byte(k.key), b
		for len(types) < maxTypes {
			i := indexAnchored(rest, key, k.anchor)
			if i < 0 {
				break
			}
			rest = rest[i+len(key):]
			if key[0] == '"' {
				rest = jsonTypes(rest, add)
			} else {
				add(typeName(rest))
			}
		}
	}
	return types
}

// typeKeys are what announces a declared type, each with its rarest byte in
// HTML (of the bytes searched for first, '"' and 's' are everywhere: the
// page is read several times faster this way).
var typeKeys = [...]struct {
	key    string
	anchor int
}{{`"@type"`, 1}, {`schema.org/`, 6}}

// indexAnchored returns the index of key in b, or -1, looking for its byte
// key[anchor] with IndexByte first.
func indexAnchored(b, key []byte, anchor int) int {
	c := key[anchor]
	for off := anchor; off < len(b); {
		k := bytes.IndexByte(b[off:], c)
		if k < 0 {
			return -1
		}
		at := off + k - anchor
		if at+len(key) <= len(b) && bytes.Equal(b[at:at+len(key)], key) {
			return at
		}
		off += k + 1
	}
	return -1
}

// jsonTypes reads the value after "@type": a string or an array of
// strings, giving each to add, and returns what follows.
func jsonTypes(b []byte, add func([]byte)) []byte {
	b = bytes.TrimLeft(b, " \t\r\n")
	if len(b) == 0 || b[0] != ':' {
		return b
	}
	b = bytes.TrimLeft(b[1:], " \t\r\n")
	array := len(b) > 0 && b[0] == '['
	if array {
		b = b[1:]
	}
	for n := 0; n < maxTypes; n++ {
		b = bytes.TrimLeft(b, " \t\r\n,")
		if len(b) == 0 || b[0] != '"' {
			return b
		}
		end := bytes.IndexByte(b[1:], '"')
		if end < 0 {
			return b
		}
		v := b[1 : 1+end]
		if k := bytes.LastIndexAny(v, "/:"); k >= 0 {
			v = v[k+1:] // "http://schema.org/Product", "schema:Product"
		}
		add(typeName(v))
		b = b[end+2:]
		if !array {
			return b
		}
	}
	return b
}

// typeName returns the leading run of ASCII letters of b (a schema.org
// type name).
func typeName(b []byte) []byte {
	n := 0
	for n < len(b) && n <= maxTypeLen && (b[n]|0x20 >= 'a' && b[n]|0x20 <= 'z') {
		n++
	}
	return b[:n]
}
