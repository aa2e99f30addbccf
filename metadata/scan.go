package metadata

import (
	"regexp"
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

// scriptDate returns the first date given to one of scriptDateKeys in the
// scripts, YYYY-MM-DD, or "".
func scriptDate(code []string) string {
	for _, key := range scriptDateKeys {
		for _, s := range code {
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
