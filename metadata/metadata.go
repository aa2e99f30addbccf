package metadata

import (
	"net/url"
	"slices"
	"strings"

	"golang.org/x/net/html"

	"github.com/sluice-project/sluice/dom"
	"github.com/sluice-project/sluice/page"
)

// Extract reads root, the parsed tree before precleaning, and fills m's
// metadata fields (Headline, Author, Published, Modified, SiteName,
// Canonical, Image, License, Categories, Tags; Description and Lang where
// they are empty). m.URL, when set, is used to tell the site's name in
// a <title>.
func Extract(root *html.Node, m *page.Meta) {
	ExtractNode(dom.HTML(root), m)
}

// ExtractNode is Extract on a tree of either parser (package dom), which
// ingest.Options.Inspect takes. The values it stores share the tree's
// memory where the tree's strings do (htmltree): a tree ingest built is
// never rebuilt, so they stay valid.
func ExtractNode(root dom.Node, m *page.Meta) {
	if root.Nil() || m == nil {
		return
	}
	f := collect(root)
	things := jsonLD(f.scripts)
	main := mainThing(things)

	m.SiteName = cmpOr(f.first("og:site_name", "application-name", "al:ios:app_name"), publisher(things, main))
	m.Author = authors(f, main)
	m.Published = firstDate(main.published, f.first("article:published_time", "og:published_time", "itemprop:datepublished",
		"datepublished", "publishdate", "publish-date", "pubdate", "date", "dc.date.issued", "dc.date", "dcterms.created",
		"dcterms.date", "parsely-pub-date", "sailthru.date", "article.published", "published_time"), firstTime(f.times), f.dated)
	if m.Published == "" {
		m.Published = scriptDate(f.code)
	}
	m.Modified = firstDate(main.modified, f.first("article:modified_time", "og:updated_time", "itemprop:datemodified",
		"datemodified", "dcterms.modified", "last-modified"))
	m.Canonical = cmpOr(f.links["canonical"], f.first("og:url"), main.url)
	m.Image = cmpOr(f.first("og:image", "og:image:url", "og:image:secure_url", "twitter:image", "twitter:image:src", "itemprop:image"), main.image)
	m.License = cmpOr(f.links["license"], main.license, f.first("dc.rights", "dcterms.license", "dcterms.rights"))
	m.Categories = dedupe(append(slices.Clone(f.meta["article:section"]), main.sections...))
	tags := slices.Clone(f.meta["article:tag"])
	for _, k := range f.meta["keywords"] {
		tags = append(tags, splitList(k)...)
	}
	m.Tags = dedupe(append(tags, main.keywords...))
	if m.Description == "" {
		m.Description = f.first("description", "og:description", "twitter:description", "dc.description")
	}
	if m.Lang == "" {
		m.Lang = cmpOr(f.lang, f.first("content-language", "og:locale", "dc.language"), main.lang)
	}
	host := ""
	if u, err := url.Parse(cmpOr(m.URL, m.Canonical)); err == nil {
		host = strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
	}
	headline := cmpOr(f.first("og:title", "twitter:title", "itemprop:headline", "dc.title"), main.headline)
	// The page's visible headline, its first <h1>, is its title when
	// there is one that is not the site's name: og:title and <title> are
	// more often a search-engine variant of it (on the first 300 pages of
	// WCXB-dev, 80.3% of titles right with the h1 first, 71.3% without).
	m.Headline = cleanTitle(cmpOr(headline, f.title), f.h1, m.SiteName, host)
	if h := f.h1; h != "" && len(strings.Fields(h)) <= 30 && !isSite(h, m.SiteName, host) {
		m.Headline = h
	}
}

// mainThing returns the JSON-LD object that stands for the page: the first
// article, posting or product, else the first web page, else nothing.
func mainThing(things []ldThing) ldThing {
	for _, want := range []func(string) bool{isMainType, func(t string) bool { return strings.HasSuffix(t, "page") }} {
		for _, t := range things {
			if slices.ContainsFunc(t.types, want) {
				return t
			}
		}
	}
	return ldThing{}
}

func isMainType(t string) bool {
	return strings.HasSuffix(t, "article") || strings.HasSuffix(t, "posting") || t == "product" || t == "recipe" || t == "review" || t == "question"
}

// publisher returns the site's name from JSON-LD: the main object's
// publisher, else a WebSite's or Organization's name.
func publisher(things []ldThing, main ldThing) string {
	if main.publisher != "" {
		return main.publisher
	}
	for _, t := range things {
		if slices.Contains(t.types, "website") && t.name != "" {
			return t.name
		}
	}
	return ""
}

// authors returns the page's authors: JSON-LD's, else the meta names,
// else microdata, else a byline element's text.
func authors(f *found, main ldThing) string {
	list := main.authors
	if len(list) == 0 {
		for _, k := range []string{"author", "article:author", "dc.creator", "dcterms.creator", "parsely-author", "sailthru.author", "byl", "itemprop:author"} {
			for _, v := range f.meta[k] {
				if !isURL(v) && !strings.HasPrefix(v, "@") {
					list = append(list, v)
				}
			}
			if len(list) > 0 {
				break
			}
		}
	}
	if len(list) == 0 && f.byline != "" {
		list = []string{f.byline}
	}
	for i, a := range list {
		list[i] = stripBy(a)
	}
	return clip(strings.Join(dedupe(list), ", "))
}

// stripBy removes a leading "By" from a byline ("By Jane Doe").
func stripBy(s string) string {
	if len(s) > 3 && strings.EqualFold(s[:3], "by ") {
		return strings.TrimSpace(s[3:])
	}
	return s
}

func firstDate(vals ...string) string {
	for _, v := range vals {
		if d := normDate(v); d != "" {
			return d
		}
	}
	return ""
}

func firstTime(times []string) string {
	if len(times) > 0 {
		return times[0]
	}
	return ""
}

// splitList splits a comma-separated list.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" && len(out) < 32 {
			out = append(out, p)
		}
	}
	return out
}

// dedupe removes repeated values (case aside), keeping the first.
func dedupe(ss []string) []string {
	var out []string
	for _, s := range ss {
		if s != "" && !slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o, s) }) {
			out = append(out, s)
		}
	}
	return out
}
