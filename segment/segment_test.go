package segment

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/ingest"
	"github.com/sluice-project/sluice/page"
)

func segmentString(t testing.TB, src string) *page.Page {
	t.Helper()
	doc, err := ingest.Parse([]byte(src), ingest.DefaultOptions())
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return Segment(doc, DefaultOptions())
}

func texts(p *page.Page) []string {
	var out []string
	for _, b := range p.Blocks {
		out = append(out, b.Text)
	}
	return out
}

func TestBlocksSplitAtBlockElementsNotInline(t *testing.T) {
	p := segmentString(t, `<html><body><div><p>Hello <b><i>world</i></b>!</p><p>See <a href="/x">our site</a> for more.</p>line one<br>line two</div></body></html>`)
	want := []string{"Hello world!", "See our site for more.", "line one", "line two"}
	if got := texts(p); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("blocks = %q, want %q", got, want)
	}
	b := p.Blocks[1]
	if b.LinkChars != 7 || b.Chars != 18 || b.Words != 5 {
		t.Errorf("link chars/chars/words = %d/%d/%d, want 7/18/5", b.LinkChars, b.Chars, b.Words)
	}
	if b.InnerTags != 2 || b.InnerLinkTags != 2 {
		t.Errorf("inner tags = %d (links %d), want 2 (2)", b.InnerTags, b.InnerLinkTags)
	}
	if got := p.Nodes[b.Node].Tag; got != "p" {
		t.Errorf("container of block 1 = %s, want p", got)
	}
	if s := p.Blocks[3].Split; s.BR != 1 || s.Block != 0 {
		t.Errorf("split before 'line two' = %+v, want one br and no block tag", s)
	}
	if s := p.Blocks[1].Split; s.P != 2 || s.Block != 2 {
		t.Errorf("split before block 1 = %+v, want </p><p>", s)
	}
}

func TestContainerIsDeepestCommonElement(t *testing.T) {
	p := segmentString(t, `<body><ul><li><a href="/">Home</a></li></ul></body>`)
	if len(p.Blocks) != 1 {
		t.Fatalf("got %d blocks", len(p.Blocks))
	}
	b := p.Blocks[0]
	if got := strings.Join(p.Path(0), "/"); got != "body/ul/li/a" {
		t.Errorf("path = %s", got)
	}
	if b.LinkChars != 4 {
		t.Errorf("link chars = %d, want 4", b.LinkChars)
	}
	if p.Nodes[b.DivGroup].Tag != "body" {
		t.Errorf("div group = %s", p.Nodes[b.DivGroup].Tag)
	}
}

func TestNodeRangesAndCounts(t *testing.T) {
	p := segmentString(t, `<body><div id="a" class="x y"><p>one</p><p>two <span>three</span></p></div><table><tr><td>four</td></tr></table></body>`)
	var div, span, td int32 = -1, -1, -1
	for i, n := range p.Nodes {
		switch n.Tag {
		case "div":
			div = int32(i)
		case "span":
			span = int32(i)
		case "td":
			td = int32(i)
		}
	}
	d := p.Nodes[div]
	if d.ID != "a" || d.Class != "x y" || d.First != 0 || d.End != 2 || d.Elements != 4 || d.Structural != 3 {
		t.Errorf("div node = %+v", d)
	}
	if s := p.Nodes[span]; s.First != 1 || s.End != 2 {
		t.Errorf("span range = [%d,%d), want [1,2)", s.First, s.End)
	}
	if p.Blocks[2].TdGroup != td {
		t.Errorf("td group of 'four' = %d, want %d", p.Blocks[2].TdGroup, td)
	}
	if root := p.Nodes[0]; root.Tag != "body" || root.End != 3 {
		t.Errorf("root = %+v", root)
	}
}

func TestSourceSpans(t *testing.T) {
	src := `<html><body><p>caf&eacute; au lait</p><div>plain <b>bold</b> text</div></body></html>`
	p := segmentString(t, src)
	for _, b := range p.Blocks {
		if b.Source.End <= b.Source.Start {
			t.Errorf("block %q has no span", b.Text)
			continue
		}
		raw := src[b.Source.Start:b.Source.End]
		if !strings.HasPrefix(raw, strings.Fields(b.Text)[0][:3]) {
			t.Errorf("span of %q is %q", b.Text, raw)
		}
	}
	if got := src[p.Blocks[1].Source.Start:p.Blocks[1].Source.End]; got != "plain <b>bold</b> text" {
		t.Errorf("span of block 1 = %q", got)
	}
}

func TestPreAndAlt(t *testing.T) {
	p := segmentString(t, "<body><pre>\nfunc main() {\n    run()\n}\n</pre><p>A <img src=x alt=\"red kite\"> flies.</p></body>")
	want := []string{"func main() {", "    run()", "}", "A red kite flies."}
	if got := texts(p); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("blocks = %q, want %q", got, want)
	}
	if !p.Blocks[1].Pre || p.Blocks[3].Pre {
		t.Errorf("pre flags wrong")
	}
}

func TestWhitespaceNormalised(t *testing.T) {
	p := segmentString(t, "<body><p>  a\u00a0\u00a0b \t\n c\u2003d  </p></body>")
	if got := p.Blocks[0].Text; got != "a b c d" {
		t.Errorf("text = %q", got)
	}
	if p.Blocks[0].Words != 4 || p.Blocks[0].Chars != 4 {
		t.Errorf("words/chars = %d/%d", p.Blocks[0].Words, p.Blocks[0].Chars)
	}
}

func TestDeepNestingDoesNotFail(t *testing.T) {
	src := strings.Repeat("<div>", 10000) + "deep text" + strings.Repeat("</div>", 10000)
	p := segmentString(t, "<body>"+src+"</body>")
	if len(p.Blocks) != 1 || p.Blocks[0].Text != "deep text" {
		t.Fatalf("blocks = %q", texts(p))
	}
}

// TestSourceSpansInLegacyCharsets checks that block spans point into the
// original bytes, not the decoded UTF-8, for pages in other charsets.
func TestSourceSpansInLegacyCharsets(t *testing.T) {
	files, _ := filepath.Glob("../ingest/testdata/charset/*.html")
	if len(files) == 0 {
		t.Skip("no charset fixtures")
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := ingest.Parse(src, ingest.DefaultOptions())
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		p := Segment(doc, DefaultOptions())
		cs := ingest.DetectCharset(src, "", "")
		checked := 0
		for _, b := range p.Blocks {
			if b.Source.End <= b.Source.Start || b.Words < 3 {
				continue
			}
			raw, _ := cs.Decode(src[b.Source.Start:b.Source.End])
			first := strings.Fields(b.Text)[0]
			if !strings.HasPrefix(strings.TrimSpace(string(raw)), first) {
				t.Errorf("%s: span of %q decodes to %q", filepath.Base(f), b.Text, raw)
			}
			checked++
		}
		if checked == 0 {
			t.Errorf("%s: no block with a span", filepath.Base(f))
		}
	}
}

// TestDescription: a body with no text has no blocks, unless
// Options.Description makes the page's description its one block; a body
// with text never gets it.
func TestDescription(t *testing.T) {
	const head = `<html><head><meta name="description" content="A shop of washable rugs."></head>`
	for _, tt := range []struct {
		body string
		on   bool
		want []string
	}{
		{`<body><div id="app"></div><script>run()</script></body>`, false, nil},
		{`<body><div id="app"></div><script>run()</script></body>`, true, []string{"A shop of washable rugs."}},
		{`<body><p>Our rugs go in the washing machine.</p></body>`, true, []string{"Our rugs go in the washing machine."}},
	} {
		doc, err := ingest.Parse([]byte(head+tt.body), ingest.DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		opts := DefaultOptions()
		opts.Description = tt.on
		if got := texts(Segment(doc, opts)); !slices.Equal(got, tt.want) {
			t.Errorf("%s (Description %v): blocks %q, want %q", tt.body, tt.on, got, tt.want)
		}
	}
}

// TestAltFileNames: alt texts that are file names, addresses or slugs are
// not text; words with one hyphen and alt texts with spaces are.
func TestAltFileNames(t *testing.T) {
	for alt, want := range map[string]bool{
		"35.jpg": true, "/img/logo.PNG": true, "https://cdn.example/a": true,
		"staple-tee-front": true, "hero_banner_2": true, "cat_thumb": false,
		"Half-Life": false, "red kite": false, "the well-known red-brick mill": false, "": false,
	} {
		if got := fileName(alt); got != want {
			t.Errorf("fileName(%q) = %v, want %v", alt, got, want)
		}
	}
	p := segmentString(t, `<body><p>Our tee <img src=a.jpg alt="staple-tee-front"><img src=b.jpg alt="Half-Life"> in cotton.</p></body>`)
	if got := texts(p); len(got) != 1 || got[0] != "Our tee Half-Life in cotton." {
		t.Errorf("blocks %q, want the slug left out", got)
	}
}

// TestRepeatedAlt: an alt text that its block's other text repeats (a
// product card's picture and name) is left out, the link's characters
// with it; an alt text of its own stays.
func TestRepeatedAlt(t *testing.T) {
	p := segmentString(t, `<body><div><a href="/bag"><img src=a.jpg alt="Pink Nina Bag"> pink nina bag</a> $130</div><p>A <img src=k.jpg alt="red kite"> flies over the kite hill.</p></body>`)
	want := []string{"pink nina bag $130", "A red kite flies over the kite hill."}
	if got := texts(p); !slices.Equal(got, want) {
		t.Fatalf("blocks %q, want %q", got, want)
	}
	if b := p.Blocks[0]; b.LinkChars != int32(len("pinkninabag")) {
		t.Errorf("link characters %d, want the name's alone", b.LinkChars)
	}
	// A gallery of many pictures in one block: each alt is matched as
	// words of its own ("item 1" is not in "item 10"), near it only.
	var src strings.Builder
	src.WriteString("<body><p>")
	for i := range 20000 {
		fmt.Fprintf(&src, `<img src=a.jpg alt="item %d">`, i)
	}
	p = segmentString(t, src.String())
	if got := texts(p); len(got) != 1 || strings.Count(got[0], "item") != 20000 {
		t.Errorf("gallery: %d blocks, %d alts kept, want 1 and 20000", len(got), strings.Count(strings.Join(got, " "), "item"))
	}
}
