package label

import (
	"math"
	"testing"

	"github.com/sluice-project/sluice/page"
)

// TestDecideExpectedF1: the expected-F1 rule cuts each page where the
// expected F1 is highest, decides a page no block of which reaches
// SureContent on its scaled probabilities, keeps nothing of a page no
// block of which reaches UnsureContent, and survives a model saved with
// it as a style's threshold.
func TestDecideExpectedF1(t *testing.T) {
	lab := trainCRF(t, []example{trainPage(t, 0), trainPage(t, 1)}, DefaultFeatureConfig(), 5)
	// content probability and words of each block
	type blk struct {
		p     float64
		words int32
	}
	run := func(bs []blk) []bool {
		p := &page.Page{Blocks: make([]page.Block, len(bs))}
		marg := make([][]float64, len(bs))
		for i, b := range bs {
			p.Blocks[i].Words = b.words
			// other, heading, paragraph, list, continuation
			marg[i] = []float64{1 - b.p, 0, b.p, 0, 0}
		}
		lab.Decide(p, marg, ExpectedF1)
		kept := make([]bool, len(bs))
		for i, b := range p.Blocks {
			kept[i] = b.Label != page.Other
			if math.Abs(b.Score-bs[i].p) > 1e-9 {
				t.Errorf("block %d: score %g, want %g", i, b.Score, bs[i].p)
			}
		}
		return kept
	}
	check := func(name string, bs []blk, want ...bool) {
		t.Helper()
		got := run(bs)
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s: kept %v, want %v", name, got, want)
				return
			}
		}
	}
	// A sure block, an unsure one, a long unlikely one: E[F1] is 0.667
	// with the first alone, 0.649 with the second too, so the cut is
	// above 0.3.
	check("sure page", []blk{{0.9, 100}, {0.3, 100}, {0.05, 1000}}, true, false, false)
	// An unsure page: three 0.4 blocks hold most of the expected content,
	// so the rule keeps them (E[F1] 0.563 against 0.076 for the first
	// block alone), where a fixed 0.5 would keep only the first.
	check("unsure page", []blk{{0.55, 10}, {0.4, 100}, {0.4, 100}, {0.4, 100}, {0.02, 500}}, true, true, true, true, false)
	// No block at even odds, the likeliest above UnsureContent: decided
	// as if scaled to 0.9, 0.8 and 0.02 (E[F1] 0.904 with the first two,
	// 0.652 with the first), so the first two are kept.
	check("no sure block", []blk{{0.45, 100}, {0.4, 100}, {0.01, 300}}, true, true, false)
	// Nothing near even odds: nothing, for the cleaner's fallback.
	check("nothing likely", []blk{{0.25, 100}, {0.2, 100}}, false, false)
	check("empty blocks", []blk{{0.9, 0}, {0.8, 0}}, false, false)

	if err := lab.SetThresholds(map[string]float64{MainStyle: ExpectedF1}); err != nil {
		t.Fatal(err)
	}
	if got := saveLoad(t, lab).Threshold(MainStyle); got != ExpectedF1 {
		t.Errorf("threshold after save and load: %g, want ExpectedF1", got)
	}
	if err := lab.SetThresholds(map[string]float64{MainStyle: -0.5}); err == nil {
		t.Error("threshold -0.5 accepted")
	}
}
