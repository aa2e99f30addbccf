package render

import (
	"bufio"
	"strconv"
	"strings"

	"github.com/sluice-project/sluice/page"
)

// writeFrontMatter writes the page's metadata as a YAML front matter block
// ("---" lines around "key: value" lines), as static site generators and
// trafilatura's --with-metadata write it: title (the headline, without the
// site's name, else the document's title), author, date (published),
// modified, sitename, url, canonical, host, description, image, license,
// language, categories and tags (comma-separated), file and encoding,
// each only when known. Values are YAML
// double-quoted strings (strconv.Quote's escapes are valid in them for
// every character but those it writes as \x, which YAML also reads).
func writeFrontMatter(b *bufio.Writer, p *page.Page) {
	m := &p.Meta
	b.WriteString("---\n")
	title := m.Headline
	if title == "" {
		title = m.Title
	}
	for _, f := range [...]struct{ key, val string }{
		{"title", title}, {"author", m.Author}, {"date", m.Published}, {"modified", m.Modified},
		{"sitename", m.SiteName}, {"url", m.URL}, {"canonical", m.Canonical}, {"host", m.Host()},
		{"description", m.Description}, {"image", m.Image}, {"license", m.License}, {"language", m.Lang},
		{"categories", strings.Join(m.Categories, ", ")}, {"tags", strings.Join(m.Tags, ", ")},
		{"file", m.File}, {"encoding", m.Encoding},
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
