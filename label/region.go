package label

import (
	"fmt"

	"github.com/sluice-project/sluice/internal/grow"
	"github.com/sluice-project/sluice/page"
)

// The content region. Most of a page's main content sits inside one
// element (an article, a main column, a product's description); what the
// model keeps outside it is mostly boilerplate that looks like content (a
// teaser list, a comment, a footer's paragraph). The region is the element
// whose blocks, kept alone, would give the best expected bag-of-words F1
// under the model's probabilities (the rule of expected.go applied to
// subtrees instead of thresholds, as WC Cleaner's target node is chosen by
// density). When that F1 is at least regionMinF, the content probability
// of every block outside the region is multiplied by 1 - Region.
//
// Replayed on the held-out marginals of the 6-fold cross-validation of the
// shared sets (path smoothing 0.5, the expected-F1 rule), Region 0.35
// changed the main-metric F1 of CleanEval-dev from 91.50 to 91.64,
// CleanPortalEval 88.84 to 88.79, Dragnet 92.50 to 92.99, L3S-GN1 95.37
// to 95.61, Readability 93.43 to 94.12 and WCXB 83.71 to 83.79. Factors
// from 0.2 to 0.5 and minimum F1 from 0.5 to 0.7 gave about the same.

// RegionStage is the region stage: the content probability of blocks
// outside the page's content region is lowered by FeatureConfig.Region.
type RegionStage struct{}

// Name returns StageRegion.
func (RegionStage) Name() string { return StageRegion }

func (RegionStage) run(l *Labeller, s *state) {
	focusRegion(s.p, s.marg, l.other, l.para, l.cfg.Region, &s.ab.smooth)
}

// DefaultRegion is the Region of new models.
const DefaultRegion = 0.35

// regionMinF is the expected F1 the region must reach for Region to apply:
// on a page whose content is spread over the page (a listing of short
// items, a forum thread) no element stands out, and nothing is changed.
const regionMinF = 0.6

// focusRegion applies the content region rule with factor damp to p's
// marginals, in place.
func focusRegion(p *page.Page, marg [][]float64, other, para int, damp float64, sc *smoothScratch) {
	n := len(p.Blocks)
	if damp <= 0 || len(marg) != n || n == 0 {
		return
	}
	sc.tp = grow.Slice(sc.tp, n+1)
	sc.w = grow.Slice(sc.w, n+1)
	sc.tp[0], sc.w[0] = 0, 0
	for i := range p.Blocks {
		w := float64(p.Blocks[i].Words)
		sc.tp[i+1] = sc.tp[i] + (1-marg[i][other])*w
		sc.w[i+1] = sc.w[i] + w
	}
	gold := sc.tp[n]
	if gold <= 0 {
		return
	}
	best, bestF := -1, 0.0
	for k := range p.Nodes {
		lo, hi := int(p.Nodes[k].First), int(p.Nodes[k].End)
		if lo < 0 || hi > n || lo >= hi {
			continue
		}
		if f := 2 * (sc.tp[hi] - sc.tp[lo]) / (sc.w[hi] - sc.w[lo] + gold); f > bestF {
			best, bestF = k, f
		}
	}
	if best < 0 || bestF < regionMinF {
		return
	}
	lo, hi := int(p.Nodes[best].First), int(p.Nodes[best].End)
	keep := 1 - min(damp, 1)
	for i, m := range marg {
		if c := 1 - m[other]; (i < lo || i >= hi) && c > 0 {
			setContent(m, other, para, c*keep)
		}
	}
}

// checkRegion checks a region factor.
func checkRegion(r float64) error {
	if !(r >= 0 && r <= 1) {
		return fmt.Errorf("label: region factor %g: must be from 0 (off) to 1 (nothing kept outside the region)", r)
	}
	return nil
}

// Focus applies the content region rule with factor r (see Region) to
// marginals of p computed without it, in place, as Smooth does for path
// smoothing.
func (l *Labeller) Focus(p *page.Page, marg [][]float64, r float64) error {
	if err := checkRegion(r); err != nil {
		return err
	}
	if err := checkMarginals(p, marg); err != nil {
		return err
	}
	focusRegion(p, marg, l.other, l.para, r, new(smoothScratch))
	return nil
}
