package filter

import (
	"math"

	"github.com/sluice-project/sluice/page"
)

func init() {
	RegisterParams("dsc", []Param{
		{Name: "window", Kind: Int, Default: DSCWindow, Min: 1, Max: 1000,
			Doc: "half-width of the window around each word, in tokens (tags and word-equivalents)"},
		{Name: "threshold", Default: DSCThreshold, Min: 0, Max: 1,
			Doc: "largest slope (tags per token) of a window for its word to count as text"},
	}, func(p Params) Filter { return DSC{Window: int(p["window"]), Threshold: p["threshold"]} })
}

// Default parameters of DSC; see DSC.
const (
	DSCWindow    = 15
	DSCThreshold = 0.3
)

// DSC is Document Slope Curves (Pinto, Branstein, Coleman, Croft, King, Li
// and Wei, "QuASM: a system for question answering using semi-structured
// data", JCDL 2002), the windowed extension of BTE that can find several
// content regions in linear time.
//
// The page is a token sequence as for BTE; its document slope curve is the
// cumulative number of tags against the token position (a tag adds 1, a
// word 0). Text regions are where the curve is flat: for every word, DSC
// looks at the window of Window tokens either side of it and classifies the
// word as text when the slope of the curve over the window (tags per token)
// is at most Threshold. A block's score is the share of its words classified
// as text, so a block is kept when most of its words lie in flat stretches.
// A short block (a sub-heading, a one-line paragraph) between long
// paragraphs is kept because its window reaches into them; a link list,
// with three or four tags per word, is dropped.
//
// Tokens. A block contributes its Split.Tags tags, then Units+InnerTags
// tokens over which its inner tags are spread evenly (the curve rises
// linearly there). Units is the block's length in word-equivalents (see
// units.go): a Chinese paragraph of 160 characters is 100 tokens, as many
// as an English paragraph of 100 words, where counting white-space words
// made it one token lost among its tags. The block's words are its Units
// rounded (at least one) positions, each at the centre of its share of
// that stretch, and its score is the share of them classified as text.
// Inactive blocks contribute no tokens. Windows are clipped at the ends of
// the page. The words whose window lies inside their own block share its
// slope and are counted at once, so the cost is linear in the number of
// blocks (times the window).
//
// Parameters. Pinto et al. describe the window and the low-slope test; the
// values are ours. Running text carries a tag every 10 to 30 words (slope
// 0.03 to 0.1, more with inline links and <br>), navigation and link lists
// 2 to 4 tags per word (0.6 to 0.8); 0.5 is BTE's break-even point, where a
// region's words and tags cancel. A sweep of window 5 to 40 tokens and
// threshold 0.2 to 0.5 on three shared sets (CleanEval dev, CleanPortalEval,
// 300 Dragnet pages; bag-of-words F1 of the kept text) has a flat top for
// windows of 15 to 20 tokens, about a sentence, and thresholds of 0.25 to
// 0.3: the defaults, 15 and 0.3, sit in its middle (mean F1 0.819 there,
// against 0.823 for the best cell and 0.814 for window 20, threshold 0.35).
// Shorter windows favour CleanEval, longer ones the news sites.
type DSC struct {
	// Window is the half-width of the window, in tokens (values below 1
	// count as 1).
	Window int
	// Threshold is the largest slope, in tags per token, of a text window.
	Threshold float64
}

// NewDSC returns DSC with the default parameters (DSCWindow, DSCThreshold).
func NewDSC() DSC { return DSC{Window: DSCWindow, Threshold: DSCThreshold} }

// Name returns "dsc".
func (DSC) Name() string { return "dsc" }

// Score implements Filter.
func (d DSC) Score(p *page.Page, active []bool, out []float64) {
	bs := p.Blocks
	k := float64(max(d.Window, 1))
	// The number of tokens in the page, to clip windows at its end.
	var total float64
	for i := range bs {
		if live(active, i) {
			b := &bs[i]
			total += float64(b.Split.Tags) + float64(b.Units) + float64(b.InnerTags)
		}
	}
	lo := tagCurve{bs: bs, active: active}
	hi := tagCurve{bs: bs, active: active}
	lo.start()
	hi.start()
	var pos float64 // token position where block i starts
	for i := range bs {
		if !live(active, i) {
			continue
		}
		b := &bs[i]
		body := pos + float64(b.Split.Tags)
		u := b.Units
		span := float64(u) + float64(b.InnerTags)
		pos = body + span
		words := unitSlots(u)
		if words == 0 {
			out[i] = 0
			continue
		}
		w := float64(words)
		step := span / w
		// Words whose window lies inside the block's own stretch all
		// see its inner-tag slope; only the words within k tokens of
		// either end need the curve. jlo..jhi-1 is the interior.
		jlo := min(int(math.Ceil(k/step-0.5)), words)
		jhi := max(int(math.Floor((span-k)/step-0.5))+1, jlo)
		text := 0
		if jhi > jlo && float64(b.InnerTags)/span <= d.Threshold {
			text = jhi - jlo
		}
		for j := 0; j < words; j++ {
			if j == jlo && jhi > jlo {
				j = jhi - 1
				continue
			}
			t := body + (float64(j)+0.5)*step
			a, z := max(t-k, 0), min(t+k, total)
			if slope := (hi.at(z) - lo.at(a)) / (z - a); slope <= d.Threshold {
				text++
			}
		}
		out[i] = float64(text) / w
	}
}

// tagCurve evaluates the document slope curve, the number of tags among the
// first t tokens of the active blocks, at non-decreasing positions t, walking
// the blocks once.
type tagCurve struct {
	bs     []page.Block
	active []bool
	i      int     // current block
	s      float64 // token position where block i starts
	c      float64 // tags before block i
}

func (cv *tagCurve) start() {
	cv.i = -1
	cv.next()
}

// next moves to the next active block.
func (cv *tagCurve) next() {
	cv.i++
	for cv.i < len(cv.bs) && !live(cv.active, cv.i) {
		cv.i++
	}
}

func (cv *tagCurve) at(t float64) float64 {
	for cv.i < len(cv.bs) {
		b := &cv.bs[cv.i]
		tags := float64(b.Split.Tags)
		inner := float64(b.InnerTags)
		body := cv.s + tags
		end := body + float64(b.Units) + inner
		if t <= end {
			if t <= body {
				return cv.c + max(t-cv.s, 0)
			}
			// t is inside the body, which is then not empty.
			return cv.c + tags + inner*(t-body)/(end-body)
		}
		cv.s, cv.c = end, cv.c+tags+inner
		cv.next()
	}
	return cv.c
}
