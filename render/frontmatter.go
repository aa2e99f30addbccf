package render

import (
	"bufio"
	"strconv"

	"github.com/sluice-project/sluice/page"
)

// writeFrontMatter writes the page's metadata as a YAML front matter block
// ("---" lines around "key: value" lines), as static site generators and
// trafilatura's --with-metadata write it: title, url, host, description,
// language, file and encoding, each only when known. Values are YAML
// double-quoted strings (strconv.Quote's escapes are valid in them for
// every character but those it writes as \x, which YAML also reads).
func writeFrontMatter(b *bufio.Writer, p *page.Page) {
	m := &p.Meta
	b.WriteString("---\n")
	for _, f := range [...]struct{ key, val string }{
		{"title", m.Title}, {"url", m.URL}, {"host", m.Host()}, {"description", m.Description},
		{"language", m.Lang}, {"file", m.File}, {"encoding", m.Encoding},
	} {
		if f.val == "" {
			continue
		}
		b.WriteString(f.key)
		b.WriteString(": ")
		b.WriteString(strconv.Quote(f.val))
		b.WriteByte('\n')
	}
	b.WriteString("---\n\n")
}
