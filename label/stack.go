package label

import (
	"slices"

	"github.com/sluice-project/sluice/crf"
	"github.com/sluice-project/sluice/features"
	"github.com/sluice-project/sluice/internal/grow"
	"github.com/sluice-project/sluice/page"
)

// Two-stage labelling (stacked sequence labelling). A linear-chain CRF sees
// a block and its near neighbours only; whether a page's content is a
// single article, a run of short items or a forum thread is a question
// about the whole page, which it answers block by block and often
// inconsistently. The second stage is a CRF of the same form whose blocks
// carry, besides their own attributes, the first stage's content
// probabilities summarised over the block's neighbourhood, its div group,
// its ancestors and the whole page (the Stack group). Trained on held-out
// first-stage probabilities (Train's inner folds), it learns how far to
// trust the first stage and how to correct it with the page's context:
// keep the items of a listing whose best items are sure, drop the odd
// block of a menu the first stage half liked.

// StackStage is the stack stage: a second CRF relabels the blocks from
// their attributes and the Stack group's summary of the marginals of the
// CRF before it.
type StackStage struct{ Model *crf.Model }

// Name returns StageStack.
func (StackStage) Name() string { return StageStack }

func (c StackStage) run(l *Labeller, s *state) {
	ss := &s.ab.stack
	sp := ss.prepare(l.ext, s.p, s.marg, l.other)
	defer ss.clearDivs(s.p)
	s.marg = l.crfPass(s, c.Model, func(lo int, win [][]crf.Attr) [][]crf.Attr {
		return ss.win.extend(win, 15, func(i int, dst []crf.Attr) []crf.Attr { return ss.appendBlock(dst, &sp, lo+i) })
	})
}

// MarshalBinary encodes the second CRF, the stage's part of a model file.
func (c StackStage) MarshalBinary() ([]byte, error) { return c.Model.MarshalBinary() }

// Indices of stackBuckets.
const (
	sP = iota
	sPrev
	sNext
	sWin
	sDiv
	sUp1
	sUp2
	sUp3
	sRank
	sMax
	sSure
	numStackBuckets
)

// stackBucketKeys are the keys of the Stack group's buckets, in the order
// of their indices.
var stackBucketKeys = [numStackBuckets]string{"s.p", "s.prev", "s.next", "s.win", "s.div", "s.a1", "s.a2", "s.a3", "s.rank", "s.max", "s.sure"}

// stackBuckets returns the Stack group's buckets of e, by index.
func stackBuckets(e *features.Extractor) (bk [numStackBuckets]*features.Bucket) {
	for i, k := range stackBucketKeys {
		bk[i] = e.Bucket(features.Stack, k)
	}
	return bk
}

// pmBins are the bounds of the coarse probability buckets of "s.pm", the
// block's first-stage probability with the page's highest.
var pmBins = []float64{0, .1, .3, .5, .7, .9}

// stackAncestors is how many ancestors with more blocks give "s.aN", and
// stackMaxUp how far up they are searched for.
const (
	stackAncestors = 3
	stackMaxUp     = 32
)

// stackScratch is the working memory of stackAttrs.
type stackScratch struct {
	p, w        []float64 // per block: first-stage content probability, weight
	cumPW, cumW []float64 // prefix sums of p·w and w
	divPW, divW []float64 // per div-group node
	order       []int32
	rank        []float64
	win         extended // the attributes with the group's
}

// pmBucket maps a probability to its bin of pmBins, and pmNames[i][j] is
// the "s.pm" attribute of a block in bin i on a page whose highest is in
// bin j. Neither depends on the feature configuration.
var (
	pmBucket = func() *features.Bucket {
		b, err := features.NewBucket("s.pm", pmBins)
		if err != nil {
			panic(err)
		}
		return b
	}()
	pmNames = func() [][]string {
		names := make([][]string, len(pmBins))
		for i, a := range pmBins {
			names[i] = make([]string, len(pmBins))
			for j, b := range pmBins {
				names[i][j] = "s.pm=" + features.FormatBound(a) + "_" + features.FormatBound(b)
			}
		}
		return names
	}()
)

// pmName returns the "s.pm" attribute of a block probability and the page's
// highest.
func pmName(p, max float64) string {
	return pmNames[pmBucket.Index(p)][pmBucket.Index(max)]
}

// stackAttrs returns, for every block of p, its first-stage attributes
// attrs followed by the Stack group's attributes computed from the
// first-stage marginals marg (other is the index of the "other" label). The
// result lives in ss and is valid until ss is used again.
func stackAttrs(e *features.Extractor, p *page.Page, attrs [][]crf.Attr, marg [][]float64, other int, ss *stackScratch) [][]crf.Attr {
	sp := ss.prepare(e, p, marg, other)
	defer ss.clearDivs(p)
	return ss.win.extend(attrs, 15, func(i int, dst []crf.Attr) []crf.Attr { return ss.appendBlock(dst, &sp, i) })
}

// stackPage is what the Stack group's attributes of a page's blocks share.
type stackPage struct {
	p                 *page.Page
	bk                [numStackBuckets]*features.Bucket
	maxP              float64
	maxName, sureName string
}

// prepare computes the page-wide sums of the Stack group's attributes of
// p from the first-stage marginals marg; clearDivs must follow.
func (ss *stackScratch) prepare(e *features.Extractor, p *page.Page, marg [][]float64, other int) stackPage {
	maxP, sure, total := ss.weigh(p, marg, other)
	ss.sumDivs(p)
	ss.rankBlocks(total)
	bk := stackBuckets(e)
	return stackPage{p: p, bk: bk, maxP: maxP, maxName: bk[sMax].Name(maxP), sureName: bk[sSure].Name(sure / total)}
}

// appendBlock appends the Stack group's attributes of block i to buf.
func (ss *stackScratch) appendBlock(buf []crf.Attr, sp *stackPage, i int) []crf.Attr {
	p, bk, n := sp.p, &sp.bk, len(sp.p.Blocks)
	v := ss.p[i]
	buf = append(buf, crf.Attr{Name: bk[sP].Name(v)})
	if i > 0 {
		buf = append(buf, crf.Attr{Name: bk[sPrev].Name(ss.p[i-1])})
	}
	if i+1 < n {
		buf = append(buf, crf.Attr{Name: bk[sNext].Name(ss.p[i+1])})
	}
	buf = append(buf, crf.Attr{Name: bk[sWin].Name(ss.mean(max(i-3, 0), min(i+4, n)))})
	div := ss.divMean(p, i)
	buf = append(buf, crf.Attr{Name: bk[sDiv].Name(div)})
	// The nearest ancestors holding more blocks than the level below.
	found, size := 0, int32(1)
	nd := p.Blocks[i].Node
	for up := 0; up < stackMaxUp && found < stackAncestors && nd >= 0 && int(nd) < len(p.Nodes); up++ {
		a := &p.Nodes[nd]
		if s := a.End - a.First; s > size && a.First >= 0 && int(a.End) <= n {
			size = s
			buf = append(buf, crf.Attr{Name: bk[sUp1+found].Name(ss.mean(int(a.First), int(a.End)))})
			found++
		}
		nd = a.Parent
	}
	buf = append(buf, crf.Attr{Name: bk[sRank].Name(ss.rank[i])})
	buf = append(buf, crf.Attr{Name: sp.maxName})
	buf = append(buf, crf.Attr{Name: sp.sureName})
	buf = append(buf, crf.Attr{Name: pmName(v, sp.maxP)})
	buf = appendProb(buf, "r.s.p", v)
	return appendProb(buf, "r.s.div", div)
}

// weigh sets the content probability and the weight (words, at least one)
// of each block of p from the marginals marg, and their prefix sums. It
// returns the highest probability, the weight of the blocks of one half or
// more and the page's weight.
func (ss *stackScratch) weigh(p *page.Page, marg [][]float64, other int) (maxP, sure, total float64) {
	n := len(p.Blocks)
	ss.p = grow.Slice(ss.p, n)
	ss.w = grow.Slice(ss.w, n)
	ss.cumPW = grow.Slice(ss.cumPW, n+1)
	ss.cumW = grow.Slice(ss.cumW, n+1)
	ss.cumPW[0], ss.cumW[0] = 0, 0
	for i := range n {
		v := 1 - marg[i][other]
		v = min(max(v, 0), 1)
		w := float64(max(p.Blocks[i].Words, 1))
		ss.p[i], ss.w[i] = v, w
		ss.cumPW[i+1] = ss.cumPW[i] + v*w
		ss.cumW[i+1] = ss.cumW[i] + w
		maxP = max(maxP, v)
		total += w
		if v >= 0.5 {
			sure += w
		}
	}
	return maxP, sure, total
}

// sumDivs adds up the weighted probabilities and the weights of the
// blocks of p per div group node; clearDivs undoes it.
func (ss *stackScratch) sumDivs(p *page.Page) {
	ss.divPW = grow.Slice(ss.divPW, len(p.Nodes))
	ss.divW = grow.Slice(ss.divW, len(p.Nodes))
	for i := range p.Blocks {
		if d := divGroup(p, i); d >= 0 {
			ss.divPW[d] += ss.p[i] * ss.w[i]
			ss.divW[d] += ss.w[i]
		}
	}
}

// clearDivs clears the div sums of the groups of p's blocks, for the next
// page.
func (ss *stackScratch) clearDivs(p *page.Page) {
	for i := range p.Blocks {
		if d := divGroup(p, i); d >= 0 {
			ss.divPW[d], ss.divW[d] = 0, 0
		}
	}
}

// rankBlocks sets the rank of each block: the share of the page's weight
// total in more probable blocks.
func (ss *stackScratch) rankBlocks(total float64) {
	n := len(ss.p)
	ss.order = grow.Slice(ss.order, n)
	for i := range ss.order {
		ss.order[i] = int32(i)
	}
	slices.SortFunc(ss.order, func(a, b int32) int {
		switch {
		case ss.p[a] > ss.p[b]:
			return -1
		case ss.p[a] < ss.p[b]:
			return 1
		}
		return int(a - b)
	})
	ss.rank = grow.Slice(ss.rank, n)
	above := 0.0
	for k := 0; k < n; {
		j := k
		for j < n && ss.p[ss.order[j]] == ss.p[ss.order[k]] {
			ss.rank[ss.order[j]] = above / total
			j++
		}
		for ; k < j; k++ {
			above += ss.w[ss.order[k]]
		}
	}
}

// mean returns the weighted mean probability of blocks lo to hi-1, or 0.
func (ss *stackScratch) mean(lo, hi int) float64 {
	if w := ss.cumW[hi] - ss.cumW[lo]; w > 0 {
		return (ss.cumPW[hi] - ss.cumPW[lo]) / w
	}
	return 0
}

// divMean returns the weighted mean probability of the div group of block
// i of p, or the block's own without one.
func (ss *stackScratch) divMean(p *page.Page, i int) float64 {
	if d := divGroup(p, i); d >= 0 && ss.divW[d] > 0 {
		return ss.divPW[d] / ss.divW[d]
	}
	return ss.p[i]
}

// appendProb appends the real-valued attribute name with the probability
// v to buf, unless v is nearly zero.
func appendProb(buf []crf.Attr, name string, v float64) []crf.Attr {
	if v > 1e-4 {
		buf = append(buf, crf.Attr{Name: name, Value: v})
	}
	return buf
}

// StackAttrs returns, for every block of p, its attributes attrs (from e)
// followed by the Stack group's attributes computed from the marginals marg of the
// CRF before the stack stage, as the stack stage gives them to its CRF.
func StackAttrs(e *features.Extractor, p *page.Page, attrs [][]crf.Attr, marg [][]float64) [][]crf.Attr {
	return stackAttrs(e, p, attrs, marg, slices.Index(Labels, "other"), new(stackScratch))
}

// divGroup returns the div group node of block i, or -1.
func divGroup(p *page.Page, i int) int32 {
	if d := p.Blocks[i].DivGroup; d >= 0 && int(d) < len(p.Nodes) {
		return d
	}
	return -1
}

// StackTemplate is the template of the second stage: the first stage's,
// with the first-stage probability and div-group mean of the neighbours.
func StackTemplate(first string) string {
	return first + "U[-1]:s.p,s.div\nU[1]:s.p,s.div\n"
}
