package features

import (
	"math"
	"slices"

	"github.com/sluice-project/sluice/crf"
	"github.com/sluice-project/sluice/cuetable"
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
		if e.cueH == nil {
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
			memo.lc = nodeCues(e.cueH, nd.Class, nd.ID, &s.tok)
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

// cueValues are the learned values of one element's (or text's) known
// tokens.
type cueValues struct {
	sum, min, max float32
	n             uint8
}

// add counts one more known token's value x (n stops at 255).
func (v *cueValues) add(x float32) {
	if v.n == 0 {
		v.min, v.max = x, x
	}
	v.sum += x
	v.min, v.max = min(v.min, x), max(v.max, x)
	v.n = min(v.n+1, 255)
}

// nodeCues returns the learned values of the tokens of class and id (buf
// is classTokens'), read from the table by their cuetable.TokenHash.
func nodeCues(table *hashTable, class, id string, buf *tokenBuf) cueValues {
	var v cueValues
	add := func(tok []byte) {
		if len(tok) < 2 {
			return
		}
		if x, ok := table.get(cuetable.TokenHash(tok)); ok {
			v.add(x)
		}
	}
	classTokens(class, buf, add)
	classTokens(id, buf, add)
	return v
}

// CueSample is one labelled page for LearnCues and LearnTextCues: its
// blocks, which of them are content, and its group (its site).
type CueSample = cuetable.Sample

// CueOptions tunes LearnCues and LearnTextCues (cuetable.Options).
type CueOptions = cuetable.Options

// LearnCues estimates the table of Config.Cues from labelled pages: the
// class/id tokens of the nearest four elements around each block, with
// cuetable.Learn's site votes.
func LearnCues(samples []CueSample, opts CueOptions) map[string]float32 {
	return cuetable.Learn(samples, opts, func(p *page.Page, b int, dst []string) []string {
		return blockTokens(p, p.Blocks[b].Node, dst)
	})
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
