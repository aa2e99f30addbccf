package segment

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sluice-project/sluice/ingest"
	"github.com/sluice-project/sluice/page"
)

func FuzzSegment(f *testing.F) {
	for _, g := range []string{"../testdata/*.html", "../ingest/testdata/*/*"} {
		files, _ := filepath.Glob(g)
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil {
				f.Add(data)
			}
		}
	}
	f.Add([]byte("<body><pre>a\nb</pre><ul><li><a href=x>l</a></li></ul><img alt=y></body>"))
	f.Add([]byte("<p><a href=u>a <b>b</b><div>c</div></a> <img src=s alt=' x  y'> <a href='javascript:z'>a</a>"))
	f.Add([]byte("<table><caption>c</caption><tr><th colspan=3>a<td rowspan=2>b<tr><td>c<table><tr><td>d</table></table>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, parser := range []string{ingest.ParserHTML, ingest.ParserArena} {
			opts := ingest.DefaultOptions()
			opts.Parser = parser
			doc, err := ingest.Parse(data, opts)
			if err != nil {
				return
			}
			checkPage(t, Segment(doc, Options{ImageAlt: true, AbbrTitles: true, Links: true, Images: true}), data)
		}
	})
}

// checkPage checks the invariants of a page segmented from input data.
func checkPage(t *testing.T, p *page.Page, data []byte) {
	t.Helper()
	for i, b := range p.Blocks {
		if b.Text == "" || !utf8.ValidString(b.Text) {
			t.Fatalf("block %d: empty or invalid text %q", i, b.Text)
		}
		if b.LinkChars > b.Chars || b.Node < 0 || int(b.Node) >= len(p.Nodes) {
			t.Fatalf("block %d: inconsistent %+v", i, b)
		}
		if b.Source.Start < 0 || b.Source.End < b.Source.Start || b.Source.End > len(data) {
			t.Fatalf("block %d: span %v outside the input (%d bytes)", i, b.Source, len(data))
		}
	}
	for i, n := range p.Nodes {
		if n.First > n.End || int(n.End) > len(p.Blocks) || n.Parent >= int32(i) {
			t.Fatalf("node %d inconsistent: %+v", i, n)
		}
	}
	checkTables(t, p)
	checkRefs(t, p)
}

// checkTables checks that every recorded cell lies in its table's grid,
// without overlap, and points to blocks of the page.
func checkTables(t *testing.T, p *page.Page) {
	for k, tb := range p.Tables {
		if tb.Rows < 0 || tb.Cols < 0 || tb.Cols > page.MaxTableCols || len(tb.Cells) > page.MaxTableCells {
			t.Fatalf("table %d: size %dx%d, %d cells", k, tb.Rows, tb.Cols, len(tb.Cells))
		}
		seen := map[[2]int32]bool{}
		for i, c := range tb.Cells {
			if c.Row < 0 || c.Col < 0 || c.RowSpan < 1 || c.ColSpan < 1 || c.Row+c.RowSpan > tb.Rows || c.Col+c.ColSpan > tb.Cols ||
				c.First > c.End || int(c.End) > len(p.Blocks) || int(c.Node) >= len(p.Nodes) {
				t.Fatalf("table %d cell %d inconsistent: %+v in %dx%d", k, i, c, tb.Rows, tb.Cols)
			}
			if int(c.RowSpan)*int(c.ColSpan) > 10_000 {
				continue
			}
			for y := c.Row; y < c.Row+c.RowSpan; y++ {
				for x := c.Col; x < c.Col+c.ColSpan; x++ {
					if seen[[2]int32{y, x}] {
						t.Fatalf("table %d: cells overlap at %d,%d", k, y, x)
					}
					seen[[2]int32{y, x}] = true
				}
			}
		}
	}
}

// checkRefs checks that the links and images are in block order, within
// their bounds, and each link's text in its block's.
func checkRefs(t *testing.T, p *page.Page) {
	last, n := int32(-1), 0
	for i, l := range p.Links {
		if l.Block < last || int(l.Block) >= len(p.Blocks) || l.Text == "" || l.Href == "" || len(l.Href) > page.MaxHref {
			t.Fatalf("link %d inconsistent: %+v", i, l)
		}
		if !strings.Contains(p.Blocks[l.Block].Text, l.Text) {
			t.Fatalf("link %d: %q not in its block's text %q", i, l.Text, p.Blocks[l.Block].Text)
		}
		if n++; l.Block != last {
			last, n = l.Block, 1
		}
		if n > page.MaxBlockLinks {
			t.Fatalf("block %d: more than %d links", l.Block, page.MaxBlockLinks)
		}
	}
	last = -1
	for i, im := range p.Images {
		if im.Block < last || int(im.Block) >= len(p.Blocks) || im.Src == "" || len(im.Src) > page.MaxHref {
			t.Fatalf("image %d inconsistent: %+v", i, im)
		}
		last = im.Block
	}
}
