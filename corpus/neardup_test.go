package corpus

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/fingerprint"
)

// madeUpWords returns n words of 3 to 9 random letters, seeded.
func madeUpWords(seed uint64, n int) []string {
	rng := rand.New(rand.NewPCG(seed, seed))
	vocab := make([]string, n)
	for i := range vocab {
		w := make([]byte, 3+rng.IntN(7))
		for k := range w {
			w[k] = byte('a' + rng.IntN(26))
		}
		vocab[i] = string(w)
	}
	return vocab
}

// pagesDir returns a temporary directory and its empty pages/ folder.
func pagesDir(t *testing.T) (dir, pages string) {
	t.Helper()
	dir = t.TempDir()
	pages = filepath.Join(dir, "pages")
	if err := os.MkdirAll(pages, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir, pages
}

// syntheticArticle returns the paragraphs of article i: five of 40 words
// drawn from a vocabulary of 3,000 made-up words, seeded by i.
func syntheticArticle(i int, vocab []string) []string {
	rng := rand.New(rand.NewPCG(uint64(i), 7))
	paras := make([]string, 5)
	for p := range paras {
		words := make([]string, 40)
		for w := range words {
			words[w] = vocab[rng.IntN(len(vocab))]
		}
		words[0] = strings.ToUpper(words[0][:1]) + words[0][1:]
		paras[p] = strings.Join(words, " ") + "."
	}
	return paras
}

func articlePage(title string, paras []string, template int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<html><head><title>%s</title></head><body>", title)
	fmt.Fprintf(&b, `<div class="nav t%d"><a href="/">Home</a> <a href="/news">News %d</a> <a href="/about">About us</a></div><article><h1>%s</h1>`, template, template, title)
	for _, p := range paras {
		b.WriteString("<p>" + p + "</p>")
	}
	fmt.Fprintf(&b, `</article><div class="footer">Site %d. <a href="/privacy">Privacy</a></div></body></html>`, template)
	return b.String()
}

// TestNearDuplicates plants, after 60 distinct articles, 60 copies of
// them in another site's template with three words changed (a Jaccard
// similarity of their shingle sets of about 0.86): at least 95% of the
// copies are skipped as near duplicates at 0.8 and every original is
// kept; with the option off all 120 are written.
func TestNearDuplicates(t *testing.T) {
	vocab := madeUpWords(1, 3000)
	dir, pages := pagesDir(t)
	const n = 60
	for i := range n {
		paras := syntheticArticle(i, vocab)
		orig := articlePage(fmt.Sprintf("Article %d", i), paras, 1)
		for k := range 3 { // three words changed in the copy
			words := strings.Fields(paras[k])
			words[10] = vocab[(i*7+k)%len(vocab)]
			paras[k] = strings.Join(words, " ")
		}
		copyPage := articlePage(fmt.Sprintf("Article %d", i), paras, 2)
		for name, page := range map[string]string{fmt.Sprintf("a%03d.html", i): orig, fmt.Sprintf("b%03d.html", i): copyPage} {
			if err := os.WriteFile(filepath.Join(pages, name), []byte(page), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	sum, _ := runCorpus(t, filepath.Join(dir, "out"), []string{pages}, Options{NearDuplicate: 0.8, Jobs: 2})
	originals := 0
	for _, d := range readDocs(t, filepath.Join(dir, "out")) {
		if strings.HasPrefix(filepath.Base(d.Source.File), "a") {
			originals++
		}
	}
	skipped := sum.Skipped[ReasonNearDuplicate]
	t.Logf("copies skipped: %d of %d; originals kept: %d of %d", skipped, n, originals, n)
	if originals != n || skipped < n*95/100 || sum.Cleaned+skipped != 2*n {
		t.Errorf("copies skipped %d, originals kept %d, cleaned %d (of %d each)", skipped, originals, sum.Cleaned, n)
	}
	off, _ := runCorpus(t, filepath.Join(dir, "off"), []string{pages}, Options{})
	if off.Cleaned != 2*n || off.Skipped[ReasonNearDuplicate] != 0 {
		t.Errorf("option off: cleaned %d, near duplicates %d", off.Cleaned, off.Skipped[ReasonNearDuplicate])
	}
}

// TestNearDupWindow: the ring forgets pages beyond its window, and a page
// too short to compare is never a near duplicate.
func TestNearDupWindow(t *testing.T) {
	d := newNearDup(0.8, 4)
	sig := func(seed uint32) *fingerprint.Signature {
		return signature(t, true, func(i int) uint32 { return seed*1000 + uint32(i) })
	}
	if d.seen(sig(1)) || !d.seen(sig(1)) {
		t.Error("a signature is not recognised the second time")
	}
	for k := uint32(2); k < 10; k++ {
		d.seen(sig(k))
	}
	if d.seen(sig(1)) {
		t.Error("a signature older than the window is still recognised")
	}
	short := signature(t, false, func(int) uint32 { return 0 })
	if d.seen(short) || d.seen(short) {
		t.Error("a page too short to compare was a near duplicate")
	}
}

// TestNearDupWindowMemory: a window whose signatures would take more than
// half of Memory is refused, naming the sizes; one that fits is taken.
func TestNearDupWindowMemory(t *testing.T) {
	o := Options{NearDuplicate: 0.8, NearDuplicateWindow: 1 << 20, Memory: 1 << 30}
	if err := o.withDefaults(); err == nil || !strings.Contains(err.Error(), "NearDuplicateWindow 1048576") {
		t.Errorf("a window of 2^20 pages in 1 GiB: %v", err)
	}
	o = Options{NearDuplicate: 0.8, NearDuplicateWindow: 1 << 17, Memory: 1 << 30}
	if err := o.withDefaults(); err != nil {
		t.Errorf("a window of 2^17 pages (%d MiB) in 1 GiB: %v", nearDupBytes(1<<17)>>20, err)
	}
	o = Options{NearDuplicateWindow: 1 << 24}
	if err := o.withDefaults(); err != nil {
		t.Errorf("a window without --near-dup: %v", err)
	}
}

// TestNearDupEveryPageOfABand: a page is compared with every earlier page
// written that shares one of its bands, not only with the latest (as
// sluice-beam compares the pages of a bucket): C resembles A; B, written
// between them, shares C's bands but does not resemble it.
func TestNearDupEveryPageOfABand(t *testing.T) {
	const shared = 25 // bands A, B and C share: 100 of 128 positions
	const rows = fingerprint.SignatureSize / fingerprint.SignatureBands
	a := signature(t, true, func(i int) uint32 { return uint32(i) })
	b := signature(t, true, func(i int) uint32 {
		if i >= shared*rows {
			return 1000 + uint32(i) // B differs from A past the shared bands
		}
		return uint32(i)
	})
	c := signature(t, true, func(i int) uint32 {
		if i >= shared*rows && i%rows == 0 {
			return 2000 + uint32(i) // C in one position a band
		}
		return uint32(i)
	})
	d := newNearDup(0.8, 16)
	if d.seen(a) || d.seen(b) {
		t.Fatal("A or B taken for a near duplicate")
	}
	if !d.seen(c) {
		t.Error("C, which resembles A, was not taken for a near duplicate of it")
	}
}

// signature builds a signature of the given values through its binary
// form.
func signature(t *testing.T, comparable bool, value func(i int) uint32) *fingerprint.Signature {
	t.Helper()
	var b []byte
	for i := range fingerprint.SignatureSize {
		b = binary.LittleEndian.AppendUint32(b, value(i))
	}
	if comparable {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	var s fingerprint.Signature
	if err := s.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	return &s
}
