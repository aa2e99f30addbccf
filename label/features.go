package label

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"

	"github.com/sluice-project/sluice/crf"
	"github.com/sluice-project/sluice/filter"
	"github.com/sluice-project/sluice/internal/freelist"
	"github.com/sluice-project/sluice/page"
)

// Group names a feature group that can be switched off for ablations. Every
// attribute belongs to exactly one group; Extractor.Keys lists a group's
// attribute keys.
type Group string

// The feature groups. Victor's features (seed, chapter 4) adapted to sluice's
// blocks; the attribute names each group emits are listed with it.
const (
	// Container: "container=TAG" for each element around the block (p, a,
	// li, td, h1, div, nav...), Victor's classes "container=class-header",
	// class-bold, class-italic, class-list, class-form; "inner=TAG" for the
	// innermost one ("other" for tags outside the table, "body" for the
	// content root); "depth=N", its depth.
	Container Group = "container"
	// Split: the tags crossed since the previous block. "split.p=N",
	// "split.br=N", "split.hr=N", "split.class-inline=N",
	// "split.class-block=N" when the count is positive, and
	// "split.tags=N", the total, always.
	Split Group = "split"
	// Char: shares of letters, digits, punctuation, white space and other
	// characters (symbols) in the text, "char.alpha=0.8", "char.num=0",
	// "char.punct=0.02", "char.white=0.16", "char.other=0", and the
	// character count "chars=64" (runes, spaces included).
	Char Group = "char"
	// Token: shares of white-space separated tokens that are alphabetic,
	// numeric, mixed letters and digits, or neither: "token.alpha=0.9",
	// "token.num=0", "token.mix=0", "token.other=0"; and "words=8".
	Token Group = "token"
	// Sentence: "sent.count=N" sentences, "sent.len=N" words per sentence,
	// "sent.begin=upper|lower|letter|digit|other" (first letter, opening
	// quotes and brackets skipped; letter is a letter of a caseless script)
	// and "sent.end=stop|ellipsis|colon|comma|alnum|other" (last character,
	// closing quotes and brackets skipped; stop is . ! ? 。！？ and the like).
	Sentence Group = "sentence"
	// Duplicate: "dup=N", the number of other blocks of the page with the
	// same letters and digits (case folded; blocks with neither compare all
	// their characters), and "dup.first" on the first of such a group.
	Duplicate Group = "duplicate"
	// Pattern: "pat=url", "pat=email", "pat=date", "pat=time", "pat=phone",
	// "pat=copyright", "pat=rights" (an "all rights reserved" notice),
	// "pat=placeholder" (an unfilled template variable, "{{price}}", or
	// "Lorem ipsum"), from hand-written scanners keyed on digits and
	// separators.
	Pattern Group = "pattern"
	// Bullet: "bullet=dot|dash|star|arrow|num|section|alpha|roman": the
	// text starts like a list item (•, -, *, », "1.", "a)", "iv.") or a
	// numbered section heading ("3.4 ").
	Bullet Group = "bullet"
	// GroupRatio: Victor's div-group and td-group word ratios (section 4.2)
	// and document.max-div-group / max-td-group (4.3). "div.ratio=R": the
	// non-link words of the block's div group as a share of the page's;
	// "div.link=R": the group's link quota; "div.max=R": the largest div
	// group ratio of the page; "div.rel=R": the group's ratio over that
	// maximum. The same with "td." for table cells ("td.max" always, the
	// others only for blocks in a cell).
	GroupRatio Group = "group"
	// Position: "pos=0.3", the block's relative position in tenths, and
	// "pos.first", "pos.last".
	Position Group = "position"
	// Document: "doc.words=N", "doc.sents=N", "doc.blocks=N".
	Document Group = "document"
	// ClassID: cues found in the class and id attributes of the nearest
	// four elements around the block that have one: "cls=nav",
	// "cls=comment"..., and "cls0=nav" for the cues of the innermost element
	// that has any.
	ClassID Group = "classid"
	// FilterScore: each configured filter's score, "f.lqf=0.5".
	FilterScore Group = "filter"
	// Density: boilerpipe's shallow text features: "link=0.5", the block's
	// link density (link characters over characters), and "tdens=9", its
	// text density (words per 80-character line).
	Density Group = "density"
	// Real: a few real-valued attributes, left out when zero: "r.link"
	// (link density), "r.tdens" (text density / 20, at most 1), "r.words"
	// (log of words, 1 at 255 words and more), "r.pos" (relative position),
	// "r.div" and "r.divrel" (div group ratio and its share of the
	// maximum), and "r.f.NAME" for each filter score.
	Real Group = "real"
	// Repeat: the repeated item a block sits in (see repeat.go): the
	// nearest element, at most six above the block's container, with at
	// least two siblings of the same tag and class. "rep.n=N" siblings,
	// "rep.up=N" elements above the container, "rep.blocks=N" and
	// "rep.words=N" of the item, "rep.share=R" the run's share of the
	// page's words; "rep.none" when there is no such item.
	Repeat Group = "repeat"
	// Boost: the verdict of gradient-boosted trees over the block's
	// attributes and its neighbours' (see boost.go): "b.p", the trees'
	// content probability in buckets, and "r.b.p", the same real-valued.
	// Trees see conjunctions of attributes that the CRF's weights, one
	// per attribute, cannot.
	Boost Group = "boost"
	// Stack: the first stage's verdict, for the second stage of a two-stage
	// labeller (see stack.go): a block's content probability under the
	// first stage ("s.p"), its neighbours' ("s.prev", "s.next") and
	// the mean over seven blocks around it ("s.win"), over its div group
	// ("s.div") and over the blocks of its three nearest ancestors that hold
	// more blocks ("s.a1", "s.a2", "s.a3"); the share of the page's words in
	// more probable blocks ("s.rank"), the page's highest probability
	// ("s.max"), the share of its words above one half ("s.sure"), the
	// block's probability with the page's highest ("s.pm"), and "r.s.p" and
	// "r.s.div", real-valued. Switching it off trains one stage.
	Stack Group = "stack"
	// Context: boosted trees that judge each block again from the CRF's
	// and the first trees' verdicts summarised over its neighbours, its
	// element path, its div group and the whole page (see context.go).
	// They give no attributes; they need the Boost group and are not
	// trained when the Stack group is on.
	Context Group = "context"
)

// Indices of the groups in allGroups.
const (
	iContainer = iota
	iSplit
	iChar
	iToken
	iSentence
	iDuplicate
	iPattern
	iBullet
	iGroupRatio
	iPosition
	iDocument
	iClassID
	iFilterScore
	iDensity
	iReal
	iRepeat
	iBoost
	iStack
	iContext
	numGroups
)

var allGroups = [numGroups]Group{Container, Split, Char, Token, Sentence, Duplicate, Pattern, Bullet,
	GroupRatio, Position, Document, ClassID, FilterScore, Density, Real, Repeat, Boost, Stack, Context}

// Groups returns every feature group, in the order their attributes appear.
func Groups() []Group { return slices.Clone(allGroups[:]) }

// FeatureConfig selects and tunes the features of an Extractor. The zero
// value means all groups, the default buckets and no filters; use
// DefaultFeatureConfig for the default filters.
type FeatureConfig struct {
	// Off lists the groups switched off.
	Off map[Group]bool `json:"off,omitempty"`
	// Buckets gives, per numeric attribute key ("words", "char.alpha",
	// "f" for all filter scores or "f.NAME" for one), the bucket lower
	// bounds; keys left out keep their defaults (see DefaultBuckets).
	Buckets map[string][]float64 `json:"buckets,omitempty"`
	// Filters are filter expressions (see filter.Parse) whose scores become
	// features.
	Filters []string `json:"filters,omitempty"`
	// Styles are the annotation styles besides MainStyle that a trained
	// model knows (see StyleLine); Train sets them from its examples.
	Styles []string `json:"styles,omitempty"`
	// Thresholds are the decision thresholds (ExpectedF1 or a fixed
	// threshold) chosen for a trained model by
	// cross-validation, per style; a style left out uses 0.5.
	Thresholds map[string]float64 `json:"thresholds,omitempty"`
	// Smooth is the weight of path smoothing (see smooth.go), from 0 (off,
	// as in models made before it) to 1: a block's content probability
	// becomes (1-Smooth) times its own plus Smooth times the mean over the
	// blocks at the same element path.
	Smooth float64 `json:"smooth,omitempty"`
	// Region is how much the content probability of the blocks outside
	// the page's content region is lowered (see region.go): they are
	// multiplied by 1-Region. 0 (models made before it) is off.
	Region float64 `json:"region,omitempty"`
	// Blend is how far a block's content probability moves from the
	// CRF's toward the boosted trees' (see boost.go): (1-Blend) times the
	// one plus Blend times the other. 0 (models made before it) is off; it
	// has no effect with the Boost group off.
	Blend float64 `json:"blend,omitempty"`
	// Stages is the labeller's list of stages (see Stage), in the order
	// they run. Model files made before it have none: Load derives the
	// list from their layout.
	Stages []string `json:"stages,omitempty"`
}

// DefaultFilters are the filters whose scores the default configuration
// uses: the cheap ones, together about 60 µs of CPU on a 270-block page
// (density and dsc about 25 µs each, lqf 4, ttr 3, targetnode 2, bte 1).
// CCB, about 0.4 ms on the same page, is left out.
var DefaultFilters = []string{"lqf", "bte", "dsc", "targetnode", "ttr", "density"}

// DefaultFeatureConfig returns the default configuration: every group on,
// the default buckets written out, and DefaultFilters.
func DefaultFeatureConfig() FeatureConfig {
	return FeatureConfig{
		Off:     map[Group]bool{},
		Buckets: DefaultBuckets(),
		Filters: slices.Clone(DefaultFilters),
		Smooth:  DefaultSmooth,
		Region:  DefaultRegion,
		Blend:   DefaultBlend,
	}
}

// Bucket keys of the numeric features, in attribute order.
const (
	bDepth = iota
	bSplitP
	bSplitBR
	bSplitHR
	bSplitInline
	bSplitBlock
	bSplitTags
	bCharAlpha
	bCharNum
	bCharPunct
	bCharWhite
	bCharOther
	bChars
	bTokAlpha
	bTokNum
	bTokMix
	bTokOther
	bWords
	bSentCount
	bSentLen
	bDup
	bDivRatio
	bDivLink
	bDivMax
	bDivRel
	bTdRatio
	bTdLink
	bTdMax
	bTdRel
	bPos
	bDocWords
	bDocSents
	bDocBlocks
	bLink
	bTdens
	bFilter
	bRepN
	bRepUp
	bRepBlocks
	bRepWords
	bRepShare
	bBP
	bSP
	bSPrev
	bSNext
	bSWin
	bSDiv
	bSUp1
	bSUp2
	bSUp3
	bSRank
	bSMax
	bSSure
	numBuckets
)

var (
	ratio10  = []float64{0, .1, .2, .3, .4, .5, .6, .7, .8, .9, 1}
	counts3  = []float64{1, 2, 3}
	groupR   = []float64{0, .01, .02, .05, .1, .2, .3, .4, .5, .6, .7, .8, .9}
	relR     = []float64{0, .05, .1, .2, .3, .5, .7, .9, 1}
	tenths   = []float64{0, .1, .2, .3, .4, .5, .6, .7, .8, .9}
	wordsB   = []float64{0, 1, 2, 3, 4, 5, 6, 8, 10, 13, 16, 20, 25, 30, 40, 50, 70, 100, 150, 200}
	fewSplit = []float64{1, 2, 3, 4, 6, 10}
	probB    = []float64{0, .02, .05, .1, .2, .3, .4, .5, .6, .7, .8, .9, .95, .98}
)

var bucketSpecs = [numBuckets]struct {
	key    string
	group  Group
	bounds []float64
}{
	bDepth:       {"depth", Container, []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 16, 20, 25, 30}},
	bSplitP:      {"split.p", Split, counts3},
	bSplitBR:     {"split.br", Split, counts3},
	bSplitHR:     {"split.hr", Split, counts3},
	bSplitInline: {"split.class-inline", Split, fewSplit},
	bSplitBlock:  {"split.class-block", Split, fewSplit},
	bSplitTags:   {"split.tags", Split, []float64{0, 1, 2, 3, 4, 5, 6, 8, 10, 15, 20}},
	bCharAlpha:   {"char.alpha", Char, []float64{0, .1, .2, .3, .4, .5, .6, .7, .75, .8, .85, .9, 1}},
	bCharNum:     {"char.num", Char, []float64{0, .01, .05, .1, .2, .3, .5, .7, 1}},
	bCharPunct:   {"char.punct", Char, []float64{0, .01, .02, .04, .06, .1, .15, .2, .3, .5, 1}},
	bCharWhite:   {"char.white", Char, []float64{0, .05, .1, .13, .16, .2, .25, .3, .5}},
	bCharOther:   {"char.other", Char, []float64{0, .01, .05, .1, .2, .5, 1}},
	bChars:       {"chars", Char, []float64{0, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}},
	bTokAlpha:    {"token.alpha", Token, []float64{0, .2, .4, .5, .6, .7, .8, .9, .95, 1}},
	bTokNum:      {"token.num", Token, []float64{0, .05, .1, .2, .3, .5, .7, 1}},
	bTokMix:      {"token.mix", Token, []float64{0, .05, .1, .2, .5, 1}},
	bTokOther:    {"token.other", Token, []float64{0, .05, .1, .2, .3, .5, 1}},
	bWords:       {"words", Token, wordsB},
	bSentCount:   {"sent.count", Sentence, []float64{0, 1, 2, 3, 4, 5, 7, 10, 15}},
	bSentLen:     {"sent.len", Sentence, []float64{0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40}},
	bDup:         {"dup", Duplicate, []float64{0, 1, 2, 3, 5, 10, 20}},
	bDivRatio:    {"div.ratio", GroupRatio, groupR},
	bDivLink:     {"div.link", GroupRatio, ratio10},
	bDivMax:      {"div.max", GroupRatio, groupR},
	bDivRel:      {"div.rel", GroupRatio, relR},
	bTdRatio:     {"td.ratio", GroupRatio, groupR},
	bTdLink:      {"td.link", GroupRatio, ratio10},
	bTdMax:       {"td.max", GroupRatio, groupR},
	bTdRel:       {"td.rel", GroupRatio, relR},
	bPos:         {"pos", Position, tenths},
	bDocWords:    {"doc.words", Document, []float64{0, 50, 100, 200, 300, 500, 750, 1000, 1500, 2000, 3000, 5000, 10000}},
	bDocSents:    {"doc.sents", Document, []float64{0, 5, 10, 20, 30, 50, 75, 100, 150, 200, 300, 500}},
	bDocBlocks:   {"doc.blocks", Document, []float64{0, 10, 20, 30, 50, 75, 100, 150, 200, 300, 500, 1000}},
	bLink:        {"link", Density, []float64{0, .01, .1, .2, .33, .5, .67, .8, .9, 1}},
	bTdens:       {"tdens", Density, []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16, 20}},
	bFilter:      {"f", FilterScore, ratio10},
	bRepN:        {"rep.n", Repeat, []float64{3, 4, 5, 6, 8, 10, 15, 20, 30, 50}},
	bRepUp:       {"rep.up", Repeat, []float64{0, 1, 2, 3, 4, 5, 6}},
	bRepBlocks:   {"rep.blocks", Repeat, []float64{0, 1, 2, 3, 4, 5, 6, 8, 10, 15}},
	bRepWords:    {"rep.words", Repeat, []float64{0, 1, 2, 3, 5, 8, 12, 20, 30, 50, 80, 120}},
	bRepShare:    {"rep.share", Repeat, []float64{0, .02, .05, .1, .2, .3, .4, .5, .6, .8}},
	bBP:          {"b.p", Boost, probB},
	bSP:          {"s.p", Stack, probB},
	bSPrev:       {"s.prev", Stack, probB},
	bSNext:       {"s.next", Stack, probB},
	bSWin:        {"s.win", Stack, probB},
	bSDiv:        {"s.div", Stack, probB},
	bSUp1:        {"s.a1", Stack, probB},
	bSUp2:        {"s.a2", Stack, probB},
	bSUp3:        {"s.a3", Stack, probB},
	bSRank:       {"s.rank", Stack, ratio10},
	bSMax:        {"s.max", Stack, []float64{0, .2, .4, .5, .6, .7, .8, .9, .95}},
	bSSure:       {"s.sure", Stack, ratio10},
}

// DefaultBuckets returns the default bucket lower bounds of every numeric
// attribute key. "f" applies to every filter score.
func DefaultBuckets() map[string][]float64 {
	m := make(map[string][]float64, numBuckets)
	for _, s := range bucketSpecs {
		m[s.key] = slices.Clone(s.bounds)
	}
	return m
}

// Extractor computes the CRF attributes of a page's blocks. It is built once
// from a FeatureConfig, holds the filter instances and every attribute name
// it can emit, and is safe for concurrent use.
type Extractor struct {
	on      [numGroups]bool
	buckets [numBuckets]*Bucket
	filters []extFilter
	pool    *freelist.List[scratch]

	// typical and largest number of attributes of a block
	perBlock, maxPerBlock int
}

type extFilter struct {
	f      filter.Filter
	bucket *Bucket
	real   string // "r.f.NAME"
}

func groupIndex(g Group) int { return slices.Index(allGroups[:], g) }

// NewExtractor checks cfg and builds an Extractor. Errors name the group,
// bucket key or filter expression at fault.
func NewExtractor(cfg FeatureConfig) (*Extractor, error) {
	e := &Extractor{}
	for i := range e.on {
		e.on[i] = true
	}
	for _, g := range sortedKeys(cfg.Off) {
		i := groupIndex(g)
		if i < 0 {
			return nil, fmt.Errorf("label: unknown feature group %q (known: %s)", g, groupList())
		}
		e.on[i] = !cfg.Off[g]
	}
	known := map[string]int{}
	for i, s := range bucketSpecs {
		known[s.key] = i
	}
	bucketKeys := sortedKeys(cfg.Buckets)
	for _, k := range bucketKeys {
		if _, ok := known[k]; !ok && !strings.HasPrefix(k, "f.") {
			return nil, fmt.Errorf("label: unknown bucket key %q (known: %s, and f.NAME for one filter)", k, strings.Join(sortedKeys(known), ", "))
		}
	}
	for i, s := range bucketSpecs {
		bounds := s.bounds
		if b, ok := cfg.Buckets[s.key]; ok {
			bounds = b
		}
		bk, err := NewBucket(s.key, bounds)
		if err != nil {
			return nil, err
		}
		e.buckets[i] = bk
	}
	seen := map[string]string{}
	for _, expr := range cfg.Filters {
		f, err := filter.Parse(expr)
		if err != nil {
			return nil, fmt.Errorf("label: feature filter: %w", err)
		}
		key := "f." + attrSafe(f.Name())
		if prev, dup := seen[key]; dup {
			return nil, fmt.Errorf("label: feature filters %q and %q are the same filter", prev, expr)
		}
		seen[key] = expr
		bounds := e.buckets[bFilter].bounds
		if b, ok := cfg.Buckets[key]; ok {
			bounds = b
		}
		bk, err := NewBucket(key, bounds)
		if err != nil {
			return nil, err
		}
		e.filters = append(e.filters, extFilter{f: f, bucket: bk, real: "r." + key})
	}
	for _, k := range bucketKeys {
		if strings.HasPrefix(k, "f.") && seen[k] == "" {
			return nil, fmt.Errorf("label: bucket key %q names no configured filter (filters: %s)", k, strings.Join(cfg.Filters, ", "))
		}
	}
	for g, on := range e.on {
		if on {
			e.perBlock += groupAttrs[g][0]
			e.maxPerBlock += groupAttrs[g][1]
			if g == iFilterScore || g == iReal {
				e.perBlock += len(e.filters)
				e.maxPerBlock += len(e.filters)
			}
		}
	}
	e.pool = freelist.New[scratch](0)
	return e, nil
}

func sortedKeys[K ~string, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func groupList() string {
	s := make([]string, len(allGroups))
	for i, g := range allGroups {
		s[i] = string(g)
	}
	return strings.Join(s, ", ")
}

// attrSafe replaces the characters a CRF template key cannot hold (a filter
// expression such as "union(dsc,bte)" has commas) with "_".
func attrSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if strings.ContainsRune("= \t\r\n&#,:[]", r) {
			return '_'
		}
		return r
	}, s)
}

// Keys returns the attribute keys (the part of a name before "=") that
// group g emits with this configuration, for writing CRF templates; nil for
// a group switched off or unknown.
func (e *Extractor) Keys(g Group) []string {
	i := groupIndex(g)
	if i < 0 || !e.on[i] {
		return nil
	}
	var keys []string
	for _, s := range bucketSpecs {
		if s.group == g && s.key != "f" {
			keys = append(keys, s.key)
		}
	}
	switch g {
	case Container:
		keys = append([]string{"container", "inner"}, keys...)
	case Sentence:
		keys = append(keys, "sent.begin", "sent.end")
	case Duplicate:
		keys = append(keys, "dup.first")
	case Pattern:
		keys = append(keys, "pat")
	case Bullet:
		keys = append(keys, "bullet")
	case Position:
		keys = append(keys, "pos.first", "pos.last")
	case Repeat:
		keys = append(keys, "rep.none")
	case Boost:
		keys = append(keys, "r.b.p")
	case Stack:
		keys = append(keys, "s.pm", "r.s.p", "r.s.div")
	case ClassID:
		keys = append(keys, "cls", "cls0")
	case FilterScore:
		for _, f := range e.filters {
			keys = append(keys, f.bucket.key)
		}
	case Real:
		keys = append(keys, "r.link", "r.tdens", "r.words", "r.pos", "r.div", "r.divrel")
		for _, f := range e.filters {
			keys = append(keys, f.real)
		}
	}
	return keys
}

// Filters returns the canonical names of the filters whose scores are
// features.
func (e *Extractor) Filters() []string {
	names := make([]string, len(e.filters))
	for i, f := range e.filters {
		names[i] = f.f.Name()
	}
	return names
}

// scratch is the per-call working memory of Attrs, pooled.
type scratch struct {
	stats  []blockStats
	order  []int32
	nodes  []nodeMemo
	slot   []int32 // group slot of a node, -1 when none; reset after use
	groups []groupSum
	scores []float64 // len(filters) × blocks
	path   []int32
	key    []byte
	// repeated items (repeat.go)
	sig    []uint64
	prefix []int32
	runs   map[uint64]repeatRun
}

type nodeMemo struct {
	tags tagSet
	cues uint64
	done uint8 // doneTags | doneCues
}

const (
	doneTags = 1 << iota
	doneCues
)

type groupSum struct{ nonLink, chars, linkChars float64 }

// groupOf returns the sums of a block's div group, or with td its table
// cell group; nil when the block has none.
func (s *scratch) groupOf(b *page.Block, td bool) *groupSum {
	d, k := b.DivGroup, int32(0)
	if td {
		d, k = b.TdGroup, 1
	}
	if d < 0 || int(d) >= len(s.slot) || s.slot[d] < 0 {
		return nil
	}
	return &s.groups[s.slot[d]+k]
}

// maxPooled bounds the blocks and nodes of the scratch kept for reuse, so
// that one huge page does not pin its working memory.
const maxPooled = 1 << 16

func (e *Extractor) put(s *scratch) {
	if cap(s.stats) > maxPooled || cap(s.nodes) > maxPooled {
		return
	}
	e.pool.Put(s)
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// groupAttrs gives, per group, the typical and the largest number of
// attributes it gives a block, filter attributes aside; they size the
// page's attribute array.
var groupAttrs = [numGroups][2]int{
	iContainer:   {10, numContainerBits + 2},
	iSplit:       {3, 6},
	iChar:        {6, 6},
	iToken:       {5, 5},
	iSentence:    {4, 4},
	iDuplicate:   {1, 2},
	iPattern:     {0, len(patternNames)},
	iBullet:      {0, 1},
	iGroupRatio:  {6, 8},
	iPosition:    {1, 3},
	iDocument:    {3, 3},
	iClassID:     {3, 64 * 2},
	iFilterScore: {0, 0},
	iDensity:     {2, 2},
	iReal:        {5, 6},
	iRepeat:      {5, 5},
	iBoost:       {0, 0}, // added after the others (see boost.go)
	iStack:       {0, 0}, // the second stage's own (see stackAttrs)
	iContext:     {0, 0}, // none: the context trees read verdicts
}

// Attrs returns the attributes of every block of p, in block order: one list
// per block, each in a fixed group order, so that the output is
// deterministic. The lists share one backing array per page.
func (e *Extractor) Attrs(p *page.Page) [][]crf.Attr { return e.attrs(p, nil) }

// AttrBuf is memory for the result of Attrs that a caller reuses from page
// to page (see Extractor.AttrsInto), so that labelling a page does not
// allocate its attributes anew. Its zero value is ready to use.
type AttrBuf struct {
	out     [][]crf.Attr
	buf     []crf.Attr
	stack   stackScratch   // the second stage's (stack.go)
	boost   boostScratch   // the boosted trees' (boost.go)
	smooth  smoothScratch  // path smoothing's (smooth.go)
	context contextScratch // the context trees' (context.go)
}

// AttrsInto is Attrs writing into ab: the result is valid until ab is used
// again.
func (e *Extractor) AttrsInto(p *page.Page, ab *AttrBuf) [][]crf.Attr { return e.attrs(p, ab) }

func (e *Extractor) attrs(p *page.Page, ab *AttrBuf) [][]crf.Attr {
	n := len(p.Blocks)
	var out [][]crf.Attr
	if ab != nil {
		ab.out = grow(ab.out, n)
		out = ab.out[:n]
	} else {
		out = make([][]crf.Attr, n)
	}
	if n == 0 {
		return out
	}
	s := e.pool.Get()

	// Pass 1: text statistics, document totals, group sums.
	s.stats = grow(s.stats, n)
	var docWords, docSents int32
	var nonLink float64
	for i := range p.Blocks {
		b := &p.Blocks[i]
		st := &s.stats[i]
		s.key = scanText(b.Text, st, s.key)
		st.nonLink = float64(b.Words)
		if b.Chars > 0 {
			st.nonLink *= float64(b.Chars-b.LinkChars) / float64(b.Chars)
		}
		docWords += b.Words
		docSents += st.sents
		nonLink += st.nonLink
	}
	if e.on[iDuplicate] {
		s.duplicates(n)
	}
	var g groupInfo
	if e.on[iGroupRatio] || e.on[iReal] {
		g = s.groupRatios(p, nonLink)
	}
	if e.on[iContainer] || e.on[iClassID] {
		s.nodes = grow(s.nodes, len(p.Nodes))
		clear(s.nodes)
	}
	if e.on[iRepeat] {
		s.repeats(p)
	}
	runFilters := e.on[iFilterScore] || e.on[iReal]
	if runFilters && len(e.filters) > 0 {
		s.scores = grow(s.scores, n*len(e.filters))
		clear(s.scores)
		for k, f := range e.filters {
			f.f.Score(p, nil, s.scores[k*n:(k+1)*n])
		}
	}

	// Pass 2: the attributes.
	// The lists share backing arrays, a new one started whenever the room
	// left might not hold a block's attributes, so that append never
	// copies the page's attributes.
	var buf []crf.Attr
	if ab != nil {
		if need := n*e.perBlock + e.maxPerBlock; cap(ab.buf) < need {
			ab.buf = make([]crf.Attr, 0, need+need/4)
		}
		buf = ab.buf[:0]
	}
	bk := &e.buckets
	// Attributes of the page, the same for every block.
	divMax, tdMax := bk[bDivMax].Name(g.maxDiv), bk[bTdMax].Name(g.maxTd)
	nWords, nSents, nBlocks := bk[bDocWords].Int(docWords), bk[bDocSents].Int(docSents), bk[bDocBlocks].Int(int32(min(n, math.MaxInt32)))
	for i := range p.Blocks {
		if cap(buf)-len(buf) < e.maxPerBlock {
			buf = make([]crf.Attr, 0, (n-i)*e.perBlock+e.maxPerBlock)
		}
		start := len(buf)
		b := &p.Blocks[i]
		st := &s.stats[i]
		add := func(name string) { buf = append(buf, crf.Attr{Name: name}) }

		if e.on[iContainer] {
			tags := s.containerTags(p, b.Node)
			for w, word := range tags {
				for word != 0 {
					bit := trailingZeros(word)
					word &^= 1 << bit
					add(containerNames[w*64+bit])
				}
			}
			add(innerName(p, b.Node))
			depth := int32(0)
			if b.Node >= 0 && int(b.Node) < len(p.Nodes) {
				depth = p.Nodes[b.Node].Depth
			}
			add(bk[bDepth].Int(depth))
		}
		if e.on[iSplit] {
			sp := &b.Split
			if sp.P > 0 {
				add(bk[bSplitP].Int(sp.P))
			}
			if sp.BR > 0 {
				add(bk[bSplitBR].Int(sp.BR))
			}
			if sp.HR > 0 {
				add(bk[bSplitHR].Int(sp.HR))
			}
			if sp.Inline > 0 {
				add(bk[bSplitInline].Int(sp.Inline))
			}
			if sp.Block > 0 {
				add(bk[bSplitBlock].Int(sp.Block))
			}
			add(bk[bSplitTags].Int(sp.Tags))
		}
		if e.on[iChar] {
			r := float64(max(st.runes, 1))
			add(bk[bCharAlpha].Name(float64(st.alpha) / r))
			add(bk[bCharNum].Name(float64(st.num) / r))
			add(bk[bCharPunct].Name(float64(st.punct) / r))
			add(bk[bCharWhite].Name(float64(st.white) / r))
			add(bk[bCharOther].Name(float64(st.other) / r))
			add(bk[bChars].Int(st.runes))
		}
		if e.on[iToken] {
			t := float64(max(st.tokens, 1))
			add(bk[bTokAlpha].Name(float64(st.tokAlpha) / t))
			add(bk[bTokNum].Name(float64(st.tokNum) / t))
			add(bk[bTokMix].Name(float64(st.tokMix) / t))
			add(bk[bTokOther].Name(float64(st.tokOther) / t))
			add(bk[bWords].Int(b.Words))
		}
		if e.on[iSentence] {
			add(bk[bSentCount].Int(st.sents))
			add(bk[bSentLen].Name(float64(b.Words) / float64(max(st.sents, 1))))
			add(beginNames[st.begin])
			add(endNames[st.end])
		}
		if e.on[iDuplicate] {
			add(bk[bDup].Int(st.dup))
			if st.first {
				add("dup.first")
			}
		}
		if e.on[iPattern] {
			pats := patterns(b.Text, st, b.Words)
			for k := 0; pats != 0; k++ {
				if pats&(1<<k) != 0 {
					add(patternNames[k])
					pats &^= 1 << k
				}
			}
		}
		if e.on[iBullet] {
			if k := bullet(b.Text); k != noBullet {
				add(bulletNames[k])
			}
		}
		if e.on[iGroupRatio] {
			if gs := s.groupOf(b, false); gs != nil {
				ratio := safeDiv(gs.nonLink, nonLink)
				add(bk[bDivRatio].Name(ratio))
				add(bk[bDivLink].Name(safeDiv(gs.linkChars, gs.chars)))
				add(bk[bDivRel].Name(safeDiv(ratio, g.maxDiv)))
			}
			add(divMax)
			if gs := s.groupOf(b, true); gs != nil {
				ratio := safeDiv(gs.nonLink, nonLink)
				add(bk[bTdRatio].Name(ratio))
				add(bk[bTdLink].Name(safeDiv(gs.linkChars, gs.chars)))
				add(bk[bTdRel].Name(safeDiv(ratio, g.maxTd)))
			}
			add(tdMax)
		}
		if e.on[iPosition] {
			add(bk[bPos].Name(float64(i) / float64(n)))
			if i == 0 {
				add("pos.first")
			}
			if i == n-1 {
				add("pos.last")
			}
		}
		if e.on[iDocument] {
			add(nWords)
			add(nSents)
			add(nBlocks)
		}
		if e.on[iClassID] {
			all, inner := s.classCues(p, b.Node)
			for m := all; m != 0; {
				bit := trailingZeros(m)
				m &^= 1 << bit
				add(cueAttrs[bit])
			}
			for m := inner; m != 0; {
				bit := trailingZeros(m)
				m &^= 1 << bit
				add(cue0Attrs[bit])
			}
		}
		if e.on[iFilterScore] {
			for k, f := range e.filters {
				add(f.bucket.Name(s.scores[k*n+i]))
			}
		}
		link := safeDiv(float64(b.LinkChars), float64(b.Chars))
		tdens := textDensity(b.Words, st.runes)
		if e.on[iDensity] {
			add(bk[bLink].Name(link))
			add(bk[bTdens].Name(tdens))
		}
		if e.on[iReal] {
			num := func(name string, v float64) {
				if v > 0 && !math.IsInf(v, 0) {
					buf = append(buf, crf.Attr{Name: name, Value: v})
				}
			}
			num("r.link", link)
			num("r.tdens", min(tdens/20, 1))
			num("r.words", min(math.Log1p(float64(b.Words))/math.Log(256), 1))
			if n > 1 {
				num("r.pos", float64(i)/float64(n-1))
			}
			if gs := s.groupOf(b, false); gs != nil {
				ratio := safeDiv(gs.nonLink, nonLink)
				num("r.div", ratio)
				num("r.divrel", safeDiv(ratio, g.maxDiv))
			}
			for k, f := range e.filters {
				num(f.real, s.scores[k*n+i])
			}
		}
		if e.on[iRepeat] {
			if item, up, run := s.repeatItem(p, b.Node); item < 0 {
				add("rep.none")
			} else {
				nd := &p.Nodes[item]
				add(bk[bRepN].Int(run.count))
				add(bk[bRepUp].Int(int32(up)))
				add(bk[bRepBlocks].Int(nd.End - nd.First))
				add(bk[bRepWords].Int(s.words(nd)))
				add(bk[bRepShare].Name(safeDiv(float64(run.words), float64(docWords))))
			}
		}
		out[i] = buf[start:len(buf):len(buf)]
	}
	s.resetGroups(p)
	e.put(s)
	return out
}

func safeDiv(a, b float64) float64 {
	if b <= 0 {
		return 0
	}
	return a / b
}

// textDensity is boilerpipe's text density: the words per line of the text
// wrapped at 80 characters, the last, partial line left out unless it is the
// only one (approximated from the word and character counts).
func textDensity(words, runes int32) float64 {
	const width = 80
	if runes <= width {
		return float64(words)
	}
	return float64(words) * width / float64(runes)
}

func trailingZeros(x uint64) int { return bits.TrailingZeros64(x) }
