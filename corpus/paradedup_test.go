package corpus

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	if _, err := Run(t.Context(), filepath.Join(dir, "bad"), []string{pages}, Options{ParagraphDedup: 1, Site: true, Cleaner: testCleaner(t)}); err == nil {
		t.Error("ParagraphDedup with Site: no error")
	}
}
