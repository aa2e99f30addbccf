package corpus

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/fingerprint"
	"github.com/sluice-project/sluice/page"
)

// TestParagraphDedup: ten articles of one site end with the same pitch
// paragraph (its number changing, which normalisation ignores); with
// ParagraphDedup 1 the first page keeps it and the nine others lose it
// (with any other repeated block the model kept, such as the site's menu),
// their own paragraphs untouched, whatever the number of workers.
func TestParagraphDedup(t *testing.T) {
	vocab := madeUpWords(2, 2000)
	dir, pages := pagesDir(t)
	const n = 10
	var firstWords []string
	for i := range n {
		paras := syntheticArticle(100+i, vocab)
		firstWords = append(firstWords, strings.Fields(paras[0])[0], strings.Fields(paras[4])[0])
		paras = append(paras, fmt.Sprintf("Subscribe to the Mill Gazette for %d stories a week on mills, rivers and the people who keep them turning, delivered free to your inbox every Friday morning.", 3+i))
		page := articlePage(fmt.Sprintf("Article %d", i), paras, 1)
		if err := os.WriteFile(filepath.Join(pages, fmt.Sprintf("p%02d.html", i)), []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, jobs := range []int{1, 2} {
		out := filepath.Join(dir, fmt.Sprintf("out-%d", jobs))
		sum, _ := runCorpus(t, out, []string{pages}, Options{ParagraphDedup: 1, Jobs: jobs})
		if sum.Cleaned != n || sum.ParagraphsDropped < n-1 {
			t.Errorf("-j %d: cleaned %d, paragraphs dropped %d; want %d and at least %d", jobs, sum.Cleaned, sum.ParagraphsDropped, n, n-1)
		}
		for k, d := range readDocs(t, out) {
			pitch := strings.Contains(d.Text, "Subscribe to the Mill Gazette")
			own := strings.Contains(d.Text, firstWords[2*k]) && strings.Contains(d.Text, firstWords[2*k+1])
			if pitch != (k == 0) || !own {
				t.Errorf("-j %d: page %d: pitch kept %v, its own paragraphs %v; text:\n%.300s", jobs, k, pitch, own, d.Text)
			}
		}
	}
}

// TestSiteWithParagraphDedup: with Site (one pass or two) and
// ParagraphDedup 1, the site model corrects the pages first and the
// paragraphs repeated across pages go after it: no paragraph is written
// twice, each page keeps only blocks the site model left it, its site
// field stays, and every record is accounted for.
func TestSiteWithParagraphDedup(t *testing.T) {
	dir := t.TempDir()
	es := siteEntries()
	a := buildArchive(t, dir, "site.warc.gz", es, true, nil)
	for _, whole := range []bool{false, true} {
		name := fmt.Sprintf("whole=%v", whole)
		siteOnly := filepath.Join(dir, name+"-site")
		sum0, _ := runCorpus(t, siteOnly, []string{a.path}, Options{Site: true, SiteWhole: whole})
		both := filepath.Join(dir, name+"-both")
		sum, _ := runCorpus(t, both, []string{a.path}, Options{Site: true, SiteWhole: whole, ParagraphDedup: 1})
		if sum.Records != int64(len(es)) || sum.FailedTotal() != 0 {
			t.Errorf("%s: records %d, failed %v; want %d, none", name, sum.Records, sum.Failed, len(es))
		}
		if sum.ParagraphsDropped == 0 || sum.Site == nil || sum.Site.Pages == 0 || sum.Site.Pages != sum0.Site.Pages {
			t.Errorf("%s: paragraphs dropped %d, site counts %+v (site alone: %+v); want paragraphs dropped and the same site pages",
				name, sum.ParagraphsDropped, sum.Site, sum0.Site)
		}
		alone := byURL(readDocs(t, siteOnly))
		seen := map[uint64]string{}
		for _, d := range readDocs(t, both) {
			a, ok := alone[d.URL]
			if !ok {
				t.Errorf("%s: %s written, but not with Site alone", name, d.URL)
				continue
			}
			if (d.Site == nil) != (a.Site == nil) || d.Site != nil && *d.Site != *a.Site {
				t.Errorf("%s: %s: site field %+v, want %+v as with Site alone", name, d.URL, d.Site, a.Site)
			}
			for _, b := range d.Blocks {
				if !strings.Contains(a.Text, b.Text) {
					t.Errorf("%s: %s: block %q is not in the page as the site model left it", name, d.URL, b.Text)
				}
				h, ok := fingerprint.ParagraphKey(b.Text)
				if !ok {
					continue
				}
				if first, dup := seen[h]; dup && first != d.URL { // a page may repeat its own
					t.Errorf("%s: %s: paragraph %q written again (first on %s)", name, d.URL, b.Text, first)
				}
				seen[h] = d.URL
			}
		}
	}
}

// TestParagraphDedupTurnover: the paragraphs dropped are the same from
// run to run when the window turns over in the middle of a page (a page's
// paragraphs are counted in the page's order, not a map's).
func TestParagraphDedupTurnover(t *testing.T) {
	pages := make([]*page.Page, 6)
	for i := range pages {
		p := &page.Page{}
		for k := range 12 {
			// Paragraph k of page i is on page i+1 too.
			p.Blocks = append(p.Blocks, page.Block{Label: page.Paragraph, Words: 8,
				Text: fmt.Sprintf("a paragraph of the pages %s, number %s", words(i/2), words(k))})
		}
		pages[i] = p
	}
	var first []string
	for run := range 20 {
		d := newParaDedup(1, 5)
		var dropped []string
		for i, p := range pages {
			q := *p
			q.Blocks = append([]page.Block(nil), p.Blocks...)
			d.apply(&q)
			for _, b := range q.Blocks {
				if b.Label == page.Other {
					dropped = append(dropped, fmt.Sprintf("page %d: %s", i, b.Text))
				}
			}
		}
		if len(dropped) == 0 {
			t.Fatal("nothing dropped: the pages do not test the turnover")
		}
		if run == 0 {
			first = dropped
		} else if !slices.Equal(dropped, first) {
			t.Fatalf("run %d dropped\n%v\nrun 0\n%v", run, dropped, first)
		}
	}
}

// words spells n in letters (paragraph keys fold digits).
func words(n int) string {
	var b strings.Builder
	for {
		b.WriteByte(byte('a' + n%26))
		n /= 26
		if n == 0 {
			return b.String()
		}
	}
}
