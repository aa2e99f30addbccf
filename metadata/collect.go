package metadata

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/sluice-project/sluice/dom"
	lowername "github.com/sluice-project/sluice/internal/lower"
)

// Bounds on what is read from one page.
const (
	maxValue   = 2048    // one meta value, kept after trimming
	maxScripts = 16      // JSON-LD scripts parsed
	maxScript  = 1 << 20 // bytes of one JSON-LD script
	maxText    = 300     // characters of an element's text (h1, byline)
	maxNodes   = 1 << 20 // elements visited
)

// found is what one walk over the tree collects.
type found struct {
	meta    map[string][]string // lower-cased name/property/itemprop → contents, in order
	links   map[string]string   // rel → the first href
	scripts []string            // JSON-LD texts
	code    []string            // the text of other scripts (shared, not copied)
	title   string              // the first <title>
	h1      string              // the first <h1>'s text
	byline  string              // the first element marked as a byline or author
	times   []string            // datetime attributes of <time> elements (the first few)
	dated   string              // the first date in the text of an element marked as a date
	lang    string              // <html lang>
}

func (f *found) add(key, val string) {
	val = clip(val)
	if key == "" || val == "" {
		return
	}
	if len(f.meta[key]) < 32 {
		f.meta[key] = append(f.meta[key], val)
	}
}

// first returns the first value of the first key that has one.
func (f *found) first(keys ...string) string {
	for _, k := range keys {
		if v := f.meta[k]; len(v) > 0 {
			return v[0]
		}
	}
	return ""
}

// collect walks the tree once.
func collect(root dom.Node) *found {
	f := &found{meta: map[string][]string{}, links: map[string]string{}}
	n := 0
	var walk func(dom.Node)
	walk = func(nd dom.Node) {
		for c := nd.FirstChild(); !c.Nil() && n < maxNodes; c = c.NextSibling() {
			if c.Type() != html.ElementNode {
				continue
			}
			n++
			f.element(c)
			if a := c.Atom(); a != atom.Script && a != atom.Style && a != atom.Title {
				walk(c)
			}
		}
	}
	walk(root)
	return f
}

// element reads one element.
func (f *found) element(c dom.Node) {
	switch c.Atom() {
	case atom.Html:
		f.lang = strings.TrimSpace(attr(c, "lang"))
	case atom.Title:
		if f.title == "" {
			f.title = clip(text(c, maxValue))
		}
		return
	case atom.Meta:
		key := strings.ToLower(cmpOr(attr(c, "property"), attr(c, "name"), attr(c, "itemprop"), attr(c, "http-equiv")))
		f.add(strings.TrimSpace(key), attr(c, "content"))
		return
	case atom.Link:
		href := strings.TrimSpace(attr(c, "href"))
		for _, rel := range strings.Fields(strings.ToLower(attr(c, "rel"))) {
			if _, ok := f.links[rel]; !ok && href != "" {
				f.links[rel] = clip(href)
			}
		}
		if ip := attr(c, "itemprop"); ip != "" {
			f.add("itemprop:"+strings.ToLower(ip), href)
		}
		return
	case atom.Script:
		if strings.Contains(strings.ToLower(attr(c, "type")), "ld+json") && len(f.scripts) < maxScripts {
			if t := text(c, maxScript); t != "" {
				f.scripts = append(f.scripts, t)
			}
		} else if k := c.FirstChild(); !k.Nil() && k.Type() == html.TextNode && len(f.code) < 64 {
			f.code = append(f.code, k.Data())
		}
		return
	case atom.Time:
		if dt := attr(c, "datetime"); dt != "" && len(f.times) < 8 {
			f.times = append(f.times, clip(dt))
		}
	case atom.H1:
		if f.h1 == "" {
			f.h1 = text(c, maxText)
		}
	}
	if c.NumAttr() == 0 {
		return
	}
	m := marksOf(c)
	if m.itemprop != "" {
		f.itemprop(c, strings.ToLower(m.itemprop))
	}
	if f.byline == "" && m.byline(c) {
		f.byline = bylineName(c)
	}
	if f.dated == "" && m.date(c) {
		if t := text(c, 81); len(t) <= 80 {
			f.dated = normDate(t)
		}
	}
}

// marks are the attributes of an element that the checks of every
// element read, found in one pass over its attributes.
type marks struct {
	class, id, rel, itemprop string
	named                    int // what the class and id name (scan), once scanned
}

func marksOf(c dom.Node) marks {
	var m marks
	for i := range c.NumAttr() {
		switch key, val, _ := c.AttrAt(i); key {
		case "class":
			m.class = val
		case "id":
			m.id = val
		case "rel":
			m.rel = val
		case "itemprop":
			m.itemprop = val
		}
	}
	return m
}

// markable reports whether an element can be a byline or a date: not the
// document's frame, nor an element without text.
func markable(c dom.Node) bool {
	switch c.Atom() {
	case atom.Html, atom.Body, atom.Head, atom.Style, atom.Script, atom.Link, atom.Meta, atom.Img:
		return false
	}
	return true
}

// date reports whether an element's class or id names it a date
// ("date", "post-date", "published", "posted-on", "timestamp").
func (m *marks) date(c dom.Node) bool {
	if !markable(c) {
		return false
	}
	m.scan()
	return m.named&namedDate != 0
}

// itemprop reads a microdata property: its content, datetime or href
// attribute, else its text (for author, the text of its name).
func (f *found) itemprop(c dom.Node, ip string) {
	v := cmpOr(attr(c, "content"), attr(c, "datetime"))
	if v == "" && (c.Atom() == atom.A || c.Atom() == atom.Img) {
		v = cmpOr(attr(c, "href"), attr(c, "src"))
		if ip == "author" || ip == "name" || ip == "headline" {
			v = "" // the text says more than a link
		}
	}
	if v == "" {
		v = text(c, maxText+1)
		if len(v) > maxText {
			return
		}
	}
	for _, p := range strings.Fields(ip) {
		f.add("itemprop:"+p, v)
	}
}

// byline reports whether an element's rel, class or id names it a
// byline: rel="author", or a class or id holding "byline" or "author"
// (not "authorization").
func (m *marks) byline(c dom.Node) bool {
	if !markable(c) {
		return false
	}
	if strings.EqualFold(m.rel, "author") {
		return true
	}
	m.scan()
	return m.named&namedByline != 0
}

// The names scan finds in a class or id.
const (
	namedDate = 1 << iota
	namedByline
	scanned
)

// scan sets m.named from the class and the id, once: each is read in one
// pass, ASCII letters compared without regard to case. A value with other
// than ASCII is lower-cased first (strings.ToLower), which is how the
// names were first compared.
func (m *marks) scan() {
	if m.named&scanned != 0 {
		return
	}
	m.named = scanned
	for _, v := range [...]string{m.class, m.id} {
		if !lowername.IsASCII(v) {
			v = strings.ToLower(v)
		}
		m.named |= scanNames(v)
	}
}

// scanNames returns what one value, lower case or ASCII, names: a date
// ("date" but not with "candidate"; "publish", "posted", "timestamp") or
// a byline ("byline", or "author" but not with "authori").
func scanNames(v string) int {
	var date, candidate, published, byline, author, authori bool
	for i := range len(v) {
		if !nameStarts[v[i]] {
			continue
		}
		switch rest := v[i:]; v[i] | 0x20 {
		case 'd':
			date = date || lowername.HasPrefix(rest, "date")
		case 'c':
			candidate = candidate || lowername.HasPrefix(rest, "candidate")
		case 'p':
			published = published || lowername.HasPrefix(rest, "publish") || lowername.HasPrefix(rest, "posted")
		case 't':
			published = published || lowername.HasPrefix(rest, "timestamp")
		case 'b':
			byline = byline || lowername.HasPrefix(rest, "byline")
		case 'a':
			if lowername.HasPrefix(rest, "author") {
				author = true
				authori = authori || lowername.HasPrefix(rest, "authori")
			}
		}
	}
	named := 0
	if date && !candidate || published {
		named |= namedDate
	}
	if byline || author && !authori {
		named |= namedByline
	}
	return named
}

// nameStarts are the bytes scanNames's words start with, in either case.
var nameStarts = func() (t [256]bool) {
	for _, c := range "dcptba" {
		t[c], t[c-'a'+'A'] = true, true
	}
	return t
}()

// bylineName returns the name in a byline element: the text of a link to
// an author's page inside it, else its own text with a leading "By" and
// anything after a separator or a date cut off; "" unless that is a name
// of one to six words.
func bylineName(c dom.Node) string {
	if a := authorLink(c, 0); !a.Nil() {
		c = a
	}
	t := stripBy(text(c, maxText+1))
	for _, cut := range []string{" | ", " - ", " – ", " — ", " · ", " • ", "Updated", "Published", "Posted", "Reviewed", "Edited", ":"} {
		if i := strings.Index(t, cut); i > 0 {
			t = t[:i]
		}
	}
	t = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(t), ",;"))
	if n := len(strings.Fields(t)); n == 0 || n > 6 || len(t) > 80 || strings.ContainsAny(t, "{}<>0123456789@") {
		return ""
	}
	return t
}

// authorLink returns the first link inside n to an author's page
// (rel=author, or /author/ in its address), at most 6 levels down.
func authorLink(n dom.Node, depth int) dom.Node {
	if depth > 6 {
		return dom.Node{}
	}
	for c := n.FirstChild(); !c.Nil(); c = c.NextSibling() {
		if c.Type() != html.ElementNode {
			continue
		}
		if c.Atom() == atom.A && (strings.EqualFold(attr(c, "rel"), "author") || strings.Contains(attr(c, "href"), "/author/")) {
			return c
		}
		if a := authorLink(c, depth+1); !a.Nil() {
			return a
		}
	}
	return dom.Node{}
}

// attr returns the value of n's attribute key, or "".
func attr(n dom.Node, key string) string { return n.Attr(key) }

// text returns an element's text with white space collapsed, at most
// about limit bytes.
func text(n dom.Node, limit int) string {
	var sb strings.Builder
	var walk func(dom.Node)
	walk = func(n dom.Node) {
		for c := n.FirstChild(); !c.Nil() && sb.Len() <= limit; c = c.NextSibling() {
			switch {
			case c.Type() == html.TextNode:
				sb.WriteString(c.Data())
				sb.WriteByte(' ')
			case c.Type() == html.ElementNode && c.Atom() != atom.Script && c.Atom() != atom.Style:
				walk(c)
			}
		}
	}
	walk(n)
	s := sb.String()
	if n.Atom() == atom.Script {
		return strings.TrimSpace(s)
	}
	return strings.Join(strings.Fields(s), " ")
}

// clip trims white space and bounds a value's length (at a rune boundary).
func clip(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > maxValue {
		s = strings.ToValidUTF8(s[:maxValue], "")
	}
	return s
}

func cmpOr(vals ...string) string {
	for _, v := range vals {
		if v = strings.TrimSpace(v); v != "" {
			return v
		}
	}
	return ""
}
