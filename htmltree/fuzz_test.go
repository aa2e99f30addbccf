package htmltree_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/htmltree"
)

// grammarTags are the tags of the balanced markup FuzzTree generates.
var grammarTags = []string{
	"p", "div", "li", "ul", "ol", "table", "tr", "td", "th", "tbody", "caption", "b", "i", "a",
	"em", "span", "h1", "h2", "pre", "form", "select", "option", "textarea", "title", "svg",
	"dl", "dt", "dd", "blockquote", "font", "nobr", "template", "noscript", "br", "hr", "img",
}

var grammarVoid = map[string]bool{"br": true, "hr": true, "img": true}

// balanced turns fuzz bytes into well-formed markup: each byte opens a
// tag, closes the innermost open one, or adds text; every tag opened is
// closed, innermost first. Such markup is well-formed as XML, not always
// as HTML (a <div> in a <p> closes the <p>): the tree builder's rules
// still apply.
func balanced(data []byte) string {
	var sb strings.Builder
	var open []string
	for i, c := range data {
		switch c % 3 {
		case 0:
			tag := grammarTags[int(c/3)%len(grammarTags)]
			sb.WriteString("<" + tag + ">")
			if !grammarVoid[tag] {
				open = append(open, tag)
			}
		case 1:
			if len(open) > 0 {
				sb.WriteString("</" + open[len(open)-1] + ">")
				open = open[:len(open)-1]
			}
		default:
			sb.WriteString(" t")
			sb.WriteByte('0' + byte(i%10))
		}
	}
	for i := len(open) - 1; i >= 0; i-- {
		sb.WriteString("</" + open[i] + ">")
	}
	return sb.String()
}

// FuzzTree feeds the same bytes to htmltree and html.Parse, as they come
// and as balanced markup generated from them: the tree must stay within
// bounds proportional to the input (checkBounds), and where html.Parse
// accepts the input, have its text nodes and block structure.
func FuzzTree(f *testing.F) {
	files, _ := filepath.Glob("../testdata/*.html")
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data)
		}
	}
	for _, s := range []string{
		"<p>a<p>b", "<b><p>x</b>y", "<table>x<tr><td>a</table>", "<a><div>x</a>y",
		"<svg><p>x", "<select><option>a<option>b", "<!DOCTYPE html><p><table>",
		"<template><tr><td>x</template>", "<frameset><frame>", "<p>a\x00b&amp;\r\n",
	} {
		f.Add([]byte(s))
	}
	var b htmltree.Builder
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, src := range [][]byte{data, []byte(balanced(data))} {
			tr := b.Build(src)
			checkBounds(t, src, tr)
			doc, err := refParse(src)
			if err != nil {
				continue
			}
			want, got := refTexts(doc), treeTexts(tr)
			if i := firstTextDiff(want, got); i >= 0 {
				t.Fatalf("%q: text node %d differs:\nhtml.Parse: %q\nhtmltree:   %q", src, i, want, got)
			}
			if wb, gb := refBlocks(doc), treeBlocks(tr); wb != gb {
				t.Fatalf("%q: block structure differs:\nhtml.Parse: %s\nhtmltree:   %s", src, wb, gb)
			}
		}
	})
}
