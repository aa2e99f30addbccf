package main

import (
	"context"
	"strings"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/dataset"
	"github.com/sluice-project/sluice/evaluate"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/score"
)

// blockInfo is what the analysis records of one block.
type blockInfo struct {
	idx    int
	kept   bool
	text   string
	tokens []string
	// tp and fp are a kept block's words found in the gold and not; missed
	// is a dropped block's gold words.
	tp, fp, missed int
	kind           string
	f              blockFeatures
}

// pageResult is one page: its scores, its blocks, and what each rule does.
type pageResult struct {
	id, typ  string
	official score.Counts // the rendered text, as sluice eval scores it
	base     score.Counts // the kept blocks' text concatenated
	blocks   []blockInfo
	// unattributed counts the missed gold words no dropped block holds.
	unattributed int
	// coverage is the share of the gold's words found among all the
	// page's blocks, kept or not (1 for an empty gold).
	coverage float64
	rules    []score.Counts // per rule in rules
}

func analyse(ctx context.Context, cl *sluice.Cleaner, dp *dataset.Page) (*pageResult, error) {
	res, err := cl.Clean(ctx, sluice.Input{Data: dp.HTML, URL: dp.URL})
	if err != nil {
		return nil, err
	}
	p := res.Page
	typ := dp.Gold.PageType
	if typ == "" {
		typ = "(none)"
	}
	r := &pageResult{id: dp.ID, typ: typ}
	r.official = score.BagOfWords(evaluate.OutputOf(p).Text, dp.Gold.Text)
	gold := score.WordsLower(dp.Gold.Text)
	pc := newPageContext(p)
	r.blocks = make([]blockInfo, len(p.Blocks))
	for i := range p.Blocks {
		b := &p.Blocks[i]
		r.blocks[i] = blockInfo{idx: i, kept: b.Label != page.Other, text: b.Text,
			tokens: score.WordsLower(b.Text), f: pc.features(i)}
	}
	dialogShares(p, r.blocks)
	mainGroups(p, r.blocks)
	markRegion(p, r.blocks, 0.8, func(f *blockFeatures) { f.outside80 = true })
	markRegion(p, r.blocks, 0.6, func(f *blockFeatures) { f.outside60 = true })
	r.unattributed = attribute(r.blocks, gold)
	for i := range r.blocks {
		r.blocks[i].kind = classify(&r.blocks[i])
	}
	r.base = keptCounts(r.blocks, gold, nil)
	all := make([]blockInfo, len(r.blocks))
	for i := range all {
		all[i] = blockInfo{kept: true, tokens: r.blocks[i].tokens}
	}
	r.coverage = 1
	if c := keptCounts(all, gold, nil); len(gold) > 0 {
		r.coverage = float64(c.TP) / float64(len(gold))
	}
	for _, ru := range rules {
		r.rules = append(r.rules, keptCounts(r.blocks, gold, ru.drop))
	}
	return r, nil
}

// keptCounts scores the kept blocks, less those drop says to remove,
// against the gold.
func keptCounts(blocks []blockInfo, gold []string, drop func(*blockInfo) bool) score.Counts {
	var out []string
	for i := range blocks {
		b := &blocks[i]
		if b.kept && (drop == nil || !drop(b)) {
			out = append(out, b.tokens...)
		}
	}
	return score.BagOfWordsTokens(out, gold)
}

// attribute splits the bag-of-words comparison over the blocks: kept blocks
// whose words occur verbatim (as a run) in the gold take their gold words
// first, then the other kept blocks in page order; what is left of the
// gold is missed, and is given to the dropped blocks found verbatim in it,
// then to dropped blocks with at least half their words among it. It
// returns the missed gold words no block took.
func attribute(blocks []blockInfo, gold []string) int {
	left := make(map[string]int, len(gold))
	for _, t := range gold {
		left[t]++
	}
	joined := " " + strings.Join(gold, " ") + " "
	verbatim := func(b *blockInfo) bool {
		return len(b.tokens) > 0 && strings.Contains(joined, " "+strings.Join(b.tokens, " ")+" ")
	}
	take := func(b *blockInfo) int {
		n := 0
		for _, t := range b.tokens {
			if left[t] > 0 {
				left[t]--
				n++
			}
		}
		return n
	}
	for pass := 0; pass < 2; pass++ {
		for i := range blocks {
			b := &blocks[i]
			if b.kept && verbatim(b) == (pass == 0) {
				b.tp = take(b)
				b.fp = len(b.tokens) - b.tp
			}
		}
	}
	for pass := 0; pass < 2; pass++ {
		for i := range blocks {
			b := &blocks[i]
			if b.kept || b.missed > 0 || len(b.tokens) == 0 {
				continue
			}
			if pass == 0 && verbatim(b) || pass == 1 && halfLeft(b.tokens, left) {
				b.missed = take(b)
			}
		}
	}
	n := 0
	for _, c := range left {
		n += c
	}
	return n
}

func halfLeft(tokens []string, left map[string]int) bool {
	seen := make(map[string]int)
	n := 0
	for _, t := range tokens {
		if left[t] > seen[t] {
			seen[t]++
			n++
		}
	}
	return 2*n >= len(tokens)
}

// dialogShares sets each block's dialogShare: the share of the page's kept
// words that lie inside its dialog ancestor.
func dialogShares(p *page.Page, blocks []blockInfo) {
	kept := 0
	for i := range blocks {
		if blocks[i].kept {
			kept += int(p.Blocks[i].Words)
		}
	}
	memo := map[int32]float64{}
	for i := range blocks {
		n := blocks[i].f.dialogNode
		if n < 0 {
			continue
		}
		s, ok := memo[n]
		if !ok {
			in := 0
			for j := p.Nodes[n].First; j < p.Nodes[n].End; j++ {
				if blocks[j].kept {
					in += int(p.Blocks[j].Words)
				}
			}
			s = float64(in) / float64(max(kept, 1))
			memo[n] = s
		}
		blocks[i].f.dialogShare = s
	}
}

// mainGroups marks the blocks of the repeated group (items of at most 60
// words sharing a parent) that holds the most kept words on the page.
func mainGroups(p *page.Page, blocks []blockInfo) {
	words := map[int32]int{}
	best, bestN := int32(-1), 0
	for i := range blocks {
		f := &blocks[i].f
		if blocks[i].kept && f.repGroup >= 0 && f.itemWords <= 60 {
			words[f.repGroup] += int(p.Blocks[i].Words)
			if n := words[f.repGroup]; n > bestN {
				best, bestN = f.repGroup, n
			}
		}
	}
	for i := range blocks {
		blocks[i].f.mainGroup = best >= 0 && blocks[i].f.repGroup == best
	}
}

// markRegion calls mark for every block outside the deepest element whose
// blocks hold at least share of the page's kept words.
func markRegion(p *page.Page, blocks []blockInfo, share float64, mark func(*blockFeatures)) {
	kept := make([]int, len(blocks)+1) // prefix sums of kept words
	for i := range blocks {
		kept[i+1] = kept[i]
		if blocks[i].kept {
			kept[i+1] += int(p.Blocks[i].Words)
		}
	}
	total := kept[len(blocks)]
	if total == 0 {
		return
	}
	best, depth := int32(-1), int32(-1)
	for n := range p.Nodes {
		nd := &p.Nodes[n]
		if nd.End <= nd.First || int(nd.End) > len(blocks) {
			continue
		}
		if float64(kept[nd.End]-kept[nd.First]) >= share*float64(total) && nd.Depth > depth {
			best, depth = int32(n), nd.Depth
		}
	}
	if best < 0 {
		return
	}
	for i := range blocks {
		if !p.Within(i, best) {
			mark(&blocks[i].f)
		}
	}
}
