package label

import (
	"cmp"
	"slices"

	"github.com/sluice-project/sluice/fingerprint"
	"github.com/sluice-project/sluice/page"
)

// Copies far apart. Modern pages often write one text twice in branches of
// their own: a product description in a desktop and a mobile layout, a
// section in a tab and again in an accordion, a post and a reply quoting
// it. A reader sees it once, the main-content benchmarks' gold holds it
// once, and a corpus wants it once; the labeller, which judges each block
// on its own, keeps every copy it likes. So, in the main style, of the
// blocks of twelve words or more that share a text (letters folded to
// lower case, runs of digits alike: fingerprint.ParagraphKey, and the
// numbers of words and characters), two or three copies, the one the model
// likes most keeps its verdict and every other copy whose element lies
// three levels or more below the lowest element holding both is dropped
// (defaultCopyRule).
//
// What the limits leave alone, each measured on the held-out probabilities
// of a cross-validation (docs/page-types.md, "Copies far apart"):
//   - a paragraph repeated within one container (sibling paragraphs of a
//     div, as in Readability's test pages, which repeat one lorem ipsum
//     and keep both in their gold): fewer levels apart;
//   - the text every card of a grid repeats (each webcam's credit line,
//     each offer's terms, each code tab's step), which WCXB's gold keeps
//     as often as the page shows it: more than three copies;
//   - short lines ("Add to cart", a price): under twelve words.
//
// CleanEval's annotators kept a page's text as it ran, copies and all, so
// the cleaneval style keeps the model's verdict.

// CopyRule is the rule with its limits: copies of MinWords words or more,
// MaxCopies of them at most, dropped MinLevels levels or more below the
// element holding both. DropFarCopies applies defaultCopyRule; the others
// are for measuring (scripts/replay).
type CopyRule struct {
	MinWords             int32
	MaxCopies, MinLevels int
}

// defaultCopyRule is the labeller's.
var defaultCopyRule = CopyRule{MinWords: 12, MaxCopies: 3, MinLevels: 3}

// copyScratch is DropFarCopies' memory, reused from page to page.
type copyScratch struct {
	cand, keys []blockKey
}

// blockKey is a block and the key of its text.
type blockKey struct {
	key   uint64
	block int32
}

// DropFarCopies sets, in place, the content probability of each block that
// is a far copy (see above) of a text the model likes more elsewhere on the
// page to 0; marg is indexed by block, other is the index of page.Other.
// cs may be nil.
func DropFarCopies(p *page.Page, marg [][]float64, other int, cs *copyScratch) {
	defaultCopyRule.Drop(p, marg, other, cs)
}

// Drop is DropFarCopies with the rule's limits.
func (r CopyRule) Drop(p *page.Page, marg [][]float64, other int, cs *copyScratch) {
	if other < 0 || len(marg) != len(p.Blocks) {
		return
	}
	if cs == nil {
		cs = new(copyScratch)
	}
	// Copies have the same numbers of words and characters: only the
	// blocks whose numbers another long block shares are keyed (hashing
	// every long block's text was 1% of cleaning a CleanEval page; copies
	// whose digit runs differ in length are left alone).
	cand := cs.cand[:0]
	for i := range p.Blocks {
		if b := &p.Blocks[i]; b.Words >= r.MinWords {
			cand = append(cand, blockKey{uint64(b.Words)<<32 | uint64(uint32(b.Chars)), int32(i)})
		}
	}
	cs.cand = cand
	if len(cand) < 2 {
		return
	}
	byKey := func(a, b blockKey) int { return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.block, b.block)) }
	slices.SortFunc(cand, byKey)
	keys := cs.keys[:0]
	eachRun(cand, func(run []blockKey) {
		if len(run) < 2 {
			return
		}
		for _, c := range run {
			if k, ok := fingerprint.ParagraphKey(p.Blocks[c.block].Text); ok {
				keys = append(keys, blockKey{k, c.block})
			}
		}
	})
	cs.keys = keys
	slices.SortFunc(keys, byKey)
	eachRun(keys, func(run []blockKey) {
		if n := len(run); n >= 2 && n <= r.MaxCopies {
			r.dropFar(p, marg, other, run)
		}
	})
}

// eachRun calls fn for each run of equal keys of sorted.
func eachRun(sorted []blockKey, fn func(run []blockKey)) {
	for lo := 0; lo < len(sorted); {
		hi := lo + 1
		for hi < len(sorted) && sorted[hi].key == sorted[lo].key {
			hi++
		}
		fn(sorted[lo:hi])
		lo = hi
	}
}

// dropFar drops the copies of one text (see DropFarCopies).
func (r CopyRule) dropFar(p *page.Page, marg [][]float64, other int, copies []blockKey) {
	best := copies[0].block
	for _, c := range copies[1:] {
		if marg[c.block][other] < marg[best][other] { // the first of equals
			best = c.block
		}
	}
	if marg[best][other] > 0.5 {
		return // no copy is likely kept
	}
	for _, c := range copies {
		if c.block == best {
			continue
		}
		if up, _, _ := p.CommonAncestor(p.Blocks[c.block].Node, p.Blocks[best].Node); int(up) < r.MinLevels {
			continue
		}
		dropBlock(marg[c.block], other)
	}
}
