package htmltree_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/dataset"
	"github.com/sluice-project/sluice/htmltree"
)

// rawCases are script and style texts whose end the builder must find as
// the tokenizer does, or leave to it.
var rawCases = []string{
	`<script>if (a<b) x = "</scr" + "ipt>";</script><p>after`,
	`<script>document.write("<script>x<\/script>")</script><p>after`,
	`<script><!-- <script> var a; </script> b(); --></script><p>after`,
	`<script><!-- a --></script><p>after`,
	`<style>a>b{color:red}</STYLE ><p>after`,
	`<style><!-- p{} --></style><p>after`,
	`<svg><script>a<b</script><style>x<y</style></svg><p>after`,
	"<script>a\r\nb\rc\x00d</script><p>after",
	`<script data-x="a>b" src='c>d'>x > y</script><p>after`,
	`<script>abc`,
	`<script>abc</script`,
	`<script>abc</scriptx>def</script/><p>after`,
	`<scripts>not raw</scripts><styles>x</styles>`,
	`<!-- <script> --><p>a<script>b</script>`,
	`<textarea><script>x</script></textarea><p>after`,
	`<title><style>x</style></title><body><style></style><script></script><p>empty`,
	`<script/>x</script><p>after`,
	`<table><script>t</script><tr><td><style>s</style>c</table>`,
	`<noscript><script>n</script></noscript><p>after`,
	`<ScRiPt>mixed</sCrIpT	><p>after`,
	`<p>text <script>` + strings.Repeat("var x = 1 > 0 && y < 2;\n", 500) + `</script> tail`,
}

// fullWithRaw is treeFull with each text node's raw span.
func fullWithRaw(t *htmltree.Tree) string {
	var sb strings.Builder
	sb.WriteString(treeFull(t))
	for n := range t.All(t.Root()) {
		if nd := t.Node(n); nd.Type == htmltree.TextNode {
			fmt.Fprintf(&sb, " %d:%d", nd.Raw.Start, nd.Raw.End)
		}
	}
	return sb.String()
}

// sameWithoutSkip fails t unless building src with the builder's own
// reading of raw text and of plain tokens (fast.go) gives the tree (and
// text spans) the tokenizer's reading of every token gives.
func sameWithoutSkip(t *testing.T, name string, src []byte) {
	t.Helper()
	var on, off htmltree.Builder
	htmltree.SetRawSkip(&off, false)
	htmltree.SetFast(&off, false)
	got, want := fullWithRaw(on.Build(src)), fullWithRaw(off.Build(src))
	if got != want {
		k := firstByteDiff(want, got)
		lo := max(0, k-120)
		t.Errorf("%s: the trees differ at byte %d:\n tokenizer %s\n builder   %s", name, k, want[lo:min(len(want), k+120)], got[lo:min(len(got), k+120)])
	}
}

func TestRawSkipSameTree(t *testing.T) {
	for i, c := range rawCases {
		sameWithoutSkip(t, fmt.Sprintf("case %d", i), []byte(c))
	}
}

// TestRawSkipSharedPages compares the two readings on every shared page.
func TestRawSkipSharedPages(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	sets, err := dataset.Sets()
	if err != nil {
		t.Skipf("no shared data: %v", err)
	}
	n := 0
	for _, name := range sets {
		s, err := dataset.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		for p, err := range s.Pages() {
			if err != nil {
				t.Fatal(err)
			}
			sameWithoutSkip(t, name+"/"+p.ID, decodePage(p))
			n++
		}
	}
	t.Logf("%d pages", n)
}

// FuzzRawSkip holds the builder's own reading of raw text and of plain
// tokens to the tokenizer's.
func FuzzRawSkip(f *testing.F) {
	for _, c := range append(rawCases, fastCases...) {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sameWithoutSkip(t, "input", data)
	})
}

// TestRawSkipHostile builds pages whose marks sit in long tokens full of
// '>': a comment, a script the tokenizer must read itself ("<!--"), and
// many script tags. Each must build as the tokenizer alone builds it,
// without cutting the long token into a piece per '>'.
func TestRawSkipHostile(t *testing.T) {
	gts := strings.Repeat("a > b ", 200000)
	for name, src := range map[string]string{
		"comment":      "<!-- <script " + gts + " -->",
		"escaped":      "<script><!-- <script " + gts + "</script>",
		"textarea":     "<textarea><script " + gts + "</textarea>",
		"many scripts": strings.Repeat("<script>x>y</script><style>a>b</style>", 20000),
		"unclosed":     "<script " + gts,
	} {
		sameWithoutSkip(t, name, []byte(src))
	}
}
