// Package expectf1 is the expected-F1 decision rule on one page: given each
// block's content probability and word count, the probability at and above
// which keeping the blocks maximises the page's expected bag-of-words F1.
// The labeller decides pages with it (label.ExpectedF1), and the site model
// decides a page again with it after its path prior moved the
// probabilities.
//
// With block i's content probability p_i and word count w_i, and the
// blocks taken independent, the expected true-positive words of a kept set
// S are Σ_S p_i·w_i and the expected gold words Σ p_i·w_i over the page,
// so E[F1] ≈ 2·Σ_S p_i·w_i / (Σ_S w_i + Σ p_i·w_i) (Jansche 2005; Nan Ye
// et al. 2012 show that the best set is a prefix of the blocks sorted by
// p_i).
package expectf1

import "slices"

// Block is one block of a page: its content probability and its words.
type Block struct{ P, W float64 }

// None is what Cut returns when no block should be kept: more than any
// probability.
const None = 2

// Cut returns the content probability at and above which the blocks are
// kept under the expected-F1 rule, or None when no block reaches sure (or
// the page holds no expected content words). It sorts bs by probability,
// highest first; blocks of one probability go together.
func Cut(bs []Block, sure float64) float64 {
	isSure := false
	for _, b := range bs {
		isSure = isSure || b.P >= sure
	}
	if !isSure {
		return None
	}
	return cut(bs, 1)
}

// CutUnsure is Cut for a page on which the model may be unsure of
// everything: when no block reaches sure but the highest probability m
// reaches unsure, the blocks are decided as if every probability were
// scaled by top/m (the highest becoming top, the order kept), and the cut
// is one of the blocks' own probabilities. The model's ordering of such a
// page still says which of its blocks are the content (docs/page-types.md,
// "Pages the labeller is unsure of"), where Cut would keep nothing of it.
// On any other page it is Cut. top must lie in (0, 1]; like Cut, it
// sorts bs.
func CutUnsure(bs []Block, sure, unsure, top float64) float64 {
	m := 0.0
	for _, b := range bs {
		m = max(m, b.P)
	}
	if m >= sure {
		return cut(bs, 1)
	}
	if m < unsure || m <= 0 {
		return None
	}
	return cut(bs, top/m)
}

// cut is the expected-F1 cut of bs with every probability taken times
// scale, given as the probability of the block it falls on (on the
// blocks' own scale), or None when the page holds no expected content
// words.
func cut(bs []Block, scale float64) float64 {
	gold := 0.0
	for _, b := range bs {
		gold += b.P * scale * b.W
	}
	if gold == 0 {
		return None
	}
	slices.SortFunc(bs, func(a, b Block) int {
		switch {
		case a.P > b.P:
			return -1
		case a.P < b.P:
			return 1
		}
		return 0
	})
	best, at := -1.0, float64(None)
	tp, kept := 0.0, 0.0
	for i, b := range bs {
		tp += b.P * scale * b.W
		kept += b.W
		if i+1 < len(bs) && bs[i+1].P == b.P {
			continue // blocks of one probability go together
		}
		if f := 2 * tp / (kept + gold); f > best {
			best, at = f, b.P
		}
	}
	return at
}
