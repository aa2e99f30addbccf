package htmltree_test

import (
	"testing"

	"golang.org/x/net/html/atom"

	"github.com/sluice-project/sluice/htmltree"
)

// sameAsParse checks that the tree of src has the text nodes and block
// structure html.Parse gives it.
func sameAsParse(t *testing.T, src string) {
	t.Helper()
	doc, err := refParse([]byte(src))
	if err != nil {
		t.Fatalf("html.Parse(%q): %v", src, err)
	}
	tr := htmltree.Build([]byte(src))
	want, got := refTexts(doc), treeTexts(tr)
	if i := firstTextDiff(want, got); i >= 0 {
		t.Errorf("%q: text node %d differs:\nhtml.Parse: %q\nhtmltree:   %q", src, i, want, got)
	}
	if wb, gb := refBlocks(doc), treeBlocks(tr); wb != gb {
		t.Errorf("%q: block structure differs:\nhtml.Parse: %s\nhtmltree:   %s", src, wb, gb)
	}
}

func TestSmallPages(t *testing.T) {
	for _, src := range []string{
		"",
		"hello",
		"<p>a<p>b",
		"<!DOCTYPE html><p>a<table><tr><td>x</table>",
		"<p>a<table><tr><td>x</table>",
		"<ul><li>a<li>b</ul><dl><dt>t<dd>d<dt>u</dl>",
		"<table>text<tr><td>a<td>b<tr><td>c</table>after",
		"<b><p>x</b>y</p>",
		"<a href=x>1<div>2</a>3</div>",
		"<p><b><i>x</p>y",
		"<html><head><title>T &amp; t</title><meta charset=utf-8></head><body><h1>H<h2>I</h2></body></html>",
		"<head><script>if (a<b) x()</script><style>p{}</style></head><p>x",
		"<noscript><p>ns</p></noscript><p>after",
		"<select><option>a<option>b<optgroup><option>c</select>",
		"<textarea>\nline</textarea><pre>\nfirst</pre>",
		"<svg><title>t</title><p>out</svg>",
		"<table><form><tr><td>a</td></tr></form></table>",
		"a&amp;b&lt;c\x00d\r\ne",
		"<div><div></span></div>x</div>",
		"</p>text</br>",
		"<frameset><frame></frameset>",
		"<template><td>x</td></template><p>y",
		"<p>x</body> y </html> z",
		"<body><p>a</p></body><!-- c --><p>after</p>",
		"<h1><h2>x</h1>y",
		"<table><caption>c<p>d</caption><colgroup><col></colgroup><thead><tr><th>h</thead></table>",
		"<font color=red><p>a<p>b</font>c",
	} {
		sameAsParse(t, src)
	}
}

// TestCount: Count counts the nodes of a type, removed ones included.
func TestCount(t *testing.T) {
	tr := htmltree.Build([]byte("<p>a<b>b</b>c</p><!-- x -->"))
	if n := tr.Count(htmltree.TextNode); n != 3 {
		t.Errorf("Count(TextNode) = %d, want 3", n)
	}
	for n := range tr.All(tr.Root()) {
		if tr.Is(n, atom.B) {
			tr.Remove(n)
			break
		}
	}
	if n, c := tr.Count(htmltree.TextNode), tr.Count(htmltree.CommentNode); n != 3 || c != 1 {
		t.Errorf("after Remove: Count(TextNode), Count(CommentNode) = %d, %d; want 3, 1", n, c)
	}
}
