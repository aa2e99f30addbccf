package label

import (
	"fmt"

	"github.com/sluice-project/sluice/features"
	"github.com/sluice-project/sluice/internal/grow"
	"github.com/sluice-project/sluice/page"
)

// Path smoothing. A page is built from templates: the items of a listing,
// the paragraphs of an article, the links of a menu each come from one
// piece of markup, so blocks whose containers sit at the same element path
// (the tags and classes from the root down, digits in classes left out)
// are nearly always all content or all boilerplate. The CRF labels each
// block from its own features and its neighbours', and gets some of a
// template's blocks wrong where their text happens to look unlike the
// rest. Smoothing moves each block's content probability toward the mean
// over its path's blocks, by the model's Smooth weight, when the path has
// at least smoothMinBlocks blocks.
//
// Replayed on the held-out marginals of the 6-fold cross-validation of the
// shared sets (300 iterations, one stage, the expected-F1 rule), weight
// 0.5 raised every set's main-metric F1: CleanEval-dev 90.90 to 91.50,
// CleanPortalEval 88.01 to 88.84, Dragnet 92.12 to 92.50, L3S-GN1 95.05
// to 95.37, Readability 93.05 to 93.43, WCXB 83.22 to 83.71. Weights from
// 0.3 to 0.8 gave about the same; so did smoothing over the repeated
// items of a template only (repeat.go), by a little less.

// SmoothStage is the smooth stage: path smoothing with weight
// FeatureConfig.Smooth.
type SmoothStage struct{}

// Name returns StageSmooth.
func (SmoothStage) Name() string { return StageSmooth }

func (SmoothStage) run(l *Labeller, s *state) {
	smoothPaths(s.p, s.marg, l.other, l.para, l.cfg.Smooth, &s.ab.smooth)
}

// DefaultSmooth is the smoothing weight of new models: a block's content
// probability becomes the mean of its own and its path's.
const DefaultSmooth = 0.5

// smoothMinBlocks is the fewest blocks a path needs to be smoothed over.
const smoothMinBlocks = 3

// smoothScratch is the working memory of smoothPaths, reused with an
// AttrBuf.
type smoothScratch struct {
	hash  []uint64 // per node, its path's hash
	slot  map[uint64]int32
	sum   []float64
	count []int32
	of    []int32 // per block, its path's slot, -1 when none
	// the content region's (region.go): running sums of expected
	// content words and of words
	tp, w []float64
}

// smoothPaths smooths the content probabilities (1 - marg[i][other]) of
// p's blocks toward their path means with weight w in (0, 1], scaling the
// content labels' probabilities in proportion (a block with none gets its
// new content probability as label para).
func smoothPaths(p *page.Page, marg [][]float64, other, para int, w float64, sc *smoothScratch) {
	if w <= 0 || len(marg) != len(p.Blocks) || len(p.Blocks) < smoothMinBlocks {
		return
	}
	w = min(w, 1)
	sc.pathSlots(p)
	sc.sum = grow.Slice(sc.sum, len(sc.count))
	clear(sc.sum)
	for i, s := range sc.of {
		if s >= 0 {
			sc.sum[s] += 1 - marg[i][other]
		}
	}
	for i, s := range sc.of {
		if s < 0 || sc.count[s] < smoothMinBlocks {
			continue
		}
		c := 1 - marg[i][other]
		setContent(marg[i], other, para, (1-w)*c+w*sc.sum[s]/float64(sc.count[s]))
	}
}

// pathSlots sets sc.of to the path slot of each of p's blocks (-1 when it
// has none) and sc.count to the blocks of each slot.
func (sc *smoothScratch) pathSlots(p *page.Page) {
	nodes := p.Nodes
	sc.hash = grow.Slice(sc.hash, len(nodes))
	for i := range nodes {
		nd := &nodes[i]
		h := features.NodeSignature(nd)
		if par := nd.Parent; par >= 0 && int(par) < i {
			h = (h ^ sc.hash[par]) * 0x9E3779B97F4A7C15
			h ^= h >> 29
		}
		sc.hash[i] = h
	}
	if sc.slot == nil {
		sc.slot = map[uint64]int32{}
	}
	clear(sc.slot)
	sc.count = sc.count[:0]
	sc.of = grow.Slice(sc.of, len(p.Blocks))
	for i := range p.Blocks {
		n := p.Blocks[i].Node
		if n < 0 || int(n) >= len(nodes) {
			sc.of[i] = -1
			continue
		}
		s, ok := sc.slot[sc.hash[n]]
		if !ok {
			s = int32(len(sc.count))
			sc.slot[sc.hash[n]] = s
			sc.count = append(sc.count, 0)
		}
		sc.of[i] = s
		sc.count[s]++
	}
}

// setContent makes p the content probability (1 - m[other]) of a block's
// marginals m, scaling the content labels' probabilities in proportion; a
// block with none gets p as label para.
func setContent(m []float64, other, para int, p float64) {
	if c := 1 - m[other]; c > 0 {
		f := p / c
		for y := range m {
			if y != other {
				m[y] *= f
			}
		}
	} else {
		m[para] = p
	}
	m[other] = 1 - p
}

// checkMarginals checks that marg has a row for each block of p.
func checkMarginals(p *page.Page, marg [][]float64) error {
	if len(marg) != len(p.Blocks) {
		return fmt.Errorf("label: %d marginals for a page of %d blocks", len(marg), len(p.Blocks))
	}
	return nil
}

// checkSmooth checks a smoothing weight.
func checkSmooth(w float64) error {
	if !(w >= 0 && w <= 1) {
		return fmt.Errorf("label: smoothing weight %g: must be from 0 (no smoothing) to 1 (the path mean alone)", w)
	}
	return nil
}

// Smooth applies path smoothing with weight w to marginals of p that were
// computed without it (a model whose Smooth is 0, or held-out marginals
// kept for study), in place. Labelling with a model applies the model's own
// weight already.
func (l *Labeller) Smooth(p *page.Page, marg [][]float64, w float64) error {
	if err := checkSmooth(w); err != nil {
		return err
	}
	if err := checkMarginals(p, marg); err != nil {
		return err
	}
	smoothPaths(p, marg, l.other, l.para, w, new(smoothScratch))
	return nil
}
