package site_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/internal/pagetest"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/site"
)

// benchPages returns n pages of a made-up site, each of about 120 blocks:
// a menu of 40 links, an article of 30 paragraphs, a box of 20 related
// links (some shared) and a footer of 30 links.
func benchPages(b *testing.B, n int) []*page.Page {
	b.Helper()
	var pages []*page.Page
	for i := range n {
		var sb strings.Builder
		sb.WriteString(`<html><body><div id="menu"><ul>`)
		for k := range 40 {
			fmt.Fprintf(&sb, `<li class="item-%d"><a href="/s%d">Section number %d</a></li>`, k, k, k)
		}
		sb.WriteString(`</ul></div><div class="article"><h1>Headline of story ` + fmt.Sprint(i) + `</h1>`)
		for k := range 30 {
			fmt.Fprintf(&sb, "<p>Paragraph %d of story %c%c tells what happened, with words enough to be a paragraph of an article.</p>\n", k, 'a'+i%26, 'a'+i/26%26)
		}
		sb.WriteString(`</div><div class="related"><ul>`)
		for k := range 20 {
			fmt.Fprintf(&sb, `<li><a href="/r%d">Related story %c</a></li>`, k, 'a'+(i+k)%26)
		}
		sb.WriteString(`</ul></div><div class="footer">`)
		for k := range 30 {
			fmt.Fprintf(&sb, `<a href="/f%d">Footer link %c</a> | `, k, 'a'+k%26)
		}
		sb.WriteString(`</div></body></html>`)
		pages = append(pages, pagetest.Parse(b, sb.String()))
	}
	return pages
}

func blocksOf(pages []*page.Page) int {
	n := 0
	for _, p := range pages {
		n += len(p.Blocks)
	}
	return n
}

func BenchmarkBuilderAdd(b *testing.B) {
	pages := benchPages(b, 64)
	for _, key := range []site.Key{site.TextKey, site.PathKey} {
		b.Run(key.String(), func(b *testing.B) {
			bl := site.NewBuilder(site.Options{Key: key})
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				bl.Add(pages[i%len(pages)])
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/page")
			b.ReportMetric(float64(blocksOf(pages))/float64(len(pages)), "blocks/page")
		})
	}
}

func BenchmarkBuildApply(b *testing.B) {
	pages := benchPages(b, 64)
	// One model of 64 pages, applied to every one of them: the cost per
	// page of a Grouper batch.
	b.Run("build", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			bl := site.NewBuilder(site.Options{})
			for _, p := range pages {
				bl.Add(p)
			}
			bl.Build()
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(pages)), "ns/page")
	})
	bl := site.NewBuilder(site.Options{})
	for _, p := range pages {
		bl.Add(p)
	}
	m := bl.Build()
	work := make([]*page.Page, len(pages))
	for i, p := range pages {
		c := *p
		c.Blocks = append([]page.Block(nil), p.Blocks...)
		work[i] = &c
	}
	b.Run("apply", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			p := work[i%len(work)]
			keepAll(p)
			m.Apply(p, true)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/page")
	})
}

func BenchmarkMultiFile(b *testing.B) {
	pages := benchPages(b, 2)
	b.ReportAllocs()
	for b.Loop() {
		site.MultiFile(pages[0], pages[1])
	}
}

func BenchmarkGrouper(b *testing.B) {
	pages := benchPages(b, 64)
	hosts := make([]string, 100)
	for i := range hosts {
		hosts[i] = fmt.Sprintf("host%d.example", i)
	}
	b.ReportAllocs()
	g := site.NewGrouper[int](site.GroupOptions{})
	for i := 0; b.Loop(); i++ {
		for _, bt := range g.Add(hosts[i%len(hosts)], i, pages[i%len(pages)]) {
			_ = bt.Model
		}
	}
	g.Flush()
}
