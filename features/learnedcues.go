package features

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/sluice-project/sluice/crf"
	"github.com/sluice-project/sluice/page"
)

// LearnedCues: class/id evidence learned from labelled pages (issue 22)
// instead of read from a word list. Config.Cues maps a class/id token (the
// lower-case ASCII letter runs that cues cuts a class or id value into:
// "mainContent" is "main" and "content") to the log-odds that a block
// under an element carrying it is content, relative to the average page
// (LearnCues). The nearest four elements around a block that have a class
// or id give "lc.max" and "lc.min" (the largest and the smallest value of
// their known tokens) and "lc.in" (the mean over the innermost element
// with a known token). Without a table, or without a known token, the
// group gives nothing: models trained before it are unchanged.
const LearnedCues Group = "learnedcues"

// lcB are the buckets of the learned cue values, in log-odds.
var lcB = []float64{-3, -2, -1.5, -1, -.6, -.3, -.1, .1, .3, .6, 1, 1.5, 2, 3}

var learnedCuesGroup = groupSpec{
	group: LearnedCues,
	keys:  []string{"lc.max", "lc.min", "lc.in"},
	buckets: []bucketDef{
		{"lc.max", lcB}, {"lc.min", lcB}, {"lc.in", lcB},
	},
	size:   [2]int{3, 3},
	window: 1,
	needs:  passNodes,
	emit: func(e *Extractor, s *scratch, i int, bk []*Bucket, dst []crf.Attr) []crf.Attr {
		if len(e.cues) == 0 {
			return dst
		}
		mx, mn, in, ok := s.learnedCues(e, s.p, s.p.Blocks[i].Node)
		if !ok {
			return dst
		}
		return append(dst, crf.Attr{Name: bk[0].Name(mx)}, crf.Attr{Name: bk[1].Name(mn)}, crf.Attr{Name: bk[2].Name(in)})
	},
}

// learnedCues returns, over the nearest four elements around node n that
// have a class or an id, the largest and smallest learned value of their
// tokens and the mean value of the innermost one with a known token; ok is
// false when none has one.
func (s *scratch) learnedCues(e *Extractor, p *page.Page, n int32) (mx, mn, in float64, ok bool) {
	mx, mn = math.Inf(-1), math.Inf(1)
	for m := range classNodes(p, n) {
		memo := &s.nodes[m]
		if memo.done&doneLearned == 0 {
			nd := &p.Nodes[m]
			memo.lc = nodeCues(e.cues, nd.Class, nd.ID, &s.tok)
			memo.done |= doneLearned
		}
		if lc := memo.lc; lc.n > 0 {
			if !ok {
				in = float64(lc.sum) / float64(lc.n)
			}
			ok = true
			mx, mn = max(mx, float64(lc.max)), min(mn, float64(lc.min))
		}
	}
	return mx, mn, in, ok
}

// cueValues are the learned values of one element's known tokens.
type cueValues struct {
	sum, min, max float32
	n             uint8
}

// nodeCues returns the learned values of the tokens of class and id (buf
// is classTokens').
func nodeCues(table map[string]float32, class, id string, buf *tokenBuf) cueValues {
	var v cueValues
	add := func(tok []byte) {
		if len(tok) < 2 {
			return
		}
		x, ok := table[string(tok)]
		if !ok {
			return
		}
		if v.n == 0 {
			v.min, v.max = x, x
		}
		v.sum += x
		v.min, v.max = min(v.min, x), max(v.max, x)
		v.n = min(v.n+1, 255)
	}
	classTokens(class, buf, add)
	classTokens(id, buf, add)
	return v
}

// CueSample is one labelled page for LearnCues: its blocks, which of them
// are content, and its group (its site), by which the evidence is counted.
type CueSample struct {
	Page    *page.Page
	Content []bool
	Group   string
}

// CueOptions tunes LearnCues; the zero value gives the defaults.
type CueOptions struct {
	// MinSites is the fewest groups (sites) a token must appear on to
	// enter the table (default 3): a token of one site's template says
	// nothing about other sites.
	MinSites int
	// Prior is how many groups' worth of the average content share each
	// token's estimate starts from (default 2).
	Prior float64
	// MaxTokens caps the table, keeping the tokens seen on the most
	// groups (default 20,000).
	MaxTokens int
}

// LearnCues estimates the table of Config.Cues from labelled pages. For a
// token, each group (site) whose pages carry it gives one vote: the share
// of the words under its elements that are content, over that group's
// pages. The votes' mean, shrunk toward the mean content share of all
// groups by Prior groups' worth of it, is the token's content share; its
// value is that share's log-odds minus the average's. Words are
// page.Block.Words, which count every script. Tokens of fewer than
// MinSites groups are left out. Samples with no group count as a group
// each.
func LearnCues(samples []CueSample, opts CueOptions) map[string]float32 {
	cc := countCues(samples)
	avg, ok := cc.average()
	if !ok {
		return nil
	}
	return cc.table(avg, opts)
}

// cueCounts are the content words and words (in that order) of each group,
// and of each token in each group.
type cueCounts struct {
	groups map[string]*[2]float64
	tokens map[string]map[string]*[2]float64
}

// countCues counts the words of the samples' blocks, and of the blocks
// under each class/id token, per group.
func countCues(samples []CueSample) cueCounts {
	cc := cueCounts{groups: map[string]*[2]float64{}, tokens: map[string]map[string]*[2]float64{}}
	add := func(m map[string]*[2]float64, g string, c, w float64) {
		s := m[g]
		if s == nil {
			s = new([2]float64)
			m[g] = s
		}
		s[0] += c
		s[1] += w
	}
	var toks []string
	for k, smp := range samples {
		g := smp.Group
		if g == "" {
			g = fmt.Sprintf("#%d", k)
		}
		for i := range smp.Page.Blocks {
			b := &smp.Page.Blocks[i]
			w := float64(b.Words)
			if w <= 0 || i >= len(smp.Content) {
				continue
			}
			c := 0.0
			if smp.Content[i] {
				c = w
			}
			add(cc.groups, g, c, w)
			toks = blockTokens(smp.Page, b.Node, toks[:0])
			for _, t := range toks {
				if cc.tokens[t] == nil {
					cc.tokens[t] = map[string]*[2]float64{}
				}
				add(cc.tokens[t], g, c, w)
			}
		}
	}
	return cc
}

// average is the mean over the groups with words of their content share;
// ok is false when there is none. Groups are summed in sorted order, so
// that the table is the same from run to run.
func (cc cueCounts) average() (avg float64, ok bool) {
	n := 0
	for _, g := range slices.Sorted(maps.Keys(cc.groups)) {
		if s := cc.groups[g]; s[1] > 0 {
			avg += s[0] / s[1]
			n++
		}
	}
	if n == 0 {
		return 0, false
	}
	return avg / float64(n), true
}

// table turns the counts into LearnCues' table.
func (cc cueCounts) table(avg float64, opts CueOptions) map[string]float32 {
	minSites := cmp.Or(opts.MinSites, 3)
	prior := cmp.Or(opts.Prior, 2)
	maxTokens := cmp.Or(opts.MaxTokens, 20000)
	type entry struct {
		tok string
		n   int
		val float32
	}
	var out []entry
	for tok, byGroup := range cc.tokens {
		if len(byGroup) < minSites {
			continue
		}
		votes := 0.0
		for _, g := range slices.Sorted(maps.Keys(byGroup)) {
			votes += byGroup[g][0] / byGroup[g][1]
		}
		share := (votes + prior*avg) / (float64(len(byGroup)) + prior)
		out = append(out, entry{tok, len(byGroup), float32(logit(share) - logit(avg))})
	}
	slices.SortFunc(out, func(a, b entry) int { return cmp.Or(cmp.Compare(b.n, a.n), cmp.Compare(a.tok, b.tok)) })
	table := make(map[string]float32, min(len(out), maxTokens))
	for _, e := range out[:min(len(out), maxTokens)] {
		table[e.tok] = e.val
	}
	return table
}

// logit is the log-odds of p, kept within 1% of 0 and 1.
func logit(p float64) float64 {
	p = min(max(p, 0.01), 0.99)
	return math.Log(p / (1 - p))
}

// blockTokens appends to dst the distinct class/id tokens of the nearest
// four elements around node n that have a class or an id.
func blockTokens(p *page.Page, n int32, dst []string) []string {
	add := func(tok []byte) {
		if len(tok) >= 2 && !slices.Contains(dst, string(tok)) {
			dst = append(dst, string(tok))
		}
	}
	var buf tokenBuf
	for m := range classNodes(p, n) {
		classTokens(p.Nodes[m].Class, &buf, add)
		classTokens(p.Nodes[m].ID, &buf, add)
	}
	return dst
}
