package segment

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/sluice-project/sluice/ingest"
	"github.com/sluice-project/sluice/page"
)

func segmentWith(t testing.TB, src string, opts Options) *page.Page {
	t.Helper()
	doc, err := ingest.Parse([]byte(src), ingest.DefaultOptions())
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return Segment(doc, opts)
}

func lk(b int32, text, href string) page.Link { return page.Link{Block: b, Text: text, Href: href} }

func img(b, after int32, inLink bool, src, alt string, inText bool) page.Image {
	return page.Image{Block: b, After: after, InLink: inLink, Src: src, Alt: alt, InText: inText}
}

var withRefs = Options{ImageAlt: true, Links: true, Images: true}

func TestLinks(t *testing.T) {
	cases := []struct {
		name, src string
		want      []page.Link
	}{
		{"nested inline tags", `<p>See <a href=" /x ">our <b>big</b>
			<i>site</i></a> now.</p>`, []page.Link{lk(0, "our big site", "/x")}},
		{"several, same anchor twice", `<p><a href=a>here</a> or <a href="b?x=1&amp;y=2">here</a>, <a href=c>there</a></p>`,
			[]page.Link{lk(0, "here", "a"), lk(0, "here", "b?x=1&y=2"), lk(0, "there", "c")}},
		{"across blocks", `<p>x</p><a href=u><div>one</div><div>two <em>more</em></div></a><p>y <a href=v>z</a></p>`,
			[]page.Link{lk(1, "one", "u"), lk(2, "two more", "u"), lk(3, "z", "v")}},
		{"in a list, unicode", `<ul><li><a href="/ü?q=日本">日本 語</a></li><li>plain</li><li><a href="#top">  Top  </a></li></ul>`,
			[]page.Link{lk(0, "日本 語", "/ü?q=日本"), lk(2, "Top", "#top")}},
		{"any scheme, as written", `<p><a href="javascript:alert(1)">run</a> <a href=mailto:a@b.c>mail</a></p>`,
			[]page.Link{lk(0, "run", "javascript:alert(1)"), lk(0, "mail", "mailto:a@b.c")}},
		{"image alt as anchor", `<p><a href=/><img src=logo.png alt="Logo"></a> Home</p>`, []page.Link{lk(0, "Logo", "/")}},
		{"no text, no href", `<p><a href=/x><img src=y></a><a>name</a> <a href="  ">blank</a> text</p>`, nil},
		{"pre lines", "<pre><a href=p>line one\nline two</a>\n</pre>", []page.Link{lk(0, "line one", "p"), lk(1, "line two", "p")}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := segmentWith(t, "<body>"+c.src+"</body>", withRefs)
			if !reflect.DeepEqual(p.Links, c.want) {
				t.Errorf("links = %q\nwant %q\nblocks %q", p.Links, c.want, texts(p))
			}
			for _, l := range p.Links {
				text := p.Blocks[l.Block].Text
				if !strings.Contains(text, l.Text) {
					t.Errorf("link text %q is not in its block %q", l.Text, text)
				}
				// The text shares the block's memory.
				start := uintptr(unsafe.Pointer(unsafe.StringData(text)))
				if at := uintptr(unsafe.Pointer(unsafe.StringData(l.Text))); at < start || at >= start+uintptr(len(text)) {
					t.Errorf("link text %q is a copy", l.Text)
				}
			}
		})
	}
}

func TestLinksNestedParsed(t *testing.T) {
	p := segmentWith(t, `<body><p><a href=outer>one <span><a href=inner>two</a></span></a></p></body>`, withRefs)
	if len(p.Links) == 0 || p.Links[0].Href != "outer" || p.Links[0].Text != "one" {
		t.Errorf("links = %q", p.Links)
	}
}

func TestBlockLinks(t *testing.T) {
	p := segmentWith(t, `<body><p><a href=a>a</a> <a href=b>b</a></p><p>none</p><p><a href=c>c</a></p></body>`, withRefs)
	for b, want := range []string{"ab", "", "c"} {
		got := ""
		for _, l := range p.BlockLinks(b) {
			got += l.Href
		}
		if got != want {
			t.Errorf("BlockLinks(%d) = %q, want %q", b, got, want)
		}
	}
	if n := len(p.BlockLinks(7)); n != 0 {
		t.Errorf("BlockLinks past the end: %d", n)
	}
}

func TestImages(t *testing.T) {
	src := `<body><p><img src=" a.png " alt=" red
		kite "> flies over <img src=b.jpg alt=""> the hill.</p>
		<figure><img src=alone.png></figure>
		<p>Map: <img src="c.svg" alt="map.png"> <img alt="no src"></p>
		<p><a href=/><img src=logo.png alt=Logo></a></p></body>`
	p := segmentWith(t, src, withRefs)
	want := []page.Image{
		img(0, 0, false, "a.png", "red kite", true), img(0, 0, false, "b.jpg", "", false),
		img(1, 0, false, "c.svg", "map.png", false),
		img(2, 1, true, "logo.png", "Logo", true),
	}
	if !reflect.DeepEqual(p.Images, want) {
		t.Errorf("images = %+v\nwant %+v\nblocks %q", p.Images, want, texts(p))
	}
	// Without the alt texts as text, the images are in no block's text.
	noAlt := withRefs
	noAlt.ImageAlt = false
	p = segmentWith(t, src, noAlt)
	for _, im := range p.Images {
		if im.InText {
			t.Errorf("image %+v in the text without ImageAlt", im)
		}
	}
	if len(p.Images) != 3 { // the logo's block has no text
		t.Errorf("images = %+v", p.Images)
	}
}

// TestImagesAmongLinks checks where images are among the links of their
// block: After counts the recorded links started before them (an empty
// link is not recorded), InLink says they are inside the last.
func TestImagesAmongLinks(t *testing.T) {
	src := `<body><p><img src=0 alt=a> <a href=/e><img src=e1></a> <a href=/1>one <img src=1 alt=b> two</a>
		<img src=2 alt=c> <a href=/2>x</a> <img src=3></p>
		<a href=/span><p>first <img src=4></p><p><img src=5> second</p></a></body>`
	p := segmentWith(t, src, withRefs)
	want := []page.Image{
		img(0, 0, false, "0", "a", true), img(0, 0, false, "e1", "", false), img(0, 1, true, "1", "b", true),
		img(0, 1, false, "2", "c", true), img(0, 2, false, "3", "", false),
		img(1, 1, true, "4", "", false), img(2, 1, true, "5", "", false),
	}
	if !reflect.DeepEqual(p.Images, want) {
		t.Errorf("images = %+v\nwant %+v\nlinks %q", p.Images, want, p.Links)
	}
}

func TestRefsOffByDefault(t *testing.T) {
	src := `<body><p>See <a href=/x>x</a> <img src=y alt=z></p></body>`
	p := segmentWith(t, src, DefaultOptions())
	if p.Links != nil || p.Images != nil {
		t.Errorf("recorded with the options off: %v %v", p.Links, p.Images)
	}
	q := segmentWith(t, src, withRefs)
	if !reflect.DeepEqual(texts(p), texts(q)) || len(q.Links) != 1 || len(q.Images) != 1 {
		t.Errorf("blocks %q and %q, links %v, images %v", texts(p), texts(q), q.Links, q.Images)
	}
}

func TestRefsBounds(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("<body><p>")
	for i := range page.MaxBlockLinks + 50 {
		fmt.Fprintf(&sb, `<a href="/%d">l%d</a> <img src="/i%d.png" alt="i%d"> `, i, i, i, i)
	}
	sb.WriteString("</p><p>")
	long := strings.Repeat("x", page.MaxHref)
	fmt.Fprintf(&sb, `<a href="%s">fits</a> <a href="%sy">too long</a> <img src="%sy" alt=big> <a href="%s%s">spaces</a>`,
		long, long, long, strings.Repeat(" ", 1<<20), "/s")
	sb.WriteString("</p></body>")
	p := segmentWith(t, sb.String(), withRefs)
	if n := len(p.BlockLinks(0)); n != page.MaxBlockLinks {
		t.Errorf("%d links in block 0, want %d", n, page.MaxBlockLinks)
	}
	if n := len(p.BlockImages(0)); n != page.MaxBlockLinks {
		t.Errorf("%d images in block 0, want %d", n, page.MaxBlockLinks)
	}
	got := p.BlockLinks(1)
	if len(got) != 2 || got[0].Text != "fits" || got[1].Href != "/s" {
		t.Errorf("links of block 1 = %.80q", got)
	}
	if n := len(p.BlockImages(1)); n != 0 {
		t.Errorf("an image with a long src was kept")
	}
}
