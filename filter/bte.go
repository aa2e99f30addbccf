package filter

import "github.com/sluice-project/sluice/page"

func init() {
	RegisterParams("bte", []Param{
		{Name: "tag_weight", Default: 1, Min: 0.05, Max: 20,
			Doc: "what a tag weighs against a word (Finn et al.: 1); more favours long runs of text, less keeps more"},
	}, func(p Params) Filter { return BTE{TagWeight: p["tag_weight"]} })
}

// BTE is Body Text Extraction (Finn, Kushmerick and Smyth, "Fact or
// fiction: Content classification for digital libraries", 2001): the page is
// a sequence of tokens, each tag weighing -1 and each word +1, and the main
// content is the one contiguous region with the largest sum, the region
// holding the most words and the fewest tags. It keeps a single region, so it
// does well on article pages and badly on pages whose text is cut into
// pieces by embedded navigation (CombinE's LQF_BTE, lqf>bte, removes those
// first).
//
// Finn et al. search all (i, j) pairs, which is quadratic in the number of
// tokens; this is the same optimum found in linear time as a maximum-sum
// segment (Kadane's algorithm).
//
// Granularity. A block's tokens are the Split.Tags tags crossed before it,
// then its words interleaved with its InnerTags inline tags. Words are
// counted in word-equivalents (page.Block.Units, see units.go): counted by
// white space, a Chinese paragraph was one word against its tags, and the
// region BTE found on a Chinese page held 4% of its text. The
// region is chosen among runs of whole blocks, since a block is the unit
// that is kept or dropped, and the tags before the region's first block lie
// outside it. The value of a run of blocks i..j is therefore
//
//	sum over k in i..j of (Units_k - InnerTags_k)  -  sum over k in i+1..j of Split.Tags_k
//
// which does not depend on where the inner tags sit inside a block: treating
// a block as its split tags followed by a net (Units - InnerTags) is exact for
// block-aligned regions. (A token-level region could start or end inside a
// block, after an inline link at its head, say; it is never worth cutting a
// block in a way this scoring could express, so the block-aligned optimum is
// the right target.)
//
// Ties go to the region that ends first and, among those, starts first; a
// prefix with net zero is kept in the region. When no run has a positive
// value (every block is link markup, or the page is empty) no block is kept.
//
// Scores are 1 inside the region and 0 outside. Inactive blocks are absent:
// their words and the tags before them are not tokens.
//
// TagWeight generalises the token values: a tag weighs -TagWeight and a word
// +1 (Finn et al.'s weights are 1 and 1). A heavier tag makes the region
// shrink to the densest run of text, a lighter one lets it stretch across
// markup. The zero value weighs tags 1, so BTE{} is Finn et al.'s method.
type BTE struct {
	// TagWeight is what one tag costs against one word; values of 0 and
	// below mean 1.
	TagWeight float64
}

// Name returns "bte".
func (BTE) Name() string { return "bte" }

// Score implements Filter.
func (f BTE) Score(p *page.Page, active []bool, out []float64) {
	bs := p.Blocks
	tw := f.TagWeight
	if !(tw > 0) {
		tw = 1
	}
	// Sums of whole numbers of words and tags are exact in float64, so
	// with weight 1 on text without Han, kana or Thai characters the
	// region is the one integer arithmetic finds.
	var (
		best      float64 // value of the best region; 0: none found yet
		bestFirst = -1
		bestLast  = -1
		cur       float64 // value of the best region ending at the current block
		curFirst  = -1    // its first block; -1 before the first active block
		firstLive = -1
		lastLive  = -1
	)
	for i := range bs {
		if !live(active, i) {
			continue
		}
		if firstLive < 0 {
			firstLive = i
		}
		lastLive = i
		b := &bs[i]
		v := float64(b.Units) - tw*float64(b.InnerTags)
		// Extend the current region across this block's split tags, or
		// start a new region at this block, whichever is worth more
		// (extending on a tie keeps the longer region).
		if ext := cur - tw*float64(b.Split.Tags); curFirst >= 0 && ext >= 0 {
			cur = ext + v
		} else {
			cur, curFirst = v, i
		}
		if cur > best {
			best, bestFirst, bestLast = cur, curFirst, i
		}
	}
	if firstLive < 0 {
		return
	}
	for i := firstLive; i <= lastLive; i++ {
		if !live(active, i) {
			continue
		}
		if i >= bestFirst && i <= bestLast {
			out[i] = 1
		} else {
			out[i] = 0
		}
	}
}
