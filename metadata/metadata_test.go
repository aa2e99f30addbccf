package metadata

import (
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/sluice-project/sluice/page"
)

func extract(t *testing.T, src string) page.Meta {
	t.Helper()
	root, err := html.Parse(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	var m page.Meta
	Extract(root, &m)
	return m
}

// TestJSONLD: the article in a @graph gives headline, authors, dates,
// publisher, image, section and keywords; entities are decoded.
func TestJSONLD(t *testing.T) {
	m := extract(t, `<html lang="en-GB"><head><title>Ignored | Mill News</title>
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[
 {"@type":"WebSite","name":"Mill News"},
 {"@type":["NewsArticle"],"headline":"Flour &amp; water","author":[{"@type":"Person","name":"Ann Miller"},{"name":"Bo Reed"}],
  "datePublished":"2024-03-05T09:00:00+01:00","dateModified":"2024-03-07","publisher":{"@type":"Organization","name":"Mill News Ltd"},
  "image":{"@type":"ImageObject","url":"https://mill.example/a.jpg"},"articleSection":"Food","keywords":"flour, water,  mills"}]}
</script></head><body><p>text</p></body></html>`)
	for _, c := range [][2]string{
		{m.Headline, "Flour & water"}, {m.Author, "Ann Miller, Bo Reed"}, {m.Published, "2024-03-05"},
		{m.Modified, "2024-03-07"}, {m.SiteName, "Mill News Ltd"}, {m.Image, "https://mill.example/a.jpg"},
		{strings.Join(m.Categories, "|"), "Food"}, {strings.Join(m.Tags, "|"), "flour|water|mills"}, {m.Lang, "en-GB"},
	} {
		if c[0] != c[1] {
			t.Errorf("got %q, want %q", c[0], c[1])
		}
	}
}

// TestMetaTags: Open Graph, article:*, Dublin Core and links, with no
// JSON-LD; the <h1> is the title.
func TestMetaTags(t *testing.T) {
	m := extract(t, `<html><head><title>The River Report - Valley Times</title>
<meta property="og:site_name" content="Valley Times"><meta property="og:title" content="River report">
<meta name="author" content="https://valley.example/staff/jo"><meta name="dc.creator" content="Jo Banks">
<meta property="article:published_time" content="Tue, 05 Mar 2024 10:00:00 GMT">
<meta property="article:tag" content="rivers"><meta property="article:tag" content="Rivers"><meta name="keywords" content="floods, weather">
<meta property="og:image" content="/img/river.jpg"><link rel="canonical" href="https://valley.example/river">
<link rel="license" href="https://creativecommons.org/licenses/by/4.0/"><meta name="description" content="The river rose.">
</head><body><h1>The River Report</h1><p>text</p></body></html>`)
	for _, c := range [][2]string{
		{m.Headline, "The River Report"}, {m.Author, "Jo Banks"}, {m.Published, "2024-03-05"}, {m.SiteName, "Valley Times"},
		{m.Canonical, "https://valley.example/river"}, {m.License, "https://creativecommons.org/licenses/by/4.0/"},
		{m.Image, "/img/river.jpg"}, {strings.Join(m.Tags, "|"), "rivers|floods|weather"}, {m.Description, "The river rose."},
	} {
		if c[0] != c[1] {
			t.Errorf("got %q, want %q", c[0], c[1])
		}
	}
}

// TestFallbacks: a byline element, a date in the text of an element
// marked as a date, and a date only in a script's state.
func TestFallbacks(t *testing.T) {
	m := extract(t, `<html><head><title>Kettle trends | Shop</title></head><body>
<div class="post-byline">By <a href="/author/kim-lee">Kim Lee</a> · 4 min read</div>
<span class="entry-date">March 5th, 2024</span><p>text</p></body></html>`)
	if m.Author != "Kim Lee" || m.Published != "2024-03-05" || m.Headline != "Kettle trends" {
		t.Errorf("author %q, date %q, title %q", m.Author, m.Published, m.Headline)
	}
	m = extract(t, `<html><body><div class="author">By Sam Fox Updated 2 days ago</div>
<script>window.__STATE__={"post":{"publishedDate":"2019-08-16T00:00:00.000Z"}}</script><p>text</p></body></html>`)
	if m.Author != "Sam Fox" || m.Published != "2019-08-16" {
		t.Errorf("author %q, date %q", m.Author, m.Published)
	}
	// A stylesheet whose id names the author is no byline.
	m = extract(t, `<html><head><style id="wp-block-post-author-name-inline-css">.x{}</style></head><body><p>text</p></body></html>`)
	if m.Author != "" {
		t.Errorf("author %q from a stylesheet", m.Author)
	}
}

func TestCleanTitle(t *testing.T) {
	for _, c := range []struct{ title, h1, site, host, want string }{
		{"Python - Wikipedia", "", "Wikipedia", "en.wikipedia.org", "Python"},
		{"Shop | How to choose a kettle", "", "", "shop.example", "How to choose a kettle"},
		{"How to X - Step by Step", "", "", "", "How to X - Step by Step"},
		{"Bread recipes – Bakery Co", "", "", "bakeryco.example", "Bread recipes"},
		{"Long headline about rivers and floods | Times", "Long headline about rivers and floods", "", "", "Long headline about rivers and floods"},
		{"", "Only the h1", "", "", "Only the h1"},
	} {
		if got := cleanTitle(c.title, c.h1, c.site, c.host); got != c.want {
			t.Errorf("cleanTitle(%q, %q, %q, %q) = %q, want %q", c.title, c.h1, c.site, c.host, got, c.want)
		}
	}
}

func TestNormDate(t *testing.T) {
	for in, want := range map[string]string{
		"2024-03-05T09:00:00Z": "2024-03-05", "2024/3/5": "2024-03-05", "05.03.2024": "2024-03-05",
		"20240305": "2024-03-05", "Tue, 05 Mar 2024 10:00:00 GMT": "2024-03-05", "March 5, 2024": "2024-03-05",
		"5 March 2024": "2024-03-05", "Posted on Mar 5th, 2024 by X": "2024-03-05",
		"2024-13-05": "", "version 1.2.3": "", "": "", "call 555-1234": "",
	} {
		if got := normDate(in); got != want {
			t.Errorf("normDate(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestHostile: broken JSON-LD, huge values and deep nesting give bounded
// results and no panic.
func TestHostile(t *testing.T) {
	big := strings.Repeat("a", 10000)
	deep := strings.Repeat(`{"@type":"Thing","mainEntity":`, 200) + `{}` + strings.Repeat(`}`, 200)
	m := extract(t, `<html><head><meta name="author" content="`+big+`"><meta name="keywords" content="`+strings.Repeat("k,", 5000)+`">
<script type="application/ld+json">{"@type":"Article","headline":</script>
<script type="application/ld+json">`+deep+`</script>
<script type="application/ld+json">{"@type":"Article","headline":"ok"};</script></head><body></body></html>`)
	if len(m.Author) > maxValue || len(m.Tags) > 64 || m.Headline != "ok" {
		t.Errorf("author %d bytes, %d tags, headline %q", len(m.Author), len(m.Tags), m.Headline)
	}
	Extract(nil, &m)
	Extract(&html.Node{}, nil)
}

// Every date key has a needle, which scriptDate scans for first; the order
// of the keys, not of the scripts, still decides.
func TestScriptDate(t *testing.T) {
	for k, key := range scriptDateKeys {
		if scriptKeyNeedle[k] < 0 {
			t.Errorf("key %q holds none of scriptDateNeedles", key)
		}
	}
	code := []string{`var a={"createdAt":"2001-02-03"}`, `x={publishedAt: "2019-08-16T00:00:00Z", "dateCreated":"2005-01-01"}`}
	if got := scriptDate(code); got != "2019-08-16" {
		t.Errorf("scriptDate = %q, want the publication date before the creation dates", got)
	}
	if got := scriptDate(code[:1]); got != "2001-02-03" {
		t.Errorf("scriptDate = %q, want 2001-02-03", got)
	}
	if got := scriptDate([]string{`{"first_publication_date":"2020-05-06"}`, `{"date_posted":"2021-07-08"}`, `{"pubDate":"2022-09-10"}`}); got != "2020-05-06" {
		t.Errorf("scriptDate = %q, want 2020-05-06", got)
	}
	if got := scriptDate([]string{`no dates here, only "publisher"`}); got != "" {
		t.Errorf("scriptDate = %q, want none", got)
	}
}
