package metadata

import (
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/sluice-project/sluice/page"
)

// FuzzExtract: any page gives bounded metadata and no panic.
func FuzzExtract(f *testing.F) {
	f.Add(`<script type="application/ld+json">{"@type":"Article","author":{"name":"A"},"datePublished":"2024-01-02"}</script><h1>T</h1>`)
	f.Add(`<meta property="og:title" content="A | B"><div class="byline">By X</div><time datetime="March 5, 2024">`)
	f.Add(`<script>{"publishedDate":"2019-08-16"}</script><span class="date">5.3.2024</span>`)
	f.Fuzz(func(t *testing.T, src string) {
		root, err := html.Parse(strings.NewReader(src))
		if err != nil {
			return
		}
		var m page.Meta
		Extract(root, &m)
		for _, v := range []string{m.Headline, m.Author, m.SiteName, m.Canonical, m.Image, m.License, m.Description} {
			if len(v) > 16*maxValue {
				t.Fatalf("a value of %d bytes", len(v))
			}
		}
		for _, d := range []string{m.Published, m.Modified} {
			if d != "" && len(d) != len("2006-01-02") {
				t.Fatalf("date %q", d)
			}
		}
	})
}
