package label

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/ingest"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/segment"
)

// trainPage builds a page whose nav links are Other and whose article
// blocks are content, labelled from the markup.
func trainPage(t *testing.T, n int) Example {
	t.Helper()
	var sb strings.Builder
	sb.WriteString(`<body><ul class="nav">`)
	for i := range 5 {
		sb.WriteString(`<li><a href="/x">Menu item ` + strings.Repeat("x", i+n%3) + `</a></li>`)
	}
	sb.WriteString(`</ul><div class="article"><h1>Heading number ` + strings.Repeat("y", n%4+1) + `</h1>`)
	for i := range 3 {
		sb.WriteString(`<p>This is a paragraph of the article with enough words to look like text, number ` + strings.Repeat("z", i+1) + `.</p>`)
	}
	sb.WriteString(`</div><div class="footer"><a href="/t">Terms</a> | <a href="/p">Privacy</a></div></body>`)
	doc, err := ingest.Parse([]byte(sb.String()), ingest.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	p := segment.Segment(doc, segment.DefaultOptions())
	labels := make([]page.Label, len(p.Blocks))
	for i, b := range p.Blocks {
		switch {
		case strings.HasPrefix(b.Text, "Heading"):
			labels[i] = page.Heading
		case strings.HasPrefix(b.Text, "This is"):
			labels[i] = page.Paragraph
		default:
			labels[i] = page.Other
		}
	}
	return Example{Page: p, Labels: labels}
}

func TestTrainLabelSaveLoad(t *testing.T) {
	var ex []Example
	for n := range 12 {
		ex = append(ex, trainPage(t, n))
	}
	lab, err := Train(context.Background(), ex, TrainConfig{MaxIterations: 60, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	loaded := saveLoad(t, lab)
	test := trainPage(t, 99)
	for _, l := range []*Labeller{lab, loaded} {
		p := test.Page
		l.Label(p, 0.5)
		for i, b := range p.Blocks {
			if b.Label != test.Labels[i] {
				t.Errorf("block %q: label %v, want %v (score %.2f)", b.Text, b.Label, test.Labels[i], b.Score)
			}
			if b.Score < 0 || b.Score > 1 {
				t.Errorf("score %v outside [0,1]", b.Score)
			}
		}
	}
	// A higher threshold never keeps more.
	p := trainPage(t, 7).Page
	lab.Label(p, 0.5)
	kept := 0
	for _, b := range p.Blocks {
		if b.Label != page.Other {
			kept++
		}
	}
	lab.Label(p, 0.99)
	for _, b := range p.Blocks {
		if b.Label != page.Other {
			kept--
		}
	}
	if kept < 0 {
		t.Errorf("a higher threshold kept more blocks")
	}
}

func TestLoadRejectsOtherFiles(t *testing.T) {
	for _, data := range [][]byte{nil, []byte("SLUICEM1"), []byte("not a model at all"), []byte("SLUICEM1\xff\xff\xff\x7f{}")} {
		if _, err := Load(data); err == nil {
			t.Errorf("Load(%q) succeeded", data)
		}
	}
}

// TestStyles trains one model on pages annotated in two styles, the second
// keeping the footer links as content, and checks that each style labels
// as its own examples did, and that styles and thresholds survive a save.
func TestStyles(t *testing.T) {
	var ex []Example
	for n := range 12 {
		e := trainPage(t, n)
		if n%2 == 1 {
			e.Style = "wide"
			e.Labels = append([]page.Label(nil), e.Labels...)
			for i, b := range e.Page.Blocks {
				if b.Text == "Terms" || b.Text == "Privacy" || strings.Contains(b.Text, "Terms") {
					e.Labels[i] = page.Paragraph
				}
			}
		}
		ex = append(ex, e)
	}
	// The CRF's styles: boosted trees on twelve tiny pages learn none, and
	// blending their verdict in would blur the difference.
	fc := DefaultFeatureConfig()
	fc.Off[Boost] = true
	lab, err := Train(context.Background(), ex, TrainConfig{Features: &fc, MaxIterations: 80, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := lab.Styles(); len(got) != 2 || got[0] != MainStyle || got[1] != "wide" {
		t.Fatalf("Styles() = %v", got)
	}
	if err := lab.SetThresholds(map[string]float64{"wide": 0.3}); err != nil {
		t.Fatal(err)
	}
	if err := lab.SetThresholds(map[string]float64{"narrow": 0.3}); err == nil {
		t.Error("SetThresholds accepted an unknown style")
	}
	loaded := saveLoad(t, lab)
	if loaded.Threshold("wide") != 0.3 || loaded.Threshold("") != 0.5 {
		t.Errorf("thresholds after load: wide %v, main %v", loaded.Threshold("wide"), loaded.Threshold(""))
	}
	kept := func(style string) (footer, nav int) {
		p := trainPage(t, 3).Page
		if err := loaded.LabelStyle(p, style, 0.5); err != nil {
			t.Fatal(err)
		}
		for _, b := range p.Blocks {
			if b.Label == page.Other {
				continue
			}
			switch {
			case strings.Contains(b.Text, "Terms"):
				footer++
			case strings.HasPrefix(b.Text, "Menu"):
				nav++
			}
		}
		return
	}
	if f, n := kept(MainStyle); f != 0 || n != 0 {
		t.Errorf("main style kept %d footer and %d menu blocks, want none", f, n)
	}
	if f, n := kept("wide"); f == 0 || n != 0 {
		t.Errorf("wide style kept %d footer and %d menu blocks, want the footer only", f, n)
	}
	if err := loaded.LabelStyle(trainPage(t, 1).Page, "narrow", 0); err == nil || !strings.Contains(err.Error(), "wide") {
		t.Errorf("unknown style: err = %v, want one listing the known styles", err)
	}
}

// TestDecideRescue: a page whose kept blocks hold under RescueShare of its
// words is decided again at a third of the threshold; one that keeps more
// is left as it is.
func TestDecideRescue(t *testing.T) {
	lab, err := Train(context.Background(), []Example{trainPage(t, 0), trainPage(t, 1)}, TrainConfig{MaxIterations: 5, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	p := &page.Page{Blocks: make([]page.Block, 10)}
	marg := make([][]float64, 10)
	for i := range p.Blocks {
		p.Blocks[i].Words = 10
		// other, heading, paragraph, list, continuation: content 0.2
		marg[i] = []float64{0.8, 0, 0.2, 0, 0}
	}
	// Nothing kept: left so, for the cleaner's fallback.
	lab.Decide(p, marg, 0.5)
	for i, b := range p.Blocks {
		if b.Label != page.Other {
			t.Fatalf("block %d: %v, want nothing kept", i, b.Label)
		}
	}
	// One sure block with a twentieth of the words: decided again.
	marg[0] = []float64{0.1, 0, 0.9, 0, 0}
	p.Blocks[0].Words = 5
	lab.Decide(p, marg, 0.5)
	for i, b := range p.Blocks {
		if b.Label != page.Paragraph {
			t.Fatalf("block %d: %v, want every block kept at a third of the threshold", i, b.Label)
		}
	}
	// One sure block with a quarter of the words: no second pass.
	p.Blocks[0].Words = 30
	lab.Decide(p, marg, 0.5)
	for i, b := range p.Blocks {
		if want := i == 0; (b.Label != page.Other) != want {
			t.Errorf("block %d: %v, kept should be %v", i, b.Label, want)
		}
	}
}

// saveLoad writes lab as a model file and reads it back.
func saveLoad(t *testing.T, lab *Labeller) *Labeller {
	t.Helper()
	var buf bytes.Buffer
	if err := lab.Save(&buf); err != nil {
		t.Fatal(err)
	}
	loaded, err := Load(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return loaded
}
