package dataset

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"

	"github.com/sluice-project/sluice/page"
)

// L3S is the kind of L3S-GN1: original/X.html, annotated/X.html (the
// page with its text blocks wrapped in <span class="x-nc-selN">) and
// url-mapping.txt (l3s-gn1).
const L3S Kind = "l3s"

// l3sKind is the L3S-GN1 kind: span classes as gold, measured with
// bag-of-words F1.
type l3sKind struct{}

func (l3sKind) Kind() Kind                 { return L3S }
func (l3sKind) Layout() Layout             { return Layout{"original", ".html", "annotated", ".html"} }
func (l3sKind) Detect(string) bool         { return true }
func (l3sKind) MainMetric() string         { return "bow" }
func (l3sKind) DefaultStyle(string) string { return "main" }
func (l3sKind) Alignment() Alignment       { return AlignSpans }
func (l3sKind) Annotated() bool            { return false }

// Open reads url-mapping.txt. The pages' URLs come from it, and their
// charset is UTF-8: they were stored re-encoded while their <meta> still
// names the original charset.
func (l3sKind) Open(dir string) (GoldReader, error) {
	urls, err := readURLMapping(filepath.Join(dir, "url-mapping.txt"))
	if err != nil {
		return nil, err
	}
	return func(p *Page, gold []byte) error {
		p.URL = urls[p.ID]
		p.Charset = "utf-8"
		return readL3S(p, gold)
	}, nil
}

// l3sClass returns the N of an x-nc-selN class of n, or -1.
func l3sClass(n *html.Node) int {
	for _, a := range n.Attr {
		if a.Key != "class" || a.Namespace != "" || !strings.Contains(a.Val, "x-nc-sel") {
			continue
		}
		for _, f := range strings.Fields(a.Val) {
			if rest, ok := strings.CutPrefix(f, "x-nc-sel"); ok && len(rest) == 1 && '0' <= rest[0] && rest[0] <= '9' {
				return int(rest[0] - '0')
			}
		}
	}
	return -1
}

// readL3S fills p's gold from an L3S-GN1 annotated page. Every text node
// gets the class of its innermost <span class="x-nc-selN"> ancestor (the
// annotation nests spans, mostly class 0 in class 0), or class 0 when it
// has none, since the data set counts unselected text as boilerplate; it
// is hidden when an ancestor (or itself) has the class x-nc-invisible.
// Consecutive text of one span element within one block is one Span.
// Text is SpanText(1, 2).
//
// The annotated pages were saved by the annotation tool, which lost
// characters outside ISO-8859-1: curly quotes and dashes are "?" there
// while original/ has them (as UTF-8), so gold text shows "Kosovo?s" where
// the page says "Kosovo’s".
func readL3S(p *Page, gold []byte) error {
	p.Gold.Raw = decodeText(gold)
	doc, err := parseHTML(p.Gold.Raw)
	if err != nil {
		return err
	}
	p.Gold.Spans = l3sSpans(doc)
	p.Gold.Text = p.Gold.SpanText(ClassHeadline, ClassFullText)
	return nil
}

func l3sSpans(doc *html.Node) []Span {
	var spans []Span
	var cur bytes.Buffer // raw text of the last span
	var owner *html.Node // the last span's element (nil: outside any span)
	lastBlock := -1
	spaceAfter := false // white space since the last span's text
	flush := func() {
		if len(spans) > 0 {
			spans[len(spans)-1].Text = collapse(cur.String())
		}
		cur.Reset()
	}
	w := textWalker{visit: func(n *html.Node, text string, block int, _ page.Label) {
		if strings.TrimFunc(text, isSpace) == "" {
			spaceAfter = true
			return
		}
		class, el, hidden := ClassBoilerplate, (*html.Node)(nil), false
		for a := n.Parent; a != nil; a = a.Parent {
			if a.Type != html.ElementNode {
				continue
			}
			if el == nil {
				if c := l3sClass(a); c >= 0 {
					class, el = c, a
				}
			}
			if !hidden && hasClass(a, "x-nc-invisible") {
				hidden = true
			}
		}
		if len(spans) > 0 && block == lastBlock && el == owner && hidden == spans[len(spans)-1].Hidden {
			cur.WriteString(text)
			spaceAfter = isSpace(lastRune(text))
			return
		}
		flush()
		glued := len(spans) > 0 && block == lastBlock && !spaceAfter && !isSpace(firstRune(text))
		spans = append(spans, Span{Class: class, Hidden: hidden, Block: block, Glued: glued})
		cur.WriteString(text)
		owner, lastBlock = el, block
		spaceAfter = isSpace(lastRune(text))
	}}
	w.walk(doc)
	flush()
	return spans
}

func firstRune(s string) rune {
	for _, r := range s {
		return r
	}
	return 0
}

func lastRune(s string) rune {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}

// readURLMapping reads the L3S-GN1 url-mapping.txt: one line per page,
// "<urn:uuid:UUID>", a tab, the URL. It returns the URL by uuid. A missing
// file gives an empty map (pages then have no URL); a line it cannot read
// is an error naming the file and line.
func readURLMapping(path string) (map[string]string, error) {
	m := map[string]string{}
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return m, nil
	}
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		key, u, ok := strings.Cut(line, "\t")
		if !ok {
			key, u, ok = strings.Cut(line, " ")
		}
		key = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(key), "<"), ">")
		key = strings.TrimPrefix(key, "urn:uuid:")
		if !ok || key == "" {
			return nil, fmt.Errorf("dataset: %s:%d: want \"<urn:uuid:UUID>\", a tab and the URL, got %q", path, n, line)
		}
		m[key] = strings.TrimSpace(u)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("dataset: %s: %w", path, err)
	}
	return m, nil
}
