package label

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/sluice-project/sluice/gbdt"
	"github.com/sluice-project/sluice/internal/grow"
	"github.com/sluice-project/sluice/page"
)

// Context trees (the Context group). The CRF and the boosted trees judge a
// block from its own features and its near neighbours'. Whether a page is
// an article with one body, a listing whose items are its content or a
// product page whose reviews and related items are not, is a question about
// the whole page, and the answer changes what a block's verdict should be.
// A second set of boosted trees reads each block's verdicts (the CRF's, the
// first trees', the blend of both after smoothing and region) together with
// summaries of them over its neighbours, its element path, its div group
// and the whole page, and the page's shape (its blocks, words and links,
// the block's share of its words and its rank among them), and gives the
// block's content probability; smoothing and region then run on that.
//
// The context trees must learn from verdicts on pages the CRF did not see,
// as it will give them on new pages: Train gets the CRF's held-out
// marginals from inner folds that keep sites whole (as for the Stack group,
// which they replace: with the Stack group on, they are not trained), which
// costs one CRF training per fold.

// Columns of a context row.
const (
	cxCRF     = iota // the CRF's content probability
	cxCRFPrev        // of the block before (NaN for none)
	cxCRFNext        // of the block after
	cxTree           // the boosted trees'
	cxTreePrev
	cxTreeNext
	cxTreePrev2
	cxTreeNext2
	cxFinal     // after blend, smoothing and region
	cxFinalNear // the sum over the blocks before and after (NaN at the ends)
	cxPathMean  // the trees' mean over the block's element path
	cxPathCount // the blocks of the path
	cxPathShare // the path's share of the page's words
	cxDivMean   // the trees' mean over the block's div group
	cxDivCount  // the blocks of the div group
	cxPageMean  // the trees' word-weighted mean over the page
	cxPageSure  // the share of the page's words the trees give at least one half
	cxPageMax   // the trees' highest
	cxPageSureW // ln(1 + the words the trees give at least one half)
	cxAbove     // the share of the page's words in blocks the trees like more
	cxBlocks    // ln(1 + the page's blocks)
	cxWords     // ln(1 + the page's words)
	cxPageLink  // the page's link characters over its characters
	cxOwnWords  // ln(1 + the block's words)
	cxOwnShare  // the block's share of the page's words
	cxOwnLink   // the block's link characters over its characters
	cxPosition  // the block's index over the page's blocks
	cxStyle     // the annotation style's index in the model's styles, 0 for main
	ContextColumns
)

// contextScratch is the working memory of contextRows.
type contextScratch struct {
	final          [][]float64 // a copy of the marginals, blended, smoothed and focused
	finalBuf       []float64
	c, t, f        []float64 // per block: the CRF's, the trees' (tp itself) and the final content probability
	divSum, divCnt map[int32]float64
	pathSum        []float64
	pathWords      []float64
	order          []int32
	above          []float64
	x              []float32
	prob           []float64 // the context trees' content probability of each block
	smooth         smoothScratch
}

// contextVerdicts fills cs.c, cs.t and cs.f with each block's content
// probability under the CRF's marginals marg, the trees' (tp) and the
// blend of both after smoothing and region with the labeller's settings.
func contextVerdicts(p *page.Page, marg [][]float64, tp []float64, other, para int, cfg *FeatureConfig, cs *contextScratch) {
	n := len(marg)
	L := 0
	if n > 0 {
		L = len(marg[0])
	}
	cs.final = grow.Slice(cs.final, n)
	cs.finalBuf = grow.Slice(cs.finalBuf, n*L)
	for i, m := range marg {
		cs.final[i] = cs.finalBuf[i*L : (i+1)*L : (i+1)*L]
		copy(cs.final[i], m)
	}
	blend(cs.final, tp, other, para, cfg.Blend)
	smoothPaths(p, cs.final, other, para, cfg.Smooth, &cs.smooth)
	focusRegion(p, cs.final, other, para, cfg.Region, &cs.smooth)
	cs.c, cs.f = grow.Slice(cs.c, n), grow.Slice(cs.f, n)
	cs.t = tp[:n]
	for i := range n {
		cs.c[i] = 1 - marg[i][other]
		cs.f[i] = 1 - cs.final[i][other]
	}
}

// contextRows writes the context row of each of p's blocks into cs.x from
// the verdicts of contextVerdicts; styleIndex is the page's annotation
// style (see cxStyle).
func contextRows(p *page.Page, styleIndex int, cs *contextScratch) []float32 {
	n := len(p.Blocks)
	cs.x = grow.Slice(cs.x, n*ContextColumns)
	t := cs.sums(p)
	cs.rankAbove(p)
	page := t.pageColumns(n, styleIndex)
	allWords := max(t.words, 1)
	for i := range n {
		r := cs.x[i*ContextColumns : (i+1)*ContextColumns]
		copy(r, page[:])
		cs.blockColumns(r, p, i, allWords)
	}
	return cs.x[:n*ContextColumns]
}

// contextTotals are sums over the blocks of a page.
type contextTotals struct {
	words     float64 // words
	treeWords float64 // words weighted by the trees' probability
	sureWords float64 // words the trees give at least one half
	maxT      float64 // the trees' highest probability
	links     float64 // link characters
	chars     float64 // characters
}

// sums returns the totals of p's blocks, and adds up the trees'
// probabilities and the words of the blocks per element path in
// cs.pathSum and cs.pathWords, and the trees' probabilities and the blocks
// per div group in cs.divSum and cs.divCnt.
func (cs *contextScratch) sums(p *page.Page) (t contextTotals) {
	sc := &cs.smooth
	sc.pathSlots(p)
	cs.pathSum = grow.Slice(cs.pathSum, len(sc.count))
	cs.pathWords = grow.Slice(cs.pathWords, len(sc.count))
	clear(cs.pathSum)
	clear(cs.pathWords)
	if cs.divSum == nil {
		cs.divSum, cs.divCnt = map[int32]float64{}, map[int32]float64{}
	}
	clear(cs.divSum)
	clear(cs.divCnt)
	for i := range p.Blocks {
		b := &p.Blocks[i]
		w, tp := float64(b.Words), cs.t[i]
		t.words += w
		t.treeWords += w * tp
		if tp >= 0.5 {
			t.sureWords += w
		}
		t.maxT = max(t.maxT, tp)
		t.links += float64(b.LinkChars)
		t.chars += float64(b.Chars)
		if s := sc.of[i]; s >= 0 {
			cs.pathSum[s] += tp
			cs.pathWords[s] += w
		}
		cs.divSum[b.DivGroup] += tp
		cs.divCnt[b.DivGroup]++
	}
	return t
}

// rankAbove sets cs.above to each block's words of the page in blocks the
// trees like more, from the blocks in falling order of the trees'
// probability.
func (cs *contextScratch) rankAbove(p *page.Page) {
	n := len(p.Blocks)
	cs.order = grow.Slice(cs.order, n)
	for i := range cs.order {
		cs.order[i] = int32(i)
	}
	slices.SortStableFunc(cs.order, func(a, b int32) int { return cmp.Compare(cs.t[b], cs.t[a]) })
	cs.above = grow.Slice(cs.above, n)
	run := 0.0
	for k := 0; k < n; {
		j := k
		for j < n && cs.t[cs.order[j]] == cs.t[cs.order[k]] {
			j++
		}
		for _, i := range cs.order[k:j] {
			cs.above[i] = run
		}
		for _, i := range cs.order[k:j] {
			run += float64(p.Blocks[i].Words)
		}
		k = j
	}
}

// pageColumns returns a context row with the columns that are the same for
// every block of a page of n blocks with totals t and style styleIndex.
func (t *contextTotals) pageColumns(n, styleIndex int) (r [ContextColumns]float32) {
	allWords := max(t.words, 1)
	r[cxPageMean] = float32(t.treeWords / allWords)
	r[cxPageSure] = float32(t.sureWords / allWords)
	r[cxPageMax] = float32(t.maxT)
	r[cxPageSureW] = float32(math.Log1p(t.sureWords))
	r[cxBlocks] = float32(math.Log1p(float64(n)))
	r[cxWords] = float32(math.Log1p(t.words))
	r[cxPageLink] = float32(t.links / max(t.chars, 1))
	r[cxStyle] = float32(styleIndex)
	return r
}

// blockColumns writes the columns of the context row r that are block i's
// own: the verdicts on it and its neighbours, its path's and div group's,
// its share of the page's allWords words and its place.
func (cs *contextScratch) blockColumns(r []float32, p *page.Page, i int, allWords float64) {
	n := len(p.Blocks)
	b := &p.Blocks[i]
	r[cxCRF], r[cxCRFPrev], r[cxCRFNext] = nanAt(cs.c, i, n), nanAt(cs.c, i-1, n), nanAt(cs.c, i+1, n)
	r[cxTree], r[cxTreePrev], r[cxTreeNext] = nanAt(cs.t, i, n), nanAt(cs.t, i-1, n), nanAt(cs.t, i+1, n)
	r[cxTreePrev2], r[cxTreeNext2] = nanAt(cs.t, i-2, n), nanAt(cs.t, i+2, n)
	r[cxFinal] = nanAt(cs.f, i, n)
	r[cxFinalNear] = nan32
	if i > 0 && i+1 < n {
		r[cxFinalNear] = float32(cs.f[i-1] + cs.f[i+1])
	}
	r[cxPathMean], r[cxPathCount], r[cxPathShare] = nan32, nan32, nan32
	if s := cs.smooth.of[i]; s >= 0 {
		cnt := float64(cs.smooth.count[s])
		r[cxPathMean] = float32(cs.pathSum[s] / cnt)
		r[cxPathCount] = float32(cnt)
		r[cxPathShare] = float32(cs.pathWords[s] / allWords)
	}
	r[cxDivMean] = float32(cs.divSum[b.DivGroup] / cs.divCnt[b.DivGroup])
	r[cxDivCount] = float32(cs.divCnt[b.DivGroup])
	r[cxAbove] = float32(cs.above[i] / allWords)
	r[cxOwnWords] = float32(math.Log1p(float64(b.Words)))
	r[cxOwnShare] = float32(float64(b.Words) / allWords)
	r[cxOwnLink] = nan32
	if b.Chars > 0 {
		r[cxOwnLink] = float32(b.LinkChars) / float32(b.Chars)
	}
	r[cxPosition] = float32(i) / float32(n)
}

// nan32 marks a context column without a value.
var nan32 = float32(math.NaN())

// nanAt returns v[i] as a context column, NaN outside the page's n blocks.
func nanAt(v []float64, i, n int) float32 {
	if i < 0 || i >= n {
		return nan32
	}
	return float32(v[i])
}

// styleIndex is the index of style among the model's styles plus one, 0
// for the main style (see cxStyle).
func styleIndex(styles []string, style string) int {
	if style == "" || style == MainStyle {
		return 0
	}
	return slices.Index(styles, style) + 1
}

// ContextRows returns the context rows of p's blocks (ContextColumns values
// a block), what the context stage's trees read, from the CRF's marginals
// marg (with Labels' order) and the trees' verdicts tp, for a page of
// style in a model of cfg.
func ContextRows(p *page.Page, marg [][]float64, tp []float64, style string, cfg *FeatureConfig) []float32 {
	var cs contextScratch
	contextVerdicts(p, marg, tp, slices.Index(Labels, "other"), slices.Index(Labels, "paragraph"), cfg, &cs)
	return contextRows(p, styleIndex(cfg.Styles, style), &cs)
}

// ContextStage is the context stage: context trees replace the content
// probability of each block in the marginals (the CRF's, before blend,
// smoothing and region) by their verdict on the block's context row.
type ContextStage struct{ Model *gbdt.Model }

// NewContextStage checks that m reads context rows.
func NewContextStage(m *gbdt.Model) (ContextStage, error) {
	if m.NumFeatures() != ContextColumns {
		return ContextStage{}, fmt.Errorf("label: context trees read %d values, not %d", m.NumFeatures(), ContextColumns)
	}
	return ContextStage{m}, nil
}

// Name returns StageContext.
func (ContextStage) Name() string { return StageContext }

func (c ContextStage) run(l *Labeller, s *state) {
	cs := &s.ab.context
	contextVerdicts(s.p, s.marg, s.tp, l.other, l.para, &l.cfg, cs)
	x := contextRows(s.p, styleIndex(l.cfg.Styles, s.style), cs)
	cs.prob = grow.Slice(cs.prob, len(s.p.Blocks))
	c.Model.Probs(x, ContextColumns, cs.prob) // all rows at once: the rows do not read the marginals set below
	for i, pr := range cs.prob {
		setContent(s.marg[i], l.other, l.para, pr)
	}
}

// MarshalBinary encodes the context trees, the stage's part of a model
// file.
func (c ContextStage) MarshalBinary() ([]byte, error) { return c.Model.MarshalBinary() }
