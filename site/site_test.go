package site_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/filter"
	"github.com/sluice-project/sluice/internal/pagetest"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/site"
)

// portal returns a page of a made-up news site: a navigation bar, the
// article (a headline and paragraphs), a share bar, and a footer. extra is
// HTML put after the article's paragraphs, inside the article.
func portal(t testing.TB, headline string, paras []string, extra string) *page.Page {
	t.Helper()
	var sb strings.Builder
	sb.WriteString(`<html><body>
<div class="nav"><ul><li><a href="/">Home</a></li><li><a href="/world">World</a></li><li><a href="/sport">Sport</a></li></ul></div>
<div class="main"><h1>` + headline + `</h1>`)
	for _, p := range paras {
		sb.WriteString("<p>" + p + "</p>\n")
	}
	sb.WriteString(extra)
	sb.WriteString(`</div>
<div class="share"><p>Share this story</p></div>
<div class="footer"><p>Copyright 2024 The Daily Example</p><p><a href="/terms">Terms of use</a></p></div>
</body></html>`)
	return pagetest.Parse(t, sb.String())
}

// threePages are three pages sharing a navigation and a footer, with
// different articles; the first two also share a quotation.
func threePages(t testing.TB) []*page.Page {
	quote := "A quotation that two of the articles happen to share word for word."
	return []*page.Page{
		portal(t, "Storm hits the coast", []string{"The storm reached the coast on Monday night.", quote}, ""),
		portal(t, "Elections next week", []string{"Voters go to the polls next Tuesday.", quote}, ""),
		portal(t, "New bridge opens", []string{"The bridge took five years to build and opened today."}, ""),
	}
}

// marked returns the texts of the blocks of p marked in m.
func marked(p *page.Page, m []bool) []string {
	var out []string
	for i, b := range p.Blocks {
		if m[i] {
			out = append(out, b.Text)
		}
	}
	return out
}

var template = []string{"Home", "World", "Sport", "Share this story", "Copyright 2024 The Daily Example", "Terms of use"}

func TestTextHash(t *testing.T) {
	same := [][2]string{
		{"Hello  World", "hello world"},
		{" 12 comments\n", "7 comments"},
		{"Posted 2024-01-31", "posted 1999-12-01"},
		{"ÉCOLE", "école"},
		{"٣ items", "7 items"}, // Arabic-Indic digit
		{"a\u00a0b", "a b"},    // no-break space
	}
	for _, c := range same {
		if site.TextHash(c[0]) != site.TextHash(c[1]) {
			t.Errorf("TextHash(%q) != TextHash(%q)", c[0], c[1])
		}
	}
	differ := [][2]string{{"Home", "Homes"}, {"ab", "a b"}, {"news", "new s"}}
	for _, c := range differ {
		if site.TextHash(c[0]) == site.TextHash(c[1]) {
			t.Errorf("TextHash(%q) == TextHash(%q)", c[0], c[1])
		}
	}
	for _, s := range []string{"", "  \n\t", "\u00a0"} {
		if h := site.TextHash(s); h != 0 {
			t.Errorf("TextHash(%q) = %#x, want 0", s, h)
		}
	}
	if site.TextHash("x") == 0 {
		t.Error("TextHash of text is 0")
	}
}

func TestFingerprints(t *testing.T) {
	p := pagetest.Parse(t, `<body><div class="a"><h1>Big news today</h1></div>
<div class="b"><p>Big news today</p></div>
<ul class="most-read"><li><a href="/x">Big news today</a></li></ul></body>`)
	if len(p.Blocks) != 3 {
		t.Fatalf("%d blocks, want 3", len(p.Blocks))
	}
	f := site.Fingerprints(p)
	if f[0].Text != f[1].Text {
		t.Error("the same text in h1 and p: Text differs")
	}
	if f[0].Path == f[1].Path {
		t.Error("the same text in two containers: Path is the same")
	}
	if f[0].Text == f[2].Text {
		t.Error("a headline and the same words as a link: Text is the same")
	}
	if f[0].Of(site.PathKey) != f[0].Path || f[0].Of(site.TextKey) != f[0].Text {
		t.Error("Of does not select")
	}
}

func TestModelMarksTemplate(t *testing.T) {
	pages := threePages(t)
	b := site.NewBuilder(site.Options{})
	for _, p := range pages {
		b.Add(p)
	}
	m := b.Build()
	if m.Pages() != 3 {
		t.Errorf("Pages = %d", m.Pages())
	}
	for i, p := range pages {
		got := marked(p, m.Template(p, true))
		if !slices.Equal(got, template) {
			t.Errorf("page %d: template %q, want %q", i, got, template)
		}
	}
	// The quotation is on two pages: for page 0 on one other page only,
	// which is not enough with the default threshold.
	if got := marked(pages[0], m.Template(pages[0], true)); slices.Contains(got, pages[0].Blocks[5].Text) {
		t.Errorf("quotation marked: %q", got)
	}
	// The same judged by a model of the other two pages only.
	lo := site.NewBuilder(site.Options{})
	lo.Add(pages[1])
	lo.Add(pages[2])
	if got := marked(pages[0], lo.Build().Template(pages[0], false)); !slices.Equal(got, template) {
		t.Errorf("leave-one-out: template %q, want %q", got, template)
	}
	// With a floor of one other page, the quotation is template too.
	b1 := site.NewBuilder(site.Options{MinPages: 1})
	for _, p := range pages {
		b1.Add(p)
	}
	if got := marked(pages[0], b1.Build().Template(pages[0], true)); len(got) != len(template)+1 {
		t.Errorf("MinPages 1: template %q", got)
	}
}

func TestModelTooFewPages(t *testing.T) {
	pages := threePages(t)
	b := site.NewBuilder(site.Options{})
	b.Add(pages[0])
	b.Add(pages[1])
	m := b.Build()
	if got := marked(pages[0], m.Template(pages[0], true)); len(got) != 0 {
		t.Errorf("two pages: template %q, want none", got)
	}
	var nilModel *site.Model
	if got := marked(pages[0], nilModel.Template(pages[0], false)); len(got) != 0 {
		t.Errorf("nil model: template %q", got)
	}
}

func TestNeed(t *testing.T) {
	for _, c := range []struct {
		opts   site.Options
		pages  int
		member bool
		want   int
	}{
		{site.Options{}, 3, true, 2},
		{site.Options{}, 3, false, 2},
		{site.Options{}, 2, true, 2}, // one other page: nothing can reach 2
		{site.Options{}, 30, false, 3},
		{site.Options{}, 100, true, 10},
		{site.Options{Share: 0.5}, 12, false, 6},
		{site.Options{MinPages: 5}, 11, true, 5},
	} {
		b := site.NewBuilder(c.opts)
		for range c.pages {
			b.Add(&page.Page{})
		}
		if got := b.Build().Need(c.member); got != c.want {
			t.Errorf("%+v, %d pages, member %v: Need = %d, want %d", c.opts, c.pages, c.member, got, c.want)
		}
	}
}

func TestBuilderCap(t *testing.T) {
	b := site.NewBuilder(site.Options{MaxEntries: 16})
	var last *page.Page
	for i := range 50 {
		last = portal(t, fmt.Sprintf("Headline number %c", 'a'+i%26), []string{
			fmt.Sprintf("Unique text %s of page.", strings.Repeat("x", i+1)),
			fmt.Sprintf("More unique text %s here.", strings.Repeat("y", i+1)),
		}, "")
		b.Add(last)
		if b.Len() > 16 {
			t.Fatalf("page %d: %d entries, cap 16", i, b.Len())
		}
	}
	m := b.Build()
	fresh := portal(t, "A new page", []string{"Nothing like it before."}, "")
	if got := marked(fresh, m.Template(fresh, false)); !slices.Equal(got, template) {
		t.Errorf("capped table: template %q, want %q", got, template)
	}
	h := site.Fingerprints(last)[0].Text // "Home"
	if c := m.Count(h); c < 40 || c > 50 {
		t.Errorf("Count(Home) = %d, want about 50", c)
	}
}

// keepAll labels every block of p kept, as a paragraph, or a
// continuation where the split says so.
func keepAll(p *page.Page) {
	for i := range p.Blocks {
		p.Blocks[i].Score = 1
		p.Blocks[i].Label = page.Paragraph
	}
}

func TestApplyRemovesTemplate(t *testing.T) {
	pages := threePages(t)
	b := site.NewBuilder(site.Options{})
	for _, p := range pages {
		b.Add(p)
	}
	m := b.Build()
	p := pages[2]
	keepAll(p)
	dropped, rescued := m.Apply(p, true)
	if dropped != len(template) || rescued != 0 {
		t.Errorf("Apply = %d, %d; want %d, 0", dropped, rescued, len(template))
	}
	var kept []string
	for _, bl := range p.Blocks {
		if bl.Label.Kept() {
			kept = append(kept, bl.Text)
		} else if bl.Score != 0 {
			t.Errorf("%q dropped with score %v", bl.Text, bl.Score)
		}
	}
	want := []string{"New bridge opens", "The bridge took five years to build and opened today."}
	if !slices.Equal(kept, want) {
		t.Errorf("kept %q, want %q", kept, want)
	}
}

func TestRemoveStartsSegment(t *testing.T) {
	p := pagetest.Parse(t, `<body><ul><li>Menu item<br><a href="/x">Read more</a></li></ul></body>`)
	if len(p.Blocks) != 2 {
		t.Fatalf("%d blocks", len(p.Blocks))
	}
	p.Blocks[0].Label, p.Blocks[1].Label = page.ListItem, page.Continuation
	if n := site.Remove(p, []bool{true, false}); n != 1 {
		t.Errorf("Remove = %d", n)
	}
	if p.Blocks[0].Label != page.Other || p.Blocks[1].Label != page.ListItem {
		t.Errorf("labels %v %v, want other list", p.Blocks[0].Label, p.Blocks[1].Label)
	}
}

func TestRescue(t *testing.T) {
	long := "This paragraph of the article goes on for well over ten words, so it reads as prose."
	comment := "A reader comment that is long enough to read as prose, but in its own box."
	extra := `<p>` + long + `</p><p>Short line.</p></div><div class="comments"><p>` + comment + `</p>`
	p := portal(t, "Bridge opens", []string{"The first paragraph, which the labeller kept, of this article."}, extra)
	others := []*page.Page{
		portal(t, "Storm", []string{"Other text."}, ""),
		portal(t, "Vote", []string{"More other text."}, ""),
	}
	b := site.NewBuilder(site.Options{Rescue: true})
	for _, o := range others {
		b.Add(o)
	}
	m := b.Build()
	// The labeller kept the headline, the first paragraph and the menu.
	for i := range p.Blocks {
		bl := &p.Blocks[i]
		switch bl.Text {
		case "Bridge opens":
			bl.Label, bl.Score = page.Heading, 0.9
		case "The first paragraph, which the labeller kept, of this article.", "Home", "World":
			bl.Label, bl.Score = page.Paragraph, 0.9
		default:
			bl.Label, bl.Score = page.Other, 0.2
		}
	}
	dropped, rescued := m.Apply(p, false)
	if dropped != 2 || rescued != 1 {
		t.Errorf("Apply = %d, %d; want 2, 1", dropped, rescued)
	}
	var kept []string
	for _, bl := range p.Blocks {
		if bl.Label.Kept() {
			kept = append(kept, bl.Text)
		}
	}
	want := []string{"Bridge opens", "The first paragraph, which the labeller kept, of this article.", long}
	if !slices.Equal(kept, want) {
		t.Errorf("kept %q, want %q", kept, want)
	}
}

func TestFilter(t *testing.T) {
	pages := threePages(t)
	b := site.NewBuilder(site.Options{})
	for _, p := range pages {
		b.Add(p)
	}
	var f filter.Filter = site.Filter{Model: b.Build(), Member: true}
	if f.Name() != "site" {
		t.Errorf("Name = %q", f.Name())
	}
	p := pages[0]
	out := filter.Run(f, p)
	for i, bl := range p.Blocks {
		want := 1.0
		if slices.Contains(template, bl.Text) {
			want = 0
		}
		if out[i] != want {
			t.Errorf("%q: score %v, want %v", bl.Text, out[i], want)
		}
	}
	// Inactive blocks keep their score.
	active := make([]bool, len(p.Blocks))
	out = make([]float64, len(p.Blocks))
	for i := range out {
		out[i] = 0.25
	}
	active[0] = true
	f.Score(p, active, out)
	if out[0] != 0 || out[1] != 0.25 {
		t.Errorf("with a mask: %v", out[:2])
	}
	// In a serial pipeline the next stage sees only the page's own blocks.
	lqf, err := filter.Lookup("lqf")
	if err != nil {
		t.Fatal(err)
	}
	s := filter.Serial(f, lqf)
	if s.Name() != "site>lqf" {
		t.Errorf("serial name %q", s.Name())
	}
	out = filter.Run(s, p)
	for i, bl := range p.Blocks {
		if slices.Contains(template, bl.Text) && out[i] >= filter.Keep {
			t.Errorf("%q kept by site>lqf", bl.Text)
		}
	}
}
