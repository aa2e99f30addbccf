package structure_test

import (
	"testing"

	"github.com/sluice-project/sluice/internal/pagetest"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/structure"
)

func labelled(t *testing.T, src string, drop map[string]bool) []string {
	t.Helper()
	p := pagetest.Parse(t, src)
	for i := range p.Blocks {
		p.Blocks[i].Score = 1
		if drop[p.Blocks[i].Text] {
			p.Blocks[i].Score = 0
		}
	}
	structure.Label(p, structure.Threshold)
	var out []string
	for _, b := range p.Blocks {
		out = append(out, b.Label.String()+":"+b.Text)
	}
	return out
}

func TestLabelsFromMarkup(t *testing.T) {
	got := labelled(t, `<body>
<h2>Title <em>here</em></h2>
<p>First <b>para</b>graph.</p>
<ul><li>one</li><li><p>two in a p</p></li></ul>
<dl><dt>term</dt><dd>definition</dd></dl>
<p>line one<br>line two<br><br>new segment</p>
<div>text in a div<p>a p inside</p>tail after the p</div>
<table><tr><td>cell one</td><td>cell two</td></tr></table>
<p>menu</p><p>after a dropped block</p>
</body>`, map[string]bool{"menu": true})
	want := []string{
		"heading:Title here",
		"paragraph:First paragraph.",
		"list:one", "list:two in a p",
		"list:term", "list:definition",
		"paragraph:line one", "continuation:line two", "paragraph:new segment",
		"paragraph:text in a div", "paragraph:a p inside", "paragraph:tail after the p",
		"paragraph:cell one", "paragraph:cell two",
		"other:menu", "paragraph:after a dropped block",
	}
	if len(got) != len(want) {
		t.Fatalf("got %d blocks %q, want %d", len(got), got, len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("block %d = %q, want %q", i, got[i], want[i])
		}
	}
}

func TestThreshold(t *testing.T) {
	p := &page.Page{Blocks: []page.Block{{Text: "a", Score: 0.49, Node: -1}, {Text: "b", Score: 0.5, Node: -1}}}
	structure.Label(p, 0.5)
	if p.Blocks[0].Label != page.Other || p.Blocks[1].Label != page.Paragraph {
		t.Errorf("labels = %v, %v", p.Blocks[0].Label, p.Blocks[1].Label)
	}
}
