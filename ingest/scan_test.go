package ingest

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/net/html"
)

// tokenizerText returns the text token spans that x/net/html's tokenizer
// reports, with scripting disabled as sluice parses.
func tokenizerText(b []byte) [][2]int {
	var out [][2]int
	z := html.NewTokenizer(bytes.NewReader(b))
	pos := 0
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return out
		}
		raw := z.Raw()
		if tt == html.StartTagToken {
			if name, _ := z.TagName(); string(name) == "noscript" {
				z.NextIsNotRawText()
			}
		}
		if tt == html.TextToken && len(raw) > 0 {
			out = append(out, [2]int{pos, pos + len(raw)})
		}
		pos += len(raw)
	}
}

func scanSpans(b []byte) [][2]int {
	var out [][2]int
	for _, t := range scanText(b, nil) {
		out = append(out, [2]int{t.start, t.end})
	}
	return out
}

// agreement returns how many of the tokenizer's text spans scanText finds
// exactly.
func agreement(b []byte) (same, total int) {
	want := tokenizerText(b)
	got := map[[2]int]bool{}
	for _, s := range scanSpans(b) {
		got[s] = true
	}
	for _, w := range want {
		if got[w] {
			same++
		}
	}
	return same, len(want)
}

func TestScanTextMatchesTokenizer(t *testing.T) {
	for _, src := range []string{
		`<p>a &amp; b</p>`,
		`<div title="x>y" data-a='q>r' c=d>text</div> tail`,
		`a < b and c<d but <e>f</e>`,
		`<!-- comment --> x <!--> y <!---> z <!-- a -- b --!> w`,
		`<!DOCTYPE html><?xml stuff?>t</ p>u</>v`,
		`<script>if (a < b) { x = "</p>"; }</script>after`,
		`<title>T &amp; U</title><textarea>raw <b>not</b></textarea>`,
		`<style>p > a {}</STYLE >s`,
		`<noscript><p>parsed</p></noscript>`,
		`<p>cut in the <b`,
		`<a href="unterminated>text`,
		"<p>line\r\nbreak</p>",
	} {
		same, total := agreement([]byte(src))
		if same != total {
			t.Errorf("%q: scanText found %d of %d text tokens\n got  %v\n want %v", src, same, total, scanSpans([]byte(src)), tokenizerText([]byte(src)))
		}
	}
}

// TestScanTextOnSharedPages checks agreement with the tokenizer on real
// pages (skipped without ../shared/data).
func TestScanTextOnSharedPages(t *testing.T) {
	files, _ := filepath.Glob("../../shared/data/cleaneval-dev/html/*.html")
	if len(files) == 0 {
		t.Skip("no shared data")
	}
	same, total := 0, 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, n := agreement(b)
		same, total = same+s, total+n
	}
	if float64(same) < 0.995*float64(total) {
		t.Errorf("scanText agrees on %d of %d text tokens", same, total)
	}
	t.Logf("scanText agrees with the tokenizer on %d of %d text tokens", same, total)
}
