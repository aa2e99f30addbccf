package metadata

import (
	"regexp"
	"slices"
	"strings"
)

// Dates in a page's scripts: many pages built by a JavaScript framework
// carry their publication date only in the state they hand to the
// browser ("publishedDate":"2019-08-16T00:00:00.000Z"), not in any
// <meta> or JSON-LD. When the markup gives no date, these keys are
// looked for in the scripts' text, in this order.
var scriptDateKeys = []string{
	"datePublished", "publishedDate", "publishDate", "published_at", "publishedAt",
	"date_published", "first_publication_date", "date_posted", "pubDate", "dateCreated",
	"createdAt", "created_at",
}

// scriptValue is a key's quoted value: `":"2019-08-16T00:00:00.000Z"`,
// with or without quotes around the key and spaces around the colon.
var scriptValue = regexp.MustCompile(`^\\?"?\s*:\s*\\?"([^"\\]{8,40})`)

// scriptDateNeedles are strings that the keys of scriptDateKeys hold
// between them: a script that holds none of a key's needle cannot hold
// the key, so five scans of each script rule out most of the twelve
// keys (large script bundles rarely name a date at all).
var scriptDateNeedles = []string{"ublish", "ublication", "date_posted", "pubDate", "reated"}

// scriptKeyNeedle is, for each key of scriptDateKeys, the index of a
// needle it holds.
var scriptKeyNeedle = func() []int {
	out := make([]int, len(scriptDateKeys))
	for k, key := range scriptDateKeys {
		out[k] = slices.IndexFunc(scriptDateNeedles, func(n string) bool { return strings.Contains(key, n) })
	}
	return out
}()

// scriptDate returns the first date given to one of scriptDateKeys in the
// scripts, YYYY-MM-DD, or "".
func scriptDate(code []string) string {
	needles := make([]uint8, len(code)) // per script, a bit for each needle it holds
	for j, s := range code {
		for n, needle := range scriptDateNeedles {
			if strings.Contains(s, needle) {
				needles[j] |= 1 << n
			}
		}
	}
	for k, key := range scriptDateKeys {
		for j, s := range code {
			if needles[j]&(1<<scriptKeyNeedle[k]) == 0 {
				continue
			}
			for rest, n := s, 0; n < 8; n++ {
				i := strings.Index(rest, key)
				if i < 0 {
					break
				}
				rest = rest[i+len(key):]
				if m := scriptValue.FindStringSubmatch(rest[:min(len(rest), 64)]); m != nil {
					if d := normDate(m[1]); d != "" {
						return d
					}
				}
			}
		}
	}
	return ""
}
