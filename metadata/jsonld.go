package metadata

import (
	"encoding/json"
	"html"
	"strings"
)

// ldThing is what is read of one JSON-LD object.
type ldThing struct {
	types                     []string // lower case
	headline, name            string
	authors                   []string
	published, modified       string
	publisher, image, license string
	sections, keywords        []string
	lang, url                 string
}

// maxThings bounds the objects read from a page's JSON-LD.
const maxThings = 64

// jsonLD parses the scripts and returns their objects, top-level and in
// @graph, in order. Scripts that do not parse are skipped.
func jsonLD(scripts []string) []ldThing {
	var things []ldThing
	for _, s := range scripts {
		var v any
		if json.Unmarshal([]byte(s), &v) != nil {
			// Some pages end the object with a stray semicolon or comma.
			if json.Unmarshal([]byte(strings.TrimRight(s, "; ,\n\r\t")), &v) != nil {
				continue
			}
		}
		things = appendThings(things, v, 0)
	}
	return things
}

func appendThings(things []ldThing, v any, depth int) []ldThing {
	if depth > 3 || len(things) >= maxThings {
		return things
	}
	switch v := v.(type) {
	case []any:
		for _, e := range v {
			things = appendThings(things, e, depth+1)
		}
	case map[string]any:
		if g, ok := v["@graph"]; ok {
			things = appendThings(things, g, depth+1)
		}
		if _, ok := v["@type"]; ok {
			things = append(things, thing(v))
		}
		if me, ok := v["mainEntity"]; ok {
			things = appendThings(things, me, depth+1)
		}
	}
	return things
}

func thing(m map[string]any) ldThing {
	t := ldThing{
		types:     lower(strs(m["@type"])),
		headline:  str(m["headline"]),
		name:      str(m["name"]),
		authors:   names(m["author"]),
		published: str(m["datePublished"]),
		modified:  str(m["dateModified"]),
		image:     first(urls(m["image"])),
		license:   first(urls(m["license"])),
		sections:  strs(m["articleSection"]),
		keywords:  keywords(m["keywords"]),
		lang:      str(m["inLanguage"]),
		url:       str(m["url"]),
	}
	if t.published == "" {
		t.published = str(m["dateCreated"])
	}
	if p := names(m["publisher"]); len(p) > 0 {
		t.publisher = p[0]
	}
	return t
}

// str returns a string value, or the "@value" or "name" of an object.
func str(v any) string {
	switch v := v.(type) {
	case string:
		return clip(html.UnescapeString(v))
	case map[string]any:
		return cmpOr(str(v["@value"]), str(v["name"]))
	case []any:
		if len(v) > 0 {
			return str(v[0])
		}
	}
	return ""
}

// strs returns the strings of a value that is a string or an array.
func strs(v any) []string {
	switch v := v.(type) {
	case string:
		if s := clip(v); s != "" {
			return []string{s}
		}
	case []any:
		var out []string
		for _, e := range v {
			if s, ok := e.(string); ok && len(out) < 32 {
				if s = clip(s); s != "" {
					out = append(out, s)
				}
			}
		}
		return out
	}
	return nil
}

// names returns the names of persons or organisations: strings, objects
// with a name, or arrays of either.
func names(v any) []string {
	switch v := v.(type) {
	case string:
		if s := clip(html.UnescapeString(v)); s != "" && !isURL(s) {
			return []string{s}
		}
	case map[string]any:
		if s := str(v["name"]); s != "" {
			return []string{s}
		}
	case []any:
		var out []string
		for _, e := range v {
			if len(out) < 16 {
				out = append(out, names(e)...)
			}
		}
		return out
	}
	return nil
}

// urls returns addresses: strings, objects with a url or @id, arrays.
func urls(v any) []string {
	switch v := v.(type) {
	case string:
		if s := clip(v); s != "" {
			return []string{s}
		}
	case map[string]any:
		if s := cmpOr(str(v["url"]), str(v["contentUrl"]), str(v["@id"])); s != "" {
			return []string{s}
		}
	case []any:
		for _, e := range v {
			if u := urls(e); len(u) > 0 {
				return u
			}
		}
	}
	return nil
}

// keywords splits a keywords value: an array, or a comma-separated string.
func keywords(v any) []string {
	if s, ok := v.(string); ok {
		return splitList(s)
	}
	return strs(v)
}

func lower(ss []string) []string {
	for i, s := range ss {
		if k := strings.LastIndexAny(s, "/:"); k >= 0 {
			s = s[k+1:]
		}
		ss[i] = strings.ToLower(s)
	}
	return ss
}

func first(ss []string) string {
	if len(ss) == 0 {
		return ""
	}
	return ss[0]
}

func isURL(s string) bool {
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "/")
}
