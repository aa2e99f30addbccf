package htmltree_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/htmltree"
)

// fastCases are tokens the builder reads itself (fast.go) or must leave
// to the tokenizer, next to each other.
var fastCases = []string{
	`<p a=/>x<p b="/">y<p c/>z<br d />w<p e=f/ >v`,
	`<p x=1 x=/>dup<p x=/ x=1>dup2<br/><BR/>`,
	`a <3 b < c <= d <- e</p>`,
	`</ x>bogus</>empty<?xml pi?>q<!doctype html><!-- c -->`,
	"text &amp; more &lt;b&gt; &notit; &#x41;\r\nline\rcr<p>&amp\r\n",
	"<p class=\"a\r\nb\" id=x\r\ny>cr in tag</p>",
	`<a href="?a=1&amp;b=2" title='x>y'>amp</a><a =b c=>d</a>`,
	`<DIV CLASS=Upper ID="X">up</DIV><dIv>mixed</DiV>`,
	"<p\x00q a=b>nul name</p\x00q><p>nul\x00text</p>",
	`<p class="unclosed>`,
	`<p>tail text`,
	`<p`,
	`<`,
	`text<`,
	`</p`,
	`<title>t &amp; <b></title><textarea>x<p></textarea><xmp><p></xmp><p>after`,
	`<noscript><p>n</p></noscript><iframe><p>i</iframe><noembed><p></noembed><p>after`,
	`<svg><![CDATA[<p>]]></svg><p>after<math><mi>x</mi></math>`,
	`<plaintext><p>all text</p>`,
	`<table><tr><td>a<td>b</table><select><option>o<option>p</select>`,
	`<p>` + strings.Repeat(`<a href="x" class="y">link</a> `, 300) + `</p>`,
	`<p ` + strings.Repeat(`a="x>y" `, 50) + `>many quoted</p>`,
	`<p ` + strings.Repeat("k", 3000) + `>long tag</p>`,
	`<!-- ` + strings.Repeat("a > b ", 5000) + ` --><p>after`,
}

func TestFastSameTree(t *testing.T) {
	for i, c := range fastCases {
		sameWithoutSkip(t, fmt.Sprintf("case %d", i), []byte(c))
	}
}

// TestFastReadsMost checks that the builder reads the plain tokens of a
// page itself: a page of plain tags and text builds with none of the
// tokenizer's allocations per attribute.
func TestFastReadsMost(t *testing.T) {
	page := []byte(`<!doctype html><html><head><title>t</title></head><body>` +
		strings.Repeat(`<div class="c" id="i"><p data-a="1" data-b="2">text <a href="/x">link</a></p></div>`, 200) +
		`</body></html>`)
	var fast, slow htmltree.Builder
	htmltree.SetFast(&slow, false)
	fast.Build(page)
	slow.Build(page)
	f := testing.AllocsPerRun(5, func() { fast.Build(page) })
	s := testing.AllocsPerRun(5, func() { slow.Build(page) })
	t.Logf("allocations a build: %.0f, tokenizer alone %.0f", f, s)
	if f*10 > s {
		t.Errorf("%.0f allocations a build with the builder's own reading, %.0f without: want a tenth or fewer", f, s)
	}
}
