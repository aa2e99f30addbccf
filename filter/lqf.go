package filter

import (
	"github.com/sluice-project/sluice/page"
)

// Link Quota Filter: the classic heuristic (named LQF in the CombinE seed;
// Mantratzis et al. 2005 and Prasad and Paepcke 2008 refine it) that an
// element whose text is mostly anchor text is a link list or navigation.
//
// sluice's version works on the node table:
//
//  1. For every element, the characters, link characters (text inside
//     <a href>) and words (word-equivalents, page.Block.Units) of its subtree, from prefix sums over the blocks
//     and the First/End block range of the element: O(1) per element.
//     Inactive blocks add nothing.
//  2. A block's judging container is the nearest element, from the block's
//     own node up, that is a container (lqfContainer: lists, list items,
//     tables and their parts, div, p, the HTML5 sectioning elements, forms,
//     blockquote...) and holds at least MinWords words: a lone "Home" in
//     its <li> is judged with its whole list, a paragraph by itself.
//     One pass over the pre-ordered nodes finds it for every element.
//  3. The container's link quota, link characters / characters, is mapped
//     so that Threshold falls on Keep: quota above Threshold drops the
//     block. A container holding more than MaxShare of the page's text is
//     not judged: a page-wide wrapper (body, a layout table) with a high
//     overall quota must not drop the whole page.
//  4. Independently, a block that is itself mostly link text (LinkChars /
//     Chars above BlockThreshold) and whose previous or next active block
//     is too, sits in a run of links: a menu, a tag cloud, a "related"
//     list that no small container encloses. Its score is capped the same
//     way. A lone link in running text ("read more") is not affected.
//
// The score is the lower of the two; blocks with neither verdict score 1.
// Threshold 0.5 (more anchor text than other text) is the usual LQF cut-off;
// MinWords 10 (about a sentence) and MaxShare 0.5 are sluice's choices.

// LQF is a Link Quota Filter. Use NewLQF for the defaults.
type LQF struct {
	// Label is the name the filter reports.
	Label string
	// Threshold is the container link quota above which blocks are dropped.
	Threshold float64
	// MinWords is the fewest words a container needs to be judged, in
	// word-equivalents (page.Block.Units): 10 is about a sentence in any
	// script, 16 Chinese characters.
	MinWords int32
	// MaxShare is the largest share of the page's characters a judged
	// container may hold.
	MaxShare float64
	// BlockThreshold is the share of link text above which a block counts
	// as a link.
	BlockThreshold float64
	// LoneWords: a link-text block with fewer words than this (in
	// word-equivalents) is dropped even with no link-text neighbour
	// ("Terms | Privacy" alone in a footer, "Read more", "阅读全文").
	// 0 keeps lone link blocks.
	LoneWords int32
}

// NewLQF returns a Link Quota Filter with the default parameters.
func NewLQF() *LQF {
	return &LQF{Label: "lqf", Threshold: 0.5, MinWords: 10, MaxShare: 0.5, BlockThreshold: 0.5, LoneWords: 10}
}

func init() {
	d := NewLQF()
	RegisterParams("lqf", []Param{
		{Name: "threshold", Default: d.Threshold, Min: 0.01, Max: 0.99,
			Doc: "link quota of a container (link characters / characters) above which its blocks are dropped"},
		{Name: "min_words", Kind: Int, Default: float64(d.MinWords), Min: 0, Max: 10000,
			Doc: "fewest words (word-equivalents: a Chinese character is 0.625) an element needs to be judged as a container"},
		{Name: "max_share", Default: d.MaxShare, Min: 0, Max: 1,
			Doc: "largest share of the page's characters a judged container may hold"},
		{Name: "block_threshold", Default: d.BlockThreshold, Min: 0.01, Max: 0.99,
			Doc: "share of link text above which a block counts as a link"},
		{Name: "lone_words", Kind: Int, Default: float64(d.LoneWords), Min: 0, Max: 10000,
			Doc: "a link block with fewer words (word-equivalents) is dropped even without link neighbours (0: kept)"},
	}, func(p Params) Filter {
		f := NewLQF()
		f.Threshold, f.MinWords, f.MaxShare = p["threshold"], int32(p["min_words"]), p["max_share"]
		f.BlockThreshold, f.LoneWords = p["block_threshold"], int32(p["lone_words"])
		return f
	})
}

// Name returns the filter's label.
func (f *LQF) Name() string {
	if f.Label == "" {
		return "lqf"
	}
	return f.Label
}

// lqfContainer reports whether an element can be judged as a unit.
func lqfContainer(tag string) bool {
	switch tag {
	case "ul", "ol", "dl", "menu", "dir", "li", "dd", "dt",
		"table", "tbody", "thead", "tfoot", "tr", "td", "th",
		"div", "p", "nav", "section", "article", "aside", "header", "footer", "main",
		"form", "fieldset", "blockquote", "center", "figure", "details", "address":
		return true
	}
	return false
}

// Score implements Filter.
func (f *LQF) Score(p *page.Page, active []bool, out []float64) {
	blocks, nodes := p.Blocks, p.Nodes
	nb := len(blocks)
	if nb == 0 {
		return
	}

	// Prefix sums of characters, link characters and word-equivalents
	// over the active blocks, and for every node its judging container.
	buf := make([]int32, 2*(nb+1)+len(nodes))
	chars, links, judge := buf[:nb+1], buf[nb+1:2*(nb+1)], buf[2*(nb+1):]
	words := make([]float64, nb+1)
	for i := range blocks {
		chars[i+1], links[i+1], words[i+1] = chars[i], links[i], words[i]
		if ccbActive(active, i) {
			b := &blocks[i]
			chars[i+1] += max(b.Chars, 0)
			links[i+1] += min(max(b.LinkChars, 0), max(b.Chars, 0))
			words[i+1] += float64(max(b.Units, 0))
		}
	}
	blockRange := func(nd *page.Node) (int32, int32) {
		lo := min(max(nd.First, 0), int32(nb))
		return lo, min(max(nd.End, lo), int32(nb))
	}
	span := func(pre []int32, nd *page.Node) int32 {
		lo, hi := blockRange(nd)
		return pre[hi] - pre[lo]
	}
	minWords := float64(f.MinWords) - 1e-6 // word-equivalents are sums of fractions
	for n := range nodes {
		nd := &nodes[n]
		judge[n] = -1
		if par := nd.Parent; par >= 0 && int(par) < n {
			judge[n] = judge[par]
		}
		if lo, hi := blockRange(nd); lqfContainer(nd.Tag) && words[hi]-words[lo] >= minWords {
			judge[n] = int32(n)
		}
	}
	total := float64(chars[nb])

	linky := func(i int) bool {
		b := &blocks[i]
		return b.Chars > 0 && float64(b.LinkChars) > f.BlockThreshold*float64(b.Chars)
	}
	next := func(i int) int {
		for i++; i < nb && !ccbActive(active, i); i++ {
		}
		return i
	}
	prevLinky := false
	for i := next(-1); i < nb; {
		j := next(i)
		b := &blocks[i]
		score := 1.0
		if n := b.Node; n >= 0 && int(n) < len(nodes) {
			if c := judge[n]; c >= 0 {
				nd := &nodes[c]
				ch := float64(span(chars, nd))
				if ch > 0 && ch <= f.MaxShare*total {
					score = lqfQuotaScore(float64(span(links, nd))/ch, f.Threshold)
				}
			}
		}
		isLinky := linky(i)
		if isLinky && (prevLinky || (j < nb && linky(j)) || float64(b.Units) < float64(f.LoneWords)) {
			score = min(score, lqfQuotaScore(float64(b.LinkChars)/float64(b.Chars), f.BlockThreshold))
		}
		out[i] = score
		prevLinky = isLinky
		i = j
	}
}

// lqfQuotaScore maps a link quota q in [0,1] to a score, 1 for no links,
// Keep at q == t, under Keep above t and 0 for nothing but links.
func lqfQuotaScore(q, t float64) float64 {
	if !(q > 0) {
		return 1
	}
	if q >= 1 {
		return 0
	}
	if !(t > 0) || t >= 1 {
		t = Keep
	}
	if q <= t {
		return 1 - (1-Keep)*q/t
	}
	return Keep * (1 - q) / (1 - t)
}
