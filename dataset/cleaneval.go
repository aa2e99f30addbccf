package dataset

import (
	"bytes"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/net/html"

	"github.com/sluice-project/sluice/page"
)

// CleanEval is the kind of the CleanEval task's sets (cleaneval-dev,
// cleanportaleval): html/N.html, with the CleanEval <text id=...>
// wrapper, and gold/N.txt, a "URL:" line and then segments opened by <p>,
// <h> or <l>.
const CleanEval Kind = "cleaneval"

// cleanEvalKind is the CleanEval kind. Its gold labels its segments, and
// it is measured with the task's own metric.
type cleanEvalKind struct{}

func (cleanEvalKind) Kind() Kind                      { return CleanEval }
func (cleanEvalKind) Layout() Layout                  { return Layout{"html", ".html", "gold", ".txt"} }
func (cleanEvalKind) Open(string) (GoldReader, error) { return readCleanEval, nil }
func (cleanEvalKind) MainMetric() string              { return "cleaneval" }
func (cleanEvalKind) Alignment() Alignment            { return AlignSegments }
func (cleanEvalKind) Annotated() bool                 { return false }

// Detect reports whether one of the first three gold files (in natural
// order) starts with the "URL:" line; gold/*.txt without it is Dragnet's.
func (cleanEvalKind) Detect(dir string) bool {
	txt, _ := stems(filepath.Join(dir, "gold"), ".txt")
	slices.SortFunc(txt, compareIDs)
	for _, id := range txt[:min(len(txt), 3)] {
		b, err := readHead(filepath.Join(dir, "gold", id+".txt"), 4096)
		if err == nil && startsWithURLLine(decodeText(b)) {
			return true
		}
	}
	return false
}

// DefaultStyle is "cleaneval" for the CleanEval task's own sets (names
// starting with "cleaneval", such as cleaneval-dev), whose annotators kept
// all running text, and "main" for the others: CleanPortalEval, though in
// CleanEval's format, keeps a page's main content.
func (cleanEvalKind) DefaultStyle(name string) string {
	if strings.HasPrefix(name, "cleaneval") {
		return "cleaneval"
	}
	return "main"
}

// readCleanEval fills p from a CleanEval page: the URL from the HTML's
// <text id=...> wrapper (or else the gold's URL: line), the site from a
// cleanportaleval file name, and the gold.
func readCleanEval(p *Page, gold []byte) error {
	var goldURL string
	p.Gold, goldURL = ReadCleanEvalGold(gold)
	p.URL = wrapperURL(p.HTML)
	if p.URL == "" {
		p.URL = goldURL
	}
	p.Site = siteFromName(p.ID)
	return nil
}

// ReadCleanEvalGold reads a gold file in CleanEval format, as the cleaneval
// sets' gold files are read (see Gold): a "URL:" line, then segments opened
// by <p>, <h> or <l>. It returns the gold, with Raw, Text and Segments set,
// and the URL of its URL: line ("" when it has none). Text before the first
// tag, or in a file without tags, is a paragraph.
func ReadCleanEvalGold(b []byte) (g Gold, url string) {
	g.Raw = decodeText(b)
	url, g.Segments = parseCleanEval(g.Raw)
	g.Text = segmentsText(g.Segments)
	return g, url
}

// siteFromName returns the site a cleanportaleval file name starts with:
// "bbc.co.uk_news_01" is "bbc.co.uk". Names whose part before the first
// "_" is not a host name (no dot) give "".
func siteFromName(id string) string {
	site, _, ok := strings.Cut(id, "_")
	if !ok || !strings.Contains(site, ".") {
		return ""
	}
	return strings.TrimPrefix(strings.ToLower(site), "www.")
}

// wrapperURL returns the id attribute of the CleanEval wrapper
// <text id="URL" ...> that opens b (after white space or a byte order
// mark), or "" when b does not open with one.
func wrapperURL(b []byte) string {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	b = bytes.TrimLeft(b, " \t\r\n\f")
	if len(b) < 6 || !bytes.EqualFold(b[:5], []byte("<text")) {
		return ""
	}
	z := html.NewTokenizer(bytes.NewReader(b))
	if z.Next() != html.StartTagToken {
		return ""
	}
	name, hasAttr := z.TagName()
	if string(name) != "text" {
		return ""
	}
	for hasAttr {
		var k, v []byte
		k, v, hasAttr = z.TagAttr()
		if string(k) == "id" {
			return strings.TrimSpace(string(v))
		}
	}
	return ""
}

var (
	// ceTag matches the CleanEval segment tags.
	ceTag = regexp.MustCompile(`(?i)<[phl]>`)
	// ceClose matches closing tags, which are not part of the format but
	// occur (cleanportaleval washingtonpost.com_blog1_6) and are dropped.
	ceClose = regexp.MustCompile(`(?i)</[phl]>`)
	// ceComment matches HTML comments, which some gold files hold instead
	// of content (cleanportaleval bbc.co.uk_news_04: "<!-- this page
	// contains no article -->").
	ceComment = regexp.MustCompile(`(?s)<!--.*?-->`)
	// entity matches a character reference with its semicolon. References
	// without one are left alone: gold text such as "AT&T" or "R&D" is
	// more likely than a bare "&amp".
	entity = regexp.MustCompile(`&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});`)
)

// parseCleanEval splits CleanEval gold text into its URL and segments.
//
// The format: a first line "URL: ..." (ending at "\n", "\r\n" or a lone
// "\r"; the address is on the next line in a few cleaneval-dev files,
// "URL: \nhttp://..."), then segments each opened by <p>, <h> or <l> and
// running to the next tag, line breaks inside them being the original
// layout. Text before the first tag
// becomes a Paragraph segment. Each segment's text has its character
// references decoded (cleanportaleval keeps &#8217; and friends) and its
// white space collapsed; empty segments are dropped. A malformed tag such
// as "<pIn" (cleaneval-dev 53) stays text, as the CleanEval scorer sees
// it.
func parseCleanEval(s string) (url string, segs []Segment) {
	s = strings.TrimPrefix(s, "\ufeff")
	s = strings.TrimLeft(s, " \t\r\n")
	if rest, ok := strings.CutPrefix(s, "URL:"); ok {
		line, after := cutLine(rest)
		url, s = strings.TrimSpace(line), after
		if url == "" {
			// The address on the next non-blank line, if that line is one.
			t := strings.TrimLeft(s, " \t\r\n")
			line, after := cutLine(t)
			line = strings.TrimSpace(line)
			if line != "" && !strings.ContainsAny(line, "< \t") && strings.Contains(line, "://") {
				url, s = line, after
			}
		}
	}
	s = ceComment.ReplaceAllString(s, " ")
	s = ceClose.ReplaceAllString(s, " ")
	label := page.Paragraph
	start := 0
	add := func(text string) {
		if t := collapse(unescapeEntities(text)); t != "" {
			segs = append(segs, Segment{Label: label, Text: t})
		}
	}
	for _, m := range ceTag.FindAllStringIndex(s, -1) {
		add(s[start:m[0]])
		start = m[1]
		switch s[m[0]+1] | 0x20 {
		case 'h':
			label = page.Heading
		case 'l':
			label = page.ListItem
		default:
			label = page.Paragraph
		}
	}
	add(s[start:])
	return url, segs
}

// cutLine cuts s after its first line, which ends at "\n", "\r\n" or a
// lone "\r" (old Mac files): the URL line must not keep a line break.
func cutLine(s string) (line, rest string) {
	i := strings.IndexAny(s, "\r\n")
	if i < 0 {
		return s, ""
	}
	if s[i] == '\r' && strings.HasPrefix(s[i+1:], "\n") {
		return s[:i], s[i+2:]
	}
	return s[:i], s[i+1:]
}

// startsWithURLLine reports whether s, after blank lines, opens with the
// CleanEval "URL:" line.
func startsWithURLLine(s string) bool {
	s = strings.TrimPrefix(s, "\ufeff")
	return strings.HasPrefix(strings.TrimLeft(s, " \t\r\n"), "URL:")
}

// unescapeEntities decodes the character references in s that end with a
// semicolon.
func unescapeEntities(s string) string {
	if !strings.Contains(s, "&") {
		return s
	}
	return entity.ReplaceAllStringFunc(s, html.UnescapeString)
}

// segmentsText joins the segments' texts with blank lines.
func segmentsText(segs []Segment) string {
	ps := make([]string, len(segs))
	for i, s := range segs {
		ps[i] = s.Text
	}
	return joinParagraphs(ps)
}
