package render

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/sluice-project/sluice/page"
)

// linksPage is a page with links and images (as segment records them
// with Options.Links and Images): a linked heading, the same anchor
// twice, refused schemes, destinations needing escapes, anchors needing
// escapes, images in the text, alone and inside a link, a paragraph
// continued across blocks, list items and a dropped block's links.
func linksPage() *page.Page {
	p := &page.Page{
		Nodes: []page.Node{node("html", -1), node("body", 0), node("h1", 1), node("p", 1), node("ul", 1), node("li", 4), node("div", 1)},
		Body:  1,
		Meta:  page.Meta{URL: "http://example.com/links", Title: "Links", Encoding: "utf-8"},
		Blocks: []page.Block{
			block("Read the manual", 2, page.Heading),                                  // 0
			block("See here and here, or run this, mail me!", 3, page.Paragraph),       // 1
			block("Menu Home About", 6, page.Other),                                    // 2
			block("A red kite [sic] flies over the hill.", 3, page.Continuation),       // 3
			block("Logo and a *starred* link_ to ünï.", 5, page.ListItem),              // 4
			block("1. step: see Wiki (Go) & paths with spaces", 5, page.ListItem),      // 5
			block("Data: tiny dot and bad one. Unsafe image here.", 3, page.Paragraph), // 6
			block("- not a list item, the first word a link", 3, page.Paragraph),       // 7
			block("Wow!next", 3, page.Paragraph),                                       // 8
		},
		Links: []page.Link{
			{Block: 0, Text: "manual", Href: "/docs/manual.html"},
			{Block: 1, Text: "here", Href: "https://a.example/1"},
			{Block: 1, Text: "here", Href: "https://a.example/2?x=1&amp;y=<2>"},
			{Block: 1, Text: "run this", Href: " JaVa\tScript:alert(1)"},
			{Block: 1, Text: "mail me", Href: "mailto:me@example.com"},
			{Block: 2, Text: "Home", Href: "/"},
			{Block: 3, Text: "kite [sic]", Href: "/kite_(bird)"},
			{Block: 4, Text: "Logo and", Href: "/"},
			{Block: 4, Text: "ünï", Href: "/ü\x01"},
			{Block: 5, Text: "Wiki (Go)", Href: "https://en.wikipedia.org/wiki/Go_(game)"},
			{Block: 5, Text: "paths with spaces", Href: "/a b/<c>\\d"},
			{Block: 7, Text: "- not", Href: "/not"},
			{Block: 8, Text: "next", Href: "/next"},
			{Block: 8, Text: "missing", Href: "/missing"},
		},
		Images: []page.Image{
			{Block: 3, Src: "/kite.jpg", Alt: "red", InText: true},
			{Block: 3, After: 1, Src: "/hill.png", Alt: "", InText: false},
			{Block: 4, After: 1, InLink: true, Src: "/logo.png", Alt: "Logo", InText: true},
			{Block: 6, Src: "data:image/png;base64,iVBORw0KGgo=", Alt: "tiny dot", InText: true},
			{Block: 6, Src: "data:text/html,<script>x</script>", Alt: "bad one", InText: true},
			{Block: 6, Src: "javascript:alert(1)", Alt: "", InText: false},
			{Block: 6, Src: "/unsafe?a=b c", Alt: "Unsafe image", InText: true},
		},
	}
	return p
}

func TestLinksGolden(t *testing.T) {
	for _, c := range []struct{ file, format string }{
		{"links.md", "markdown"}, {"links.html", "html"}, {"links.json", "json"}, {"links-all.json", "json"},
	} {
		t.Run(c.file, func(t *testing.T) {
			r, err := Lookup(c.format, Options{IncludeDropped: strings.Contains(c.file, "all")})
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := r.Render(&buf, linksPage()); err != nil {
				t.Fatal(err)
			}
			golden(t, c.file, buf.Bytes())
			if c.format == "json" {
				var d JSONDocument
				if err := jsonDecodeStrict(buf.Bytes(), &d); err != nil {
					t.Fatal(err)
				}
				if got := d.AppendJSON(nil); !bytes.Equal(got, encodeStd(t, &d)) {
					t.Errorf("AppendJSON differs from encoding/json")
				}
			}
		})
	}
}

// TestLinksLeaveOtherFormats checks that the formats with no place for
// links write a page with links as they write it without.
func TestLinksLeaveOtherFormats(t *testing.T) {
	for _, f := range []string{"cleaneval", "text", "parser"} {
		r, _ := Lookup(f, Options{})
		var with, without bytes.Buffer
		p := linksPage()
		r.Render(&with, p)
		p.Links, p.Images = nil, nil
		r.Render(&without, p)
		if with.String() != without.String() {
			t.Errorf("%s: links change the output:\n%s\nwithout:\n%s", f, with.String(), without.String())
		}
	}
}

// TestHTMLLinksParseBack parses the html output and checks its links and
// images: the allowed ones, with their anchors.
func TestHTMLLinksParseBack(t *testing.T) {
	var buf bytes.Buffer
	if err := (HTML{}).Render(&buf, linksPage()); err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(&buf)
	if err != nil {
		t.Fatal(err)
	}
	var links, images []string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "a":
				links = append(links, attrOf(n, "href")+" "+text(n))
			case "img":
				images = append(images, attrOf(n, "src")+" "+attrOf(n, "alt"))
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	wantLinks := []string{
		"/docs/manual.html manual", "https://a.example/1 here", "https://a.example/2?x=1&amp;y=<2> here",
		"mailto:me@example.com mail me", "/kite_(bird) kite [sic]", "/  and", "/ü%01 ünï",
		"https://en.wikipedia.org/wiki/Go_(game) Wiki (Go)", "/a b/<c>\\d paths with spaces", "/not - not", "/next next",
	}
	if strings.Join(links, "|") != strings.Join(wantLinks, "|") {
		t.Errorf("links:\n%q\nwant\n%q", links, wantLinks)
	}
	wantImages := []string{"/kite.jpg red", "/hill.png ", "/logo.png Logo", "data:image/png;base64,iVBORw0KGgo= tiny dot", "/unsafe?a=b c Unsafe image"}
	if strings.Join(images, "|") != strings.Join(wantImages, "|") {
		t.Errorf("images:\n%q\nwant\n%q", images, wantImages)
	}
}

func attrOf(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func TestURLSchemes(t *testing.T) {
	cases := []struct {
		u, scheme   string
		link, image bool
	}{
		{"/a/b", "", true, true},
		{"a/b:c", "", true, true},
		{"//cdn.example/x.png", "", true, true},
		{"#top", "", true, true},
		{"HTTPS://x", "https", true, true},
		{"http://x", "http", true, true},
		{"mailto:a@b", "mailto", true, false},
		{"javascript:alert(1)", "javascript", false, false},
		{" \x01jav\tas\ncript:x", "javascript", false, false},
		{"vbscript:x", "vbscript", false, false},
		{"file:///etc/passwd", "file", false, false},
		{"data:text/html,x", "data", false, false},
		{"data:image/png;base64,AAAA", "data", false, true},
		{"DATA:IMAGE/GIF,x", "data", false, true},
		{"data:image/svg+xml,<svg/>", "data", false, false},
		{"data:image/png" + strings.Repeat("A", page.MaxHref), "data", false, false},
		{"1a:b", "", true, true},
		{":x", "", true, true},
		{"", "", true, true},
	}
	for _, c := range cases {
		if got := urlScheme(c.u); got != c.scheme {
			t.Errorf("urlScheme(%.40q) = %q, want %q", c.u, got, c.scheme)
		}
		if got := linkAllowed(c.u); got != c.link {
			t.Errorf("linkAllowed(%.40q) = %v", c.u, got)
		}
		if got := imageAllowed(c.u); got != c.image {
			t.Errorf("imageAllowed(%.40q) = %v", c.u, got)
		}
	}
}

func TestMarkdownDestination(t *testing.T) {
	cases := []struct{ in, want string }{
		{"/a/b?c=d", "/a/b?c=d"},
		{"/wiki/Go_(game)", `/wiki/Go_\(game\)`},
		{"/a b/(c)", "</a b/(c)>"},
		{`<x>\y`, `\<x\>\\y`},
		{"a\nb\x7f", "a%0Ab%7F"},
		{"?a=1&amp;b&c", `?a=1\&amp;b&c`},
	}
	for _, c := range cases {
		var buf bytes.Buffer
		w := newTestWriter(&buf)
		mdDest(w, c.in)
		w.Flush()
		if buf.String() != c.want {
			t.Errorf("mdDest(%q) = %q, want %q", c.in, buf.String(), c.want)
		}
	}
}

// TestMarksHostile renders pages with many links, long anchors, links not
// in their block and marks crossing each other: nothing panics, and the
// markdown keeps the text.
func TestMarksHostile(t *testing.T) {
	text := strings.Repeat("ab ", 400)
	p := &page.Page{
		Nodes:  []page.Node{node("p", -1)},
		Blocks: []page.Block{block(text, 0, page.Paragraph), block("x", 0, page.Continuation), block("short", 0, page.Paragraph)},
	}
	for range page.MaxBlockLinks {
		p.Links = append(p.Links, page.Link{Block: 0, Text: "ab", Href: "/l"})
		p.Images = append(p.Images, page.Image{Block: 0, Src: "/i", Alt: "b ab", InText: true})
	}
	p.Links = append(p.Links, page.Link{Block: 1, Text: "not there", Href: "/n"}, page.Link{Block: 2, Text: text, Href: "/long"})
	p.Images = append(p.Images, page.Image{Block: 2, Src: "/i", Alt: "shorter", InText: true})
	for _, f := range []string{"markdown", "html", "json"} {
		r, _ := Lookup(f, Options{})
		var buf bytes.Buffer
		if err := r.Render(&buf, p); err != nil {
			t.Fatal(err)
		}
		if f == "markdown" && !strings.Contains(buf.String(), "short") {
			t.Errorf("markdown lost a block's text: %.200q", buf.String())
		}
	}
}

func jsonDecodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// FuzzLinks renders pages whose links and images are anywhere or nowhere
// in their text: no format may fail or panic.
func FuzzLinks(f *testing.F) {
	f.Add("see here and here", "here", "/x", "and", "a.png", uint8(3))
	f.Add("ünï [a] (b)", "[a]", "javascript:x", "ünï", "data:image/png,x", uint8(0))
	f.Fuzz(func(t *testing.T, text, anchor, href, alt, src string, bits uint8) {
		p := &page.Page{
			Nodes:  []page.Node{node("h1", -1)},
			Blocks: []page.Block{block(text, 0, page.Label(1+bits%3)), block(anchor, 0, page.Continuation)},
			Links:  []page.Link{{Block: 0, Text: anchor, Href: href}, {Block: 0, Text: alt, Href: src}, {Block: 1, Text: text, Href: href}},
			Images: []page.Image{{Block: 0, After: int32(bits>>2) % 3, InLink: bits&32 != 0, Src: src, Alt: alt, InText: bits&64 != 0}},
		}
		for _, name := range []string{"markdown", "html", "json"} {
			r, _ := Lookup(name, Options{IncludeDropped: bits&128 != 0})
			if err := r.Render(io.Discard, p); err != nil {
				t.Fatal(err)
			}
		}
	})
}
