package htmltree_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/htmltree"
)

// checkBounds fails the test when the tree of src outgrows a bound
// proportional to the input, or has a link out of range or a span outside
// the input.
func checkBounds(tb testing.TB, src []byte, t *htmltree.Tree) {
	tb.Helper()
	nodes, attrs, side := t.Sizes()
	n := len(src)
	if nodes > 12*n+64 || attrs > n+1 || side > 8*n+64 {
		tb.Fatalf("%d input bytes gave %d nodes, %d attributes, %d side bytes", n, nodes, attrs, side)
	}
	for i := range t.Nodes {
		nd := &t.Nodes[i]
		for _, l := range [...]htmltree.NodeID{nd.Parent, nd.FirstChild, nd.LastChild, nd.PrevSibling, nd.NextSibling} {
			if l < htmltree.Nil || int(l) >= nodes {
				tb.Fatalf("node %d links to %d of %d nodes", i, l, nodes)
			}
		}
		if nd.Raw.Start < 0 || nd.Raw.End < nd.Raw.Start || int(nd.Raw.End) > n {
			tb.Fatalf("node %d: raw span %v outside the input (%d bytes)", i, nd.Raw, n)
		}
	}
	seen := 0
	t.Walk(t.Root(), func(htmltree.NodeID, bool) bool { seen++; return true })
	if seen > 2*nodes {
		tb.Fatalf("walk made %d calls over %d nodes", seen, nodes)
	}
}

// textOf returns the text of a tree's text nodes, concatenated.
func textOf(t *htmltree.Tree) string {
	var sb strings.Builder
	for n := range t.All(t.Root()) {
		if t.Node(n).Type == htmltree.TextNode {
			sb.WriteString(t.Text(n))
		}
	}
	return sb.String()
}

func rep(s string, n int) string { return strings.Repeat(s, n) }

// TestBadInput builds trees of hostile inputs: each must stay within the
// bounds of checkBounds and keep its text; where html.Parse accepts the
// input, the text nodes must be its.
func TestBadInput(t *testing.T) {
	var distinct strings.Builder
	for i := range 10000 {
		fmt.Fprintf(&distinct, "<b id=%d>", i)
	}
	cases := []struct {
		name, src, text string
	}{
		{"10000 nested divs", rep("<div>", 10000) + "deep" + rep("</div>", 10000), "deep"},
		{"10000 nested spans", rep("<span>", 10000) + "deep" + rep("</span>", 10000), "deep"},
		{"100000 siblings", rep("<p>x</p>", 100000), rep("x", 100000)},
		{"100000 br", "<p>" + rep("<br>", 100000) + "end", "end"},
		{"10000 unclosed b", rep("<b>", 10000) + "x" + rep("<p>y", 100), "x" + rep("y", 100)},
		{"10000 distinct unclosed b", distinct.String() + rep("<p>y</p>", 1000), rep("y", 1000)},
		{"10000 misnested b p", rep("<b><p>x", 10000) + rep("</b>", 10000), rep("x", 10000)},
		{"10000 unclosed a", rep("<a href=x>a", 10000), rep("a", 10000)},
		{"10000 misnested a div", rep("<a><div>x", 10000) + rep("</a>", 10000), rep("x", 10000)},
		{"tables nested 500 deep", rep("<table><tr><td>", 500) + "cell" + rep("</td></tr></table>", 500), "cell"},
		{"tables unclosed 500 deep", rep("<table><tr><td>t", 500), rep("t", 500)},
		{"foster parenting 10000", "<table>" + rep("x<tr><td>c</td></tr>", 10000) + "</table>", rep("x", 10000) + rep("c", 10000)},
		{"colspan garbage", `<table><tr><td colspan="99999999999" rowspan=-1>a<td colspan=abc rowspan="1e9">b<td colspan>c</table>`, "abc"},
		{"NULs", "<p\x00>a\x00b<d\x00iv x\x00=\"\x00\">c</p>\x00", "abc"},
		{"invalid UTF-8", "\xff\xfe<p>\xc3(\xa0\xe2\x82</p><p title=\"\xff\">x", "\xc3(\xa0\xe2\x82x"},
		{"truncated tag", "<p>a</p><div cla", "a"},
		{"truncated end tag", "<p>a</", "a</"},
		{"truncated comment", "<p>a<!-- never closed", "a"},
		{"truncated script", "<p>a<script>var x = '<p>'", "avar x = '<p>'"},
		{"huge attribute", "<p title=\"" + rep("v", 1<<20) + "\">a", "a"},
		{"100000 attributes", "<p " + rep("a ", 100000) + ">x", "x"},
		{"100000 distinct attributes", "<p" + distinctAttrs(100000) + ">x", "x"},
		{"svg in svg", rep("<svg><foreignObject>", 2000) + "s", "s"},
		{"templates", rep("<template><td>", 3000) + "t", "t"},
		{"select nest", rep("<select><option>o", 5000), rep("o", 5000)},
		{"frameset", rep("<frameset>", 1000) + "x" + rep("</frameset>", 1000), ""},
		{"plaintext", "<plaintext><p>" + rep("</plaintext>", 10), "<p>" + rep("</plaintext>", 10)},
	}
	var b htmltree.Builder
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := []byte(c.src)
			tr := b.Build(src)
			checkBounds(t, src, tr)
			if got := textOf(tr); !strings.Contains(got, c.text) {
				t.Errorf("text %q does not hold %q", clip(got), clip(c.text))
			}
			doc, err := refParse(src)
			if err != nil {
				return // html.Parse refuses it: nothing to compare
			}
			want, got := refTexts(doc), treeTexts(tr)
			if i := firstTextDiff(want, got); i >= 0 {
				t.Errorf("text node %d differs from html.Parse's (%d and %d nodes)", i, len(want), len(got))
			}
		})
	}
}

func distinctAttrs(n int) string {
	var sb strings.Builder
	for i := range n {
		fmt.Fprintf(&sb, " a%d=%d", i, i)
	}
	return sb.String()
}

// TestDeepWarning: nesting past MaxDepth is flattened and said so.
func TestDeepWarning(t *testing.T) {
	tr := htmltree.Build([]byte(rep("<div>", htmltree.MaxDepth+10) + "x"))
	if len(tr.Warnings) == 0 {
		t.Errorf("no warning for %d nested divs", htmltree.MaxDepth+10)
	}
	deepest := 0
	for n := range tr.All(tr.Root()) {
		deepest = max(deepest, tr.Depth(n))
	}
	if deepest > htmltree.MaxDepth+1 {
		t.Errorf("tree depth %d over MaxDepth %d", deepest, htmltree.MaxDepth)
	}
}
