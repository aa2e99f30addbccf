package label

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/crf"
	"github.com/sluice-project/sluice/crf/lbfgs"
	"github.com/sluice-project/sluice/features"
	"github.com/sluice-project/sluice/internal/pagetest"
	"github.com/sluice-project/sluice/page"
)

// example is a page with the labels of its blocks.
type example struct {
	Page   *page.Page
	Labels []page.Label
	Style  string
}

// trainPage returns page n of pagetest.Article's family.
func trainPage(t *testing.T, n int) example {
	t.Helper()
	p, labels := pagetest.Article(t, n)
	return example{Page: p, Labels: labels}
}

// trainCRF trains a labeller of stages crf, smooth and region on ex with
// the configuration cfg and the default template, as package train does
// for those stages, without its weights and margins.
func trainCRF(t *testing.T, ex []example, cfg FeatureConfig, iterations int) *Labeller {
	t.Helper()
	ext := extractor(t, cfg)
	var seqs []crf.Sequence
	for _, e := range ex {
		ls := make([]int, len(e.Labels))
		for i, l := range e.Labels {
			ls[i] = int(l)
		}
		seqs = append(seqs, crf.Sequence{Attrs: WithStyle(ext.Attrs(e.Page), e.Style), Labels: ls})
	}
	tmpl, err := crf.ParseTemplate(features.DefaultTemplate(ext))
	if err != nil {
		t.Fatal(err)
	}
	m, err := crf.Train(context.Background(), seqs, crf.TrainOptions{Labels: Labels, Template: tmpl, MinCount: 1, MaxIterations: iterations, Workers: 1, Minimizer: lbfgs.Minimizer{}})
	if err != nil {
		t.Fatal(err)
	}
	lab, err := New(cfg, CRFStage{m}, SmoothStage{}, RegionStage{})
	if err != nil {
		t.Fatal(err)
	}
	return lab
}

func TestLoadRejectsOtherFiles(t *testing.T) {
	for _, data := range [][]byte{nil, []byte("SLUICEM1"), []byte("not a model at all"), []byte("SLUICEM1\xff\xff\xff\x7f{}")} {
		if _, err := Load(data); err == nil {
			t.Errorf("Load(%q) succeeded", data)
		}
	}
	// A layout of another version is named as such.
	if _, err := Load([]byte("SLUICEM9\x02\x00\x00\x00{}")); err == nil || !strings.Contains(err.Error(), "SLUICEM9 is not one this sluice reads") {
		t.Errorf("a newer layout: %v", err)
	}
}

// TestDecideRescue: a page whose kept blocks hold under RescueShare of its
// words is decided again at a third of the threshold; one that keeps more
// is left as it is.
func TestDecideRescue(t *testing.T) {
	lab := trainCRF(t, []example{trainPage(t, 0), trainPage(t, 1)}, DefaultFeatureConfig(), 5)
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

// extractor makes the extractor of cfg's features.
func extractor(t testing.TB, cfg FeatureConfig) *features.Extractor {
	t.Helper()
	e, err := features.NewExtractor(cfg.Config)
	if err != nil {
		t.Fatalf("NewExtractor: %v", err)
	}
	return e
}
