package label

import (
	"strconv"
	"sync"

	"github.com/sluice-project/sluice/features"
	"github.com/sluice-project/sluice/internal/expectf1"
	"github.com/sluice-project/sluice/page"
)

// ExpectedF1 is the threshold value that stands for the page-adaptive
// decision rule (0 keeps its meaning of "the default" where thresholds are
// given, and real thresholds lie in (0, 1]): Decide keeps, on each page, the blocks that maximise the page's
// expected bag-of-words F1 under the model's marginals, instead of the
// blocks above one fixed threshold.
//
// With block i's content probability p_i and word count w_i, and the
// blocks taken independent, the expected true-positive words of a kept set
// S are Σ_S p_i·w_i and the expected gold words Σ p_i·w_i over the page,
// so E[F1] ≈ 2·Σ_S p_i·w_i / (Σ_S w_i + Σ p_i·w_i) (Jansche 2005; Nan Ye
// et al. 2012 show that the best set is a prefix of the blocks sorted by
// p_i). The threshold this puts on a page is half the F1 it expects: a page
// whose content the model is sure of is cut near 0.5, a page it is unsure
// of (a listing whose items look like link lists) lower, which is what the
// rescue rule of fixed thresholds does by hand. When no block reaches even
// odds (SureContent) but the likeliest reaches UnsureContent, the page is
// decided on probabilities scaled so that the likeliest is UnsureTop: the
// model's ordering still finds the content of a page it is unsure of
// everywhere (a shop's category grid, a review under a heavy layout),
// where the heuristic pipeline it used to fall back to kept the wrong text
// (docs/page-types.md, "Pages the labeller is unsure of"). Under
// UnsureContent nothing is kept, so that sluice.Cleaner falls back to its
// heuristic pipeline, unless the model judges that pipeline's text
// boilerplate too (sluice.FallbackFloor).
const ExpectedF1 = -1

// SureContent is the content probability one block of a page must reach
// for the expected-F1 rule to keep anything of the page as the
// probabilities are.
const SureContent = 0.5

// UnsureContent is the content probability the likeliest block of a page
// must reach for the expected-F1 rule to decide the page at all: between
// it and SureContent the probabilities are scaled to make the likeliest
// UnsureTop. Held out on the shared sets, pages under it are mostly
// pages whose gold is empty (a store's footer, a script-filled shell).
const UnsureContent = 0.3

// UnsureTop is the probability the likeliest block of an unsure page is
// scaled to (see UnsureContent).
const UnsureTop = 0.9

// expectedF1Threshold returns the content probability at and above which
// the blocks of p are kept under the expected-F1 rule, or a value above 1
// when none should be.
func (l *Labeller) expectedF1Threshold(p *page.Page, marg [][]float64) float64 {
	sc := cands.Get().(*candidates)
	defer func() {
		if cap(sc.c) <= features.MaxPooled { // a huge page's is not kept
			cands.Put(sc)
		}
	}()
	bs := sc.c[:0]
	for i := range p.Blocks {
		bs = append(bs, expectf1.Block{P: 1 - marg[i][l.other], W: float64(p.Blocks[i].Words)})
	}
	sc.c = bs
	return expectf1.CutUnsure(bs, SureContent, UnsureContent, UnsureTop)
}

type candidates struct{ c []expectf1.Block }

var cands = sync.Pool{New: func() any { return new(candidates) }}

// FormatThreshold names a threshold as it is given on the command line:
// "ef" for ExpectedF1, else the number.
func FormatThreshold(t float64) string {
	if t == ExpectedF1 {
		return "ef"
	}
	return strconv.FormatFloat(t, 'g', -1, 64)
}
