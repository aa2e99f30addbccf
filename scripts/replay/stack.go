package main

// Screening features held out, without retraining the labeller: a stacked
// learner over a cross-validation's held-out marginals (-stack). For each
// fold f, boosted trees are fitted to the content-or-other labels of the
// pages of the other folds, from each block's held-out verdict (its
// content probability, its labels', its neighbours' and the page's, as the
// context stage reads them) and, for each feature group named, that
// group's columns; they then judge the pages of fold f, whose marginals
// came from a model that never saw them. The base stacker alone ("probs")
// says what stacking itself does; each group is measured against it. A
// group that gains here is worth a full cross-validation as a feature of
// the labeller (docs/experiments.md); one that gains nothing here has
// nothing the labeller's verdicts lack.

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/sluice-project/sluice/gbdt"
	"github.com/sluice-project/sluice/label"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/train"
)

// stackGroup is a feature group of the stacked learner: its column count
// and a function that fills them for each block of a page.
type stackGroup struct {
	width int
	fill  func(p *page.Page, c []float64, rows [][]float32)
}

var stackGroups = map[string]stackGroup{
	"anc":   {width: 2 * len(ancLevels), fill: ancestorColumns},
	"desc":  {width: 3, fill: descriptionColumns},
	"kind":  {width: 5, fill: kindColumns},
	"rep":   {width: 6, fill: repeatColumns},
	"dup":   {width: 5, fill: duplicateColumns},
	"gtype": {width: 8, fill: goldTypeColumns},
	"top":   {width: 6, fill: topColumns},
	"m2":    {width: 6, fill: secondColumns},
}

// topColumns: where the block is against the page's most likely block
// (the highest verdict, the longest of those): the levels from the
// block's element and from the top block's up to the lowest element
// holding both, that element's share of the page's expected content words
// and of its words, the words between the two in document order (signed,
// over the page's words), and the top block's verdict.
func topColumns(p *page.Page, c []float64, rows [][]float32) {
	n := len(c)
	top := 0
	for b := range n {
		if c[b] > c[top] || (c[b] == c[top] && p.Blocks[b].Words > p.Blocks[top].Words) {
			top = b
		}
	}
	cw, ww := prefixSums(p, c)
	all, exp := max(ww[n], 1), max(cw[n], 1e-9)
	tn := p.Blocks[top].Node
	for b := range n {
		r := rows[b]
		up, down, a := p.CommonAncestor(p.Blocks[b].Node, tn)
		r[0], r[1] = float32(up), float32(down)
		r[2], r[3] = float32(math.NaN()), float32(math.NaN())
		if a >= 0 {
			lo, hi := int(p.Nodes[a].First), int(p.Nodes[a].End)
			if lo >= 0 && hi <= n && hi > lo {
				r[2] = float32((cw[hi] - cw[lo]) / exp)
				r[3] = float32((ww[hi] - ww[lo]) / all)
			}
		}
		r[4] = float32((ww[b] - ww[top]) / all)
		r[5] = float32(c[top])
	}
}

// prefixSums returns the prefix sums over p's blocks of c·words and of
// words: cw[b] and ww[b] sum blocks 0 to b-1.
func prefixSums(p *page.Page, c []float64) (cw, ww []float64) {
	n := len(c)
	cw, ww = make([]float64, n+1), make([]float64, n+1)
	for b := range n {
		w := float64(p.Blocks[b].Words)
		cw[b+1] = cw[b] + c[b]*w
		ww[b+1] = ww[b] + w
	}
	return cw, ww
}

// valueAt returns v[b] as a column, NaN outside v.
func valueAt(v []float64, b int) float32 {
	if b < 0 || b >= len(v) {
		return float32(math.NaN())
	}
	return float32(v[b])
}

// goldTypes is each page's gold page type (WCXB's; "" elsewhere), for the
// gtype group: an oracle no cleaner has, to bound what a page-type
// classifier could give.
var goldTypes = map[*page.Page]string{}

var typeNames = []string{"article", "collection", "documentation", "forum", "listing", "product", "service"}

// goldTypeColumns: the page's gold type, one-hot, or the eighth column.
func goldTypeColumns(p *page.Page, _ []float64, rows [][]float32) {
	var v [8]float32
	k := slices.Index(typeNames, goldTypes[p])
	if k < 0 {
		k = 7
	}
	v[k] = 1
	for _, r := range rows {
		copy(r, v[:])
	}
}

// stackPairwise is -stack-pairwise: the weight of a pairwise term within
// each page in the stacker's loss (gbdt.Options.Pairwise), 0 for none.
var stackPairwise float64

// baseColumns is the width of the base stacker's row.
const baseColumns = 18

// ancLevels are the levels above a block's element whose subtrees the
// anc group summarises.
var ancLevels = []int{1, 2, 3, 4, 6, 8}

// runStack measures each configuration ("probs", then "probs+G" for each
// group G of names) against the marginals as they are.
func runStack(kept []*train.TrainPage, fold []int, marg [][][]float64, names string, base *train.CVResult, labs []*label.Labeller) error {
	other := slices.Index(label.Labels, "other")
	configs := [][]string{nil}
	for _, g := range strings.Split(names, ",") {
		switch {
		case g == "" || g == "probs":
		case g == "all":
			configs = append(configs, slices.Sorted(func(y func(string) bool) {
				for k := range stackGroups {
					if !y(k) {
						return
					}
				}
			}))
		default:
			if _, ok := stackGroups[g]; !ok {
				return fmt.Errorf("no stack group %q", g)
			}
			configs = append(configs, []string{g})
		}
	}
	for _, cfg := range configs {
		changed, err := stacked(kept, fold, marg, cfg, other)
		if err != nil {
			return err
		}
		res, err := train.ScoreHeldOut(kept, fold, labs, changed, label.ExpectedF1, nil)
		if err != nil {
			return err
		}
		report("stack probs+"+strings.Join(cfg, "+"), base, res)
	}
	return nil
}

// stacked returns the marginals as the stacked learner with the groups
// judges them, fold by fold.
func stacked(kept []*train.TrainPage, fold []int, marg [][][]float64, groups []string, other int) ([][][]float64, error) {
	width := baseColumns
	for _, g := range groups {
		width += stackGroups[g].width
	}
	rows := make([][]float32, len(kept)) // per page, its blocks' rows end to end
	for i, p := range kept {
		goldTypes[p.Example.Page] = p.Data.Gold.PageType
		rows[i] = pageRows(p, marg[i], groups, width, other)
	}
	var blocks, trained float64
	for _, p := range kept {
		if p.ScoreOnly == "" && len(p.Example.Labels) > 0 {
			blocks += float64(len(p.Example.Labels))
			trained++
		}
	}
	meanBlocks := blocks / max(trained, 1)
	out := make([][][]float64, len(kept))
	folds := slices.Max(fold) + 1
	opt := train.DefaultContext()
	opt.Workers = 2
	for f := range folds {
		var x []float32
		var y, w []float64
		var groups []int32
		for i, p := range kept {
			if fold[i] == f || p.ScoreOnly != "" || len(p.Example.Labels) == 0 {
				continue
			}
			blocks := p.Example.Page.Blocks
			pw := math.Sqrt(meanBlocks / float64(max(len(blocks), 1)))
			x = append(x, rows[i]...)
			for b, l := range p.Example.Labels {
				t := 0.0
				if l != page.Other {
					t = 1
				}
				y = append(y, t)
				groups = append(groups, int32(i))
				w = append(w, pw*(1+math.Log1p(float64(max(blocks[b].Words, 0)))))
			}
		}
		if stackPairwise > 0 {
			opt.Pairwise, opt.Groups = stackPairwise, groups
		}
		m, err := gbdt.Train(context.Background(), x, width, y, w, opt)
		if err != nil {
			return nil, err
		}
		for i := range kept {
			if fold[i] != f {
				continue
			}
			n := len(marg[i])
			probs := make([]float64, n)
			if n > 0 {
				m.Probs(rows[i], width, probs)
			}
			out[i] = rescale(marg[i], probs, other)
		}
	}
	return out, nil
}

// rescale gives each block content probability probs[b], its content
// labels in the proportions of marg.
func rescale(marg [][]float64, probs []float64, other int) [][]float64 {
	out := cloneMarg(marg)
	for b, m := range out {
		c, c2 := 1-m[other], probs[b]
		for k := range m {
			switch {
			case k == other:
				m[k] = 1 - c2
			case c > 0:
				m[k] *= c2 / c
			default:
				m[k] = 0
				if k == slices.Index(label.Labels, "paragraph") {
					m[k] = c2
				}
			}
		}
	}
	return out
}

// pageRows returns the rows of a page's blocks, end to end.
func pageRows(p *train.TrainPage, marg [][]float64, groups []string, width, other int) []float32 {
	pg := p.Example.Page
	n := len(marg)
	x := make([]float32, n*width)
	if n == 0 {
		return x
	}
	rows := make([][]float32, n)
	for b := range rows {
		rows[b] = x[b*width : (b+1)*width]
	}
	c := make([]float64, n)
	var words, kept, sum float64
	for b, m := range marg {
		c[b] = 1 - m[other]
		wd := float64(pg.Blocks[b].Words)
		words += wd
		sum += c[b] * wd
		if c[b] >= 0.5 {
			kept += wd
		}
	}
	words = max(words, 1)
	order := make([]int, n)
	for b := range order {
		order[b] = b
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(c[b], c[a]) })
	above := make([]float64, n)
	var run float64
	for _, b := range order {
		above[b] = run / words
		run += float64(pg.Blocks[b].Words)
	}
	style := 0.0
	if p.Example.Style != "" && p.Example.Style != label.MainStyle {
		style = 1
	}
	at := func(b int) float32 { return valueAt(c, b) }
	labIdx := func(name string) int { return slices.Index(label.Labels, name) }
	h, l, k := labIdx("heading"), labIdx("list"), labIdx("continuation")
	for b := range n {
		bl := &pg.Blocks[b]
		r := rows[b]
		r[0] = float32(c[b])
		r[1], r[2], r[3], r[4] = at(b-1), at(b+1), at(b-2), at(b+2)
		r[5], r[6], r[7] = float32(marg[b][h]), float32(marg[b][l]), float32(marg[b][k])
		r[8] = float32(sum / words)
		r[9] = float32(kept / words)
		r[10] = float32(math.Log1p(float64(n)))
		r[11] = float32(math.Log1p(words))
		r[12] = float32(math.Log1p(float64(bl.Words)))
		r[13] = float32(float64(bl.Words) / words)
		r[14] = float32(float64(bl.LinkChars) / float64(max(bl.Chars, 1)))
		r[15] = float32(float64(b) / float64(max(n-1, 1)))
		r[16] = float32(style)
		r[17] = float32(above[b])
	}
	col := baseColumns
	for _, g := range groups {
		sg := stackGroups[g]
		sub := make([][]float32, n)
		for b := range sub {
			sub[b] = rows[b][col : col+sg.width]
		}
		sg.fill(pg, c, sub)
		col += sg.width
	}
	return x
}

// ancestorColumns: for each level of ancLevels above the block's element,
// the word-weighted mean content probability of the blocks in that
// ancestor's subtree and the subtree's share of the page's words (NaN
// above the root).
func ancestorColumns(p *page.Page, c []float64, rows [][]float32) {
	n := len(c)
	cw, ww := prefixSums(p, c)
	all := max(ww[n], 1)
	for b := range n {
		node := p.Blocks[b].Node
		level := 0
		li := 0
		r := rows[b]
		for k := range r {
			r[k] = float32(math.NaN())
		}
		p.Ancestors(node, func(_ int32, nd *page.Node) bool {
			for li < len(ancLevels) && ancLevels[li] == level {
				lo, hi := int(nd.First), int(nd.End)
				if lo >= 0 && hi <= n && hi > lo {
					sw := ww[hi] - ww[lo]
					if sw > 0 {
						r[2*li] = float32((cw[hi] - cw[lo]) / sw)
					}
					r[2*li+1] = float32(sw / all)
				}
				li++
			}
			level++
			return li < len(ancLevels)
		})
	}
}

// descriptionColumns: the share of the block's tokens in the page's
// description, the share of the description's tokens in the block, and
// whether the page has a description.
func descriptionColumns(p *page.Page, _ []float64, rows [][]float32) {
	desc := tokenSet(p.Meta.Description)
	has := float32(0)
	if len(desc) > 0 {
		has = 1
	}
	for b, r := range rows {
		r[2] = has
		if len(desc) == 0 {
			continue
		}
		toks := tokenList(p.Blocks[b].Text)
		if len(toks) == 0 {
			continue
		}
		in := 0
		seen := map[string]bool{}
		for _, t := range toks {
			if desc[t] {
				in++
				seen[t] = true
			}
		}
		r[0] = float32(in) / float32(len(toks))
		r[1] = float32(len(seen)) / float32(len(desc))
	}
}

// kindColumns: the kinds of page the markup declares (product, article,
// forum, list, none), the same for every block.
func kindColumns(p *page.Page, _ []float64, rows [][]float32) {
	var v [5]float32
	v[4] = 1
	for _, t := range p.Meta.Types {
		k := -1
		switch t {
		case "product", "productgroup", "offer", "aggregateoffer", "og:product":
			k = 0
		case "article", "newsarticle", "blogposting", "og:article":
			k = 1
		case "discussionforumposting", "qapage", "question":
			k = 2
		case "itemlist", "collectionpage", "searchresultspage", "offercatalog":
			k = 3
		}
		if k >= 0 {
			v[k], v[4] = 1, 0
		}
	}
	for _, r := range rows {
		copy(r, v[:])
	}
}

// tokenList cuts a text into lower-case tokens: runs of letters and
// digits, and each Han, kana or Thai character on its own.
func tokenList(s string) []string {
	var out []string
	start := -1
	flush := func(i int) {
		if start >= 0 {
			out = append(out, strings.ToLower(s[start:i]))
			start = -1
		}
	}
	for i, r := range s {
		switch {
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai):
			flush(i)
			out = append(out, string(r))
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if start < 0 {
				start = i
			}
		default:
			flush(i)
		}
	}
	flush(len(s))
	return out
}

func tokenSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, t := range tokenList(s) {
		m[t] = true
	}
	return m
}

// repeatColumns: the repeated item a block is in, the nearest of its
// ancestors (up to 8 levels) with two siblings or more of the same tag and
// class (digits aside): ln(1 + the run's items), the run's share of the
// page's words, the run's word-weighted mean content probability, the
// item's words (ln), whether the block is the item's first and how many
// of the run's items hold the block's text (share). NaN when in none.
func repeatColumns(p *page.Page, c []float64, rows [][]float32) {
	type key struct {
		parent int32
		tag    string
		class  string
	}
	strip := func(s string) string {
		return strings.Map(func(r rune) rune {
			if unicode.IsDigit(r) {
				return -1
			}
			return r
		}, s)
	}
	runs := map[key][]int32{}
	keys := make([]key, len(p.Nodes))
	for i, nd := range p.Nodes {
		k := key{nd.Parent, nd.Tag, strip(nd.Class)}
		keys[i] = k
		runs[k] = append(runs[k], int32(i))
	}
	n := len(c)
	ww := make([]float64, n+1)
	cw := make([]float64, n+1)
	for b := range n {
		w := float64(p.Blocks[b].Words)
		ww[b+1] = ww[b] + w
		cw[b+1] = cw[b] + c[b]*w
	}
	all := max(ww[n], 1)
	for b := range n {
		r := rows[b]
		for k := range r {
			r[k] = float32(math.NaN())
		}
		level := 0
		p.Ancestors(p.Blocks[b].Node, func(i int32, nd *page.Node) bool {
			level++
			if level > 8 || nd.Parent < 0 {
				return false
			}
			run := runs[keys[i]]
			if len(run) < 3 {
				return true
			}
			var sw, sc float64
			same := 0
			text := p.Blocks[b].Text
			for _, m := range run {
				lo, hi := int(p.Nodes[m].First), int(p.Nodes[m].End)
				if lo < 0 || hi > n || hi <= lo {
					continue
				}
				sw += ww[hi] - ww[lo]
				sc += cw[hi] - cw[lo]
				for q := lo; q < hi; q++ {
					if p.Blocks[q].Text == text {
						same++
						break
					}
				}
			}
			r[0] = float32(math.Log1p(float64(len(run))))
			r[1] = float32(sw / all)
			if sw > 0 {
				r[2] = float32(sc / sw)
			}
			r[3] = float32(math.Log1p(ww[nd.End] - ww[nd.First]))
			r[4] = 0
			if int(nd.First) == b {
				r[4] = 1
			}
			r[5] = float32(same) / float32(len(run))
			return false
		})
	}
}

// duplicateColumns: the other blocks of the page with the block's text
// (digits kept, case and spaces as they are): ln(1 + their number),
// whether one comes earlier, whether an earlier one is more likely kept
// than not, the highest content probability among them, and ln(1 + the
// blocks to the nearest one). Zero (the last NaN) for a text of its own.
func duplicateColumns(p *page.Page, c []float64, rows [][]float32) {
	at := map[string][]int{}
	for b := range p.Blocks {
		t := p.Blocks[b].Text
		at[t] = append(at[t], b)
	}
	for b, r := range rows {
		copies := at[p.Blocks[b].Text]
		r[4] = float32(math.NaN())
		if len(copies) < 2 {
			continue
		}
		r[0] = float32(math.Log1p(float64(len(copies) - 1)))
		best, near := 0.0, math.MaxInt
		for _, o := range copies {
			if o == b {
				continue
			}
			if o < b {
				r[1] = 1
				if c[o] >= 0.5 {
					r[2] = 1
				}
			}
			best = max(best, c[o])
			near = min(near, abs(o-b))
		}
		r[3] = float32(best)
		r[4] = float32(math.Log1p(float64(near)))
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
