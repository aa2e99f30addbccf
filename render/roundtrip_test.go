package render

import (
	"bytes"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestHTMLParsesBack parses the html output and checks that every segment's
// text comes back from its element, unescaped.
func TestHTMLParsesBack(t *testing.T) {
	p := fishPage()
	var buf bytes.Buffer
	if err := (HTML{}).Render(&buf, p); err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(&buf)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	var title string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "title":
				title = text(n)
			case "h1", "h2", "h3", "h4", "h5", "h6", "p", "li", "pre":
				got = append(got, n.Data+":"+text(n))
				return
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	if title != p.Meta.Title {
		t.Errorf("title = %q, want %q", title, p.Meta.Title)
	}
	var want []string
	segs := Segments(p)
	for k := 0; k < len(segs); k++ {
		s := segs[k]
		switch {
		case s.Pre:
			var lines []string
			for ; k < len(segs) && segs[k].Pre; k++ {
				lines = append(lines, segs[k].Text)
			}
			k--
			want = append(want, "pre:"+strings.Join(lines, "\n")+"\n")
		case s.Label == 1:
			want = append(want, headingTags[segmentLevel(p, &s)]+":"+s.Text)
		case s.Label == 3:
			want = append(want, "li:"+s.Text)
		default:
			want = append(want, "p:"+s.Text)
		}
	}
	if strings.Join(got, "\n|") != strings.Join(want, "\n|") {
		t.Errorf("parsed back:\n%q\nwant\n%q", got, want)
	}
}

func text(n *html.Node) string {
	var sb strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			sb.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return sb.String()
}

// FuzzMarkdownLine checks that the Markdown escapes only add backslashes:
// removing them gives back the (trimmed) text.
func FuzzMarkdownLine(f *testing.F) {
	for _, s := range []string{"# a", "1. x", "a_b _c_", "<b>&amp;", "\\*", "### x ##", "- [ ] ~~y~~"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, heading bool) {
		if strings.ContainsAny(s, "\n\r") {
			return
		}
		var buf bytes.Buffer
		w := newTestWriter(&buf)
		mdLine(w, s, heading)
		w.Flush()
		if got, want := unescapeMD(buf.String()), strings.Trim(s, " \t\f\v"); got != want {
			t.Errorf("unescape(mdLine(%q)) = %q", s, got)
		}
	})
}

func TestEscapeHTML(t *testing.T) {
	for _, s := range []string{"", "plain", `<a href="x">&'</a>`, "é&", "&&&", "end<"} {
		var buf bytes.Buffer
		w := newTestWriter(&buf)
		escapeHTML(w, s)
		w.Flush()
		if want := html.EscapeString(s); buf.String() != want {
			t.Errorf("escapeHTML(%q) = %q, want %q", s, buf.String(), want)
		}
	}
}
