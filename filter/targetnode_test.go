package filter

import (
	"testing"
)

// The article's content div is the densest child of body and holds most
// of its text; its paragraphs each hold less than half of it, so the search
// stops there.
func TestTargetNodeArticle(t *testing.T) {
	p, nav, main, foot := ccbtArticle()
	f := NewTargetNode()
	target, _, ok := f.Target(p, nil)
	if !ok || p.Nodes[target].Tag != "div" || int(p.Nodes[target].First) != main[0] || int(p.Nodes[target].End) != main[1] {
		t.Fatalf("target %d (%+v), want the content div", target, p.Nodes[target])
	}
	out := ccbtRun(t, "targetnode", p, nil)
	for i := range out {
		want := 0.0
		if i >= main[0] && i < main[1] {
			want = 1
		}
		if out[i] != want {
			t.Errorf("block %d: %v, want %v", i, out[i], want)
		}
	}
	_, _ = nav, foot
}

// The densest child of body (one long paragraph) holds fewer than half of
// the characters, so the search stops at body and everything is kept.
func TestTargetNodeStopsAtHalf(t *testing.T) {
	b := ccbtNew()
	b.Open("div").Para(ccbtWords(40)).Close() // dense: 2 structural elements
	b.Open("table")
	for range 10 {
		b.Open("tr")
		for range 4 {
			b.Open("td").Text("cell with three").Close()
		}
		b.Close()
	}
	b.Close()
	p := b.Page()
	f := NewTargetNode()
	target, _, _ := f.Target(p, nil)
	if target != p.Body {
		t.Fatalf("target %d (%s), want body %d", target, p.Nodes[target].Tag, p.Body)
	}
	for i, s := range ccbtRun(t, "targetnode", p, nil) {
		if s != 1 {
			t.Errorf("block %d: %v, want 1", i, s)
		}
	}

	// The same page with more paragraphs: the div now holds most of the
	// text and becomes the target.
	b = ccbtNew()
	b.Open("div")
	for range 8 {
		b.Para(ccbtWords(40))
	}
	b.Close()
	b.Open("table").Open("tr").Open("td").Text("cell").Close().Close().Close()
	p = b.Page()
	target, _, _ = f.Target(p, nil)
	if p.Nodes[target].Tag != "div" {
		t.Fatalf("target %s, want the div", p.Nodes[target].Tag)
	}
}

// The search goes down several levels, through inline-free wrappers, to
// the densest descendant.
func TestTargetNodeDeep(t *testing.T) {
	b := ccbtNew()
	b.Open("div").Open("div").Open("article")
	for range 6 {
		b.Para(ccbtWords(50))
	}
	b.Close().Close()
	ccbtMenu(b, 5)
	b.Close()
	p := b.Page()
	target, _, _ := NewTargetNode().Target(p, nil)
	if p.Nodes[target].Tag != "article" {
		t.Errorf("target %s, want article", p.Nodes[target].Tag)
	}
}

// WC Cleaner's sparse mode drops a page whose target is a table of short
// cells, and leaves an article page as the plain filter scores it.
func TestTargetNodeSparse(t *testing.T) {
	b := ccbtNew()
	b.Open("table")
	for range 10 {
		b.Open("tr")
		for range 3 {
			b.Open("td").Text("12.5").Close()
		}
		b.Close()
	}
	b.Close()
	sparse := b.Page()
	for i, s := range ccbtRun(t, "targetnode-sparse", sparse, nil) {
		if s != 0 {
			t.Errorf("sparse page block %d: %v, want 0", i, s)
		}
	}
	for i, s := range ccbtRun(t, "targetnode", sparse, nil) {
		if s != 1 {
			t.Errorf("targetnode on the sparse page, block %d: %v, want 1", i, s)
		}
	}
	p, _, _, _ := ccbtArticle()
	a, b2 := ccbtRun(t, "targetnode", p, nil), ccbtRun(t, "targetnode-sparse", p, nil)
	for i := range a {
		if a[i] != b2[i] {
			t.Errorf("article block %d: sparse %v, plain %v", i, b2[i], a[i])
		}
	}
}

// With the content div's paragraphs removed by an earlier filter, their
// characters and structure no longer count and the target moves.
func TestTargetNodeActive(t *testing.T) {
	b := ccbtNew()
	b.Open("div")
	for range 5 {
		b.Para(ccbtWords(40)) // 0-4
	}
	b.Close()
	b.Open("div")
	for range 3 {
		b.Para(ccbtWords(30)) // 5-7
	}
	b.Close()
	p := b.Page()
	out := ccbtRun(t, "targetnode", p, nil)
	ccbtCheck(t, "targetnode", out, map[int]bool{0: true, 4: true, 5: false, 7: false})

	active := make([]bool, len(p.Blocks))
	for i := 5; i < len(active); i++ {
		active[i] = true
	}
	out = ccbtRun(t, "targetnode", p, active)
	ccbtCheck(t, "targetnode", out, map[int]bool{5: true, 6: true, 7: true})

	// The recount of structural elements under a full mask equals the
	// segmenter's.
	for i := range active {
		active[i] = true
	}
	s := wccActiveStructural(p, active)
	for n := range p.Nodes {
		if s[n] != p.Nodes[n].Structural {
			t.Errorf("node %d: structural %d under a full mask, want %d", n, s[n], p.Nodes[n].Structural)
		}
	}
}

func BenchmarkTargetNode(b *testing.B) { ccbtBench(b, "targetnode") }
