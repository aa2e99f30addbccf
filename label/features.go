package label

import (
	"fmt"
	"hash/maphash"
	"math"
	"math/bits"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html/atom"

	"github.com/sluice-project/sluice/crf"
	"github.com/sluice-project/sluice/filter"
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
	// "pat=copyright", "pat=rights" (an "all rights reserved" notice), from
	// hand-written scanners keyed on digits and separators.
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
	numGroups
)

var allGroups = [numGroups]Group{Container, Split, Char, Token, Sentence, Duplicate, Pattern, Bullet,
	GroupRatio, Position, Document, ClassID, FilterScore, Density, Real}

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
	pool    sync.Pool // *scratch

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
	e.pool.New = func() any { return new(scratch) }
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
}

// Attrs returns the attributes of every block of p, in block order: one list
// per block, each in a fixed group order, so that the output is
// deterministic. The lists share one backing array per page.
func (e *Extractor) Attrs(p *page.Page) [][]crf.Attr {
	n := len(p.Blocks)
	out := make([][]crf.Attr, n)
	if n == 0 {
		return out
	}
	s := e.pool.Get().(*scratch)

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
			if d := b.DivGroup; d >= 0 && int(d) < len(s.slot) && s.slot[d] >= 0 {
				gs := &s.groups[s.slot[d]]
				ratio := safeDiv(gs.nonLink, nonLink)
				add(bk[bDivRatio].Name(ratio))
				add(bk[bDivLink].Name(safeDiv(gs.linkChars, gs.chars)))
				add(bk[bDivRel].Name(safeDiv(ratio, g.maxDiv)))
			}
			add(divMax)
			if d := b.TdGroup; d >= 0 && int(d) < len(s.slot) && s.slot[d] >= 0 {
				gs := &s.groups[s.slot[d]+1]
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
			if d := b.DivGroup; d >= 0 && int(d) < len(s.slot) && s.slot[d] >= 0 {
				ratio := safeDiv(s.groups[s.slot[d]].nonLink, nonLink)
				num("r.div", ratio)
				num("r.divrel", safeDiv(ratio, g.maxDiv))
			}
			for k, f := range e.filters {
				num(f.real, s.scores[k*n+i])
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

// ---- Containers --------------------------------------------------------

// tagSet is a set of indices into containerTable, plus Victor's classes.
type tagSet [2]uint64

func (t *tagSet) add(i int) { t[i/64] |= 1 << (i % 64) }

// containerTable lists the elements that give a container attribute, then
// Victor's classes of similar elements.
var containerTable = []atom.Atom{
	atom.P, atom.A, atom.U, atom.Img, atom.Li, atom.Ul, atom.Ol, atom.Dl, atom.Dt, atom.Dd,
	atom.Td, atom.Th, atom.Tr, atom.Table, atom.Thead, atom.Tbody, atom.Tfoot, atom.Caption,
	atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6,
	atom.Div, atom.Span, atom.B, atom.Strong, atom.I, atom.Em, atom.Small, atom.Big, atom.Font,
	atom.Sup, atom.Sub, atom.Code, atom.Tt, atom.Kbd, atom.Var, atom.Samp, atom.Cite, atom.Q,
	atom.Abbr, atom.Mark, atom.Del, atom.Ins, atom.S, atom.Strike, atom.Time, atom.Label,
	atom.Form, atom.Fieldset, atom.Legend, atom.Button, atom.Select, atom.Option, atom.Textarea,
	atom.Pre, atom.Blockquote, atom.Address, atom.Center,
	atom.Header, atom.Footer, atom.Nav, atom.Aside, atom.Article, atom.Main, atom.Section,
	atom.Figure, atom.Figcaption, atom.Details, atom.Summary, atom.Menu,
}

const (
	classHeader = iota + 96 // bits after the table (which has fewer than 96 entries)
	classBold
	classItalic
	classList
	classForm
	numContainerBits
)

var (
	containerIndex = func() map[atom.Atom]int {
		m := make(map[atom.Atom]int, len(containerTable))
		for i, a := range containerTable {
			m[a] = i
		}
		return m
	}()
	containerNames = func() []string {
		names := make([]string, 128)
		for i, a := range containerTable {
			names[i] = "container=" + a.String()
		}
		names[classHeader] = "container=class-header"
		names[classBold] = "container=class-bold"
		names[classItalic] = "container=class-italic"
		names[classList] = "container=class-list"
		names[classForm] = "container=class-form"
		return names
	}()
	innerNames = func() []string {
		names := make([]string, len(containerTable))
		for i, a := range containerTable {
			names[i] = "inner=" + a.String()
		}
		return names
	}()
)

// tagBits returns the container bits one element contributes.
func tagBits(a atom.Atom) tagSet {
	var t tagSet
	i, ok := containerIndex[a]
	if !ok {
		return t
	}
	t.add(i)
	switch a {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		t.add(classHeader)
	case atom.B, atom.Strong:
		t.add(classBold)
	case atom.I, atom.Em, atom.Cite, atom.Var:
		t.add(classItalic)
	case atom.Ul, atom.Ol, atom.Li, atom.Dl, atom.Dt, atom.Dd, atom.Menu:
		t.add(classList)
	case atom.Form, atom.Fieldset, atom.Legend, atom.Label, atom.Button, atom.Select, atom.Option, atom.Textarea:
		t.add(classForm)
	}
	return t
}

// containerTags returns the container set of node n: its own bits and its
// ancestors', memoised per node.
func (s *scratch) containerTags(p *page.Page, n int32) tagSet {
	if n < 0 || int(n) >= len(s.nodes) {
		return tagSet{}
	}
	s.path = s.path[:0]
	var base tagSet
	for m := n; m >= 0 && int(m) < len(s.nodes); {
		if s.nodes[m].done&doneTags != 0 {
			base = s.nodes[m].tags
			break
		}
		s.path = append(s.path, m)
		if next := p.Nodes[m].Parent; next < m {
			m = next
		} else {
			break // not a tree in pre-order: stop rather than loop
		}
	}
	for k := len(s.path) - 1; k >= 0; k-- {
		m := s.path[k]
		t := tagBits(p.Nodes[m].Atom)
		base[0] |= t[0]
		base[1] |= t[1]
		s.nodes[m].tags = base
		s.nodes[m].done |= doneTags
	}
	return s.nodes[n].tags
}

func innerName(p *page.Page, n int32) string {
	if n < 0 || int(n) >= len(p.Nodes) {
		return "inner=other"
	}
	a := p.Nodes[n].Atom
	if i, ok := containerIndex[a]; ok {
		return innerNames[i]
	}
	if a == atom.Body || a == atom.Html || a == atom.Frameset || n == p.Body {
		return "inner=body"
	}
	return "inner=other"
}

// ---- Class and id cues -------------------------------------------------

// cueTable lists the class/id cues, each with the tokens that stand for it.
// A token matches a cue exactly or, for alternatives of four letters or
// more, by prefix ("commentlist" is comment).
var cueTable = []struct {
	cue  string
	alts []string
}{
	{"nav", []string{"nav", "navigation", "navbar", "navi", "topnav", "subnav"}},
	{"menu", []string{"menu", "menus", "menubar", "dropdown"}},
	{"header", []string{"header", "masthead", "topbar"}},
	{"footer", []string{"footer", "colophon"}},
	{"sidebar", []string{"sidebar", "side", "aside", "rail", "sidenav"}},
	{"comment", []string{"comment", "comments", "disqus", "reply", "replies", "discussion"}},
	{"share", []string{"share", "sharing", "sharer", "addthis"}},
	{"social", []string{"social", "facebook", "twitter"}},
	{"related", []string{"related", "recommended", "recommend", "similar"}},
	{"breadcrumb", []string{"breadcrumb", "breadcrumbs", "crumb", "crumbs"}},
	{"cookie", []string{"cookie", "cookies", "consent", "gdpr"}},
	{"banner", []string{"banner"}},
	{"ad", []string{"ad", "ads", "advert", "adverts", "advertisement", "adsense", "sponsor", "sponsored", "dfp", "leaderboard", "adslot"}},
	{"promo", []string{"promo", "promotion", "teaser"}},
	{"widget", []string{"widget", "widgets"}},
	{"login", []string{"login", "signin", "signup", "register", "account"}},
	{"search", []string{"search", "searchform"}},
	{"tag", []string{"tag", "tags", "tagcloud", "keywords"}},
	{"author", []string{"author", "authors"}},
	{"byline", []string{"byline"}},
	{"date", []string{"date", "time", "timestamp", "published", "pubdate", "dateline"}},
	{"meta", []string{"meta", "metadata"}},
	{"caption", []string{"caption", "figcaption", "credit", "credits"}},
	{"article", []string{"article", "articles"}},
	{"content", []string{"content", "contents"}},
	{"main", []string{"main"}},
	{"post", []string{"post", "posts"}},
	{"entry", []string{"entry", "entries"}},
	{"body", []string{"body"}},
	{"text", []string{"text", "copy"}},
	{"story", []string{"story", "stories"}},
	{"title", []string{"title", "headline", "heading"}},
	{"pager", []string{"pagination", "pager", "paging", "pagenav"}},
	{"subscribe", []string{"subscribe", "newsletter", "subscription"}},
	{"popup", []string{"popup", "modal", "overlay", "lightbox"}},
	{"hidden", []string{"hidden", "hide", "invisible"}},
	{"legal", []string{"copyright", "legal", "disclaimer", "privacy", "terms"}},
	{"links", []string{"links", "linklist", "blogroll", "sitemap"}},
	{"logo", []string{"logo", "brand", "branding"}},
	{"toolbar", []string{"toolbar", "tools", "utility"}},
	{"lead", []string{"lead", "intro", "summary", "abstract", "excerpt", "standfirst"}},
}

var (
	cueIndex = func() map[string]uint8 {
		m := map[string]uint8{}
		for i, c := range cueTable {
			for _, a := range c.alts {
				m[a] = uint8(i)
			}
		}
		return m
	}()
	cueAttrs  = cueNames("cls=")
	cue0Attrs = cueNames("cls0=")
)

func cueNames(prefix string) []string {
	names := make([]string, len(cueTable))
	for i, c := range cueTable {
		names[i] = prefix + c.cue
	}
	return names
}

// classCues returns the cues of the nearest four elements around node n
// that have a class or an id, and those of the innermost one with any cue.
func (s *scratch) classCues(p *page.Page, n int32) (all, inner uint64) {
	seen := 0
	for m := n; m >= 0 && int(m) < len(s.nodes) && seen < 4; {
		nd := &p.Nodes[m]
		if nd.Class != "" || nd.ID != "" {
			seen++
			memo := &s.nodes[m]
			if memo.done&doneCues == 0 {
				memo.cues = cues(nd.Class) | cues(nd.ID)
				memo.done |= doneCues
			}
			if inner == 0 {
				inner = memo.cues
			}
			all |= memo.cues
		}
		if nd.Parent >= m {
			break // not a tree in pre-order: stop rather than loop
		}
		m = nd.Parent
	}
	return all, inner
}

// cues splits a class or id value into lower-case tokens at anything but
// ASCII letters, at digits and at lower-to-upper case changes
// ("mainContent", "post-body_2") and returns the set of cues they match.
func cues(v string) uint64 {
	var set uint64
	var buf [24]byte
	n, long := 0, false
	flush := func() {
		if n > 0 && !long {
			set |= matchCue(buf[:n])
		}
		n, long = 0, false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c >= 'a' && c <= 'z':
		case c >= 'A' && c <= 'Z':
			if i > 0 && v[i-1] >= 'a' && v[i-1] <= 'z' {
				flush()
			}
			c += 'a' - 'A'
		default:
			flush()
			continue
		}
		if n == len(buf) {
			long = true
			continue
		}
		buf[n] = c
		n++
	}
	flush()
	return set
}

func matchCue(tok []byte) uint64 {
	if i, ok := cueIndex[string(tok)]; ok {
		return 1 << i
	}
	if len(tok) > 4 && tok[0]-'a' < 26 {
		for _, p := range cuePrefixes[tok[0]-'a'] {
			if len(p.alt) < len(tok) && string(tok[:len(p.alt)]) == p.alt {
				return 1 << p.cue
			}
		}
	}
	return 0
}

// cuePrefixes lists, by first letter, the cue alternatives of four letters
// or more, longest first, for matching them as prefixes.
var cuePrefixes = func() (t [26][]cuePrefix) {
	for i, c := range cueTable {
		for _, a := range c.alts {
			if len(a) >= 4 {
				t[a[0]-'a'] = append(t[a[0]-'a'], cuePrefix{a, uint8(i)})
			}
		}
	}
	for k := range t {
		slices.SortStableFunc(t[k], func(a, b cuePrefix) int { return len(b.alt) - len(a.alt) })
	}
	return t
}()

type cuePrefix struct {
	alt string
	cue uint8
}

// ---- Text statistics ---------------------------------------------------

// Character classes.
const (
	cAlpha uint8 = iota
	cNum
	cPunct
	cWhite
	cOther
)

func classify(r rune) uint8 {
	switch {
	case unicode.IsLetter(r) || unicode.IsMark(r):
		return cAlpha
	case unicode.IsNumber(r):
		return cNum
	case unicode.IsSpace(r):
		return cWhite
	case unicode.IsPunct(r):
		return cPunct
	}
	return cOther
}

// Sentence begin and end classes.
const (
	beginOther uint8 = iota
	beginUpper
	beginLower
	beginLetter
	beginDigit
)

var beginNames = [...]string{"sent.begin=other", "sent.begin=upper", "sent.begin=lower", "sent.begin=letter", "sent.begin=digit"}

const (
	endOther uint8 = iota
	endStop
	endEllipsis
	endColon
	endComma
	endAlnum
)

var endNames = [...]string{"sent.end=other", "sent.end=stop", "sent.end=ellipsis", "sent.end=colon", "sent.end=comma", "sent.end=alnum"}

// blockStats are the text statistics of one block.
type blockStats struct {
	runes, alpha, num, punct, white, other     int32
	tokens, tokAlpha, tokNum, tokMix, tokOther int32
	sents                                      int32
	dup                                        int32
	begin, end                                 uint8
	first                                      bool
	seen                                       uint16 // trigger bytes
	hash                                       uint64
	nonLink                                    float64
}

// terminal reports whether r ends a sentence: 1 when a space or the end of
// the text must follow (. ! ?), 2 when not (CJK full stops).
func terminal(r rune) uint8 {
	switch r {
	case '.', '!', '?', '…', '؟', '।', '‼', '⁇', '⁉':
		return 1
	case '。', '！', '？', '．', '｡':
		return 2
	}
	return 0
}

func closing(r rune) bool {
	switch r {
	case ')', ']', '}', '"', '\'', '”', '’', '」', '』', '】', '》', '〉', '）':
		return true
	}
	return false
}

func opening(r rune) bool {
	switch r {
	case '(', '[', '{', '"', '\'', '“', '‘', '„', '«', '‹', '「', '『', '【', '《', '〈', '（', '¿', '¡':
		return true
	}
	return false
}

// Character information: the class in the low bits, then flags.
const (
	classMask uint8 = 7
	fWeakStop uint8 = 1 << 3 // . ! ?: ends a sentence when a space follows
	fStop     uint8 = 1 << 4 // 。！？: ends a sentence
	fClosing  uint8 = 1 << 5 // closing quote or bracket
	fOpening  uint8 = 1 << 6 // opening quote or bracket
)

var asciiInfo = func() (t [utf8.RuneSelf]uint8) {
	for r := range t {
		t[r] = runeInfo(rune(r))
	}
	return t
}()

func runeInfo(r rune) uint8 {
	info := classify(r)
	switch terminal(r) {
	case 1:
		info |= fWeakStop
	case 2:
		info |= fStop
	}
	if closing(r) {
		info |= fClosing
	}
	if opening(r) {
		info |= fOpening
	}
	return info
}

// Trigger bytes seen in a text, which tell the pattern scanners whether to
// look at all.
const (
	tAt       uint16 = 1 << iota // @
	tColon                       // :
	tDot                         // .
	tParen                       // (
	tW                           // w W
	tY                           // y Y
	tV                           // v V z Z
	tNonASCII                    // any character outside ASCII
)

var triggers = func() (t [utf8.RuneSelf]uint16) {
	t['@'], t[':'], t['.'], t['('] = tAt, tColon, tDot, tParen
	t['w'], t['W'], t['y'], t['Y'] = tW, tW, tY, tY
	t['v'], t['V'], t['z'], t['Z'] = tV, tV, tV, tV
	return t
}()

// Packed class counters of scanText: packedBits bits per class.
const (
	packedBits = 12
	packedRun  = 1<<packedBits - 1
)

var (
	// classInc[b] adds one to the packed counter of b's class.
	classInc = func() (t [utf8.RuneSelf]uint64) {
		for b := range t {
			t[b] = 1 << (uint64(asciiInfo[b]&classMask) * packedBits)
		}
		return t
	}()
	// lowerAlnum[b] is b in lower case if it is a letter or a digit, else 0.
	lowerAlnum = func() (t [utf8.RuneSelf]byte) {
		for b := range t {
			if c := asciiInfo[b] & classMask; c == cAlpha || c == cNum {
				t[b] = byte(unicode.ToLower(rune(b)))
			}
		}
		return t
	}()
	// isAlnum[b] is 1 for a letter or a digit.
	isAlnum = func() (t [utf8.RuneSelf]uint8) {
		for b := range t {
			if lowerAlnum[b] != 0 {
				t[b] = 1
			}
		}
		return t
	}()
	// tokBits[b] is 1 for a letter, 2 for a digit, 4 for another
	// character that is not white space.
	tokBits = func() (t [utf8.RuneSelf]uint8) {
		for b := range t {
			switch asciiInfo[b] & classMask {
			case cAlpha:
				t[b] = 1
			case cNum:
				t[b] = 2
			case cWhite:
			default:
				t[b] = 4
			}
		}
		return t
	}()
	// stopBit[b] is 1 for . ! ?; keepTerm[b] is 0xFF for closing quotes
	// and brackets, which leave a token's sentence end as it is.
	stopBit, keepTerm = func() (stop, keep [utf8.RuneSelf]uint8) {
		for b := range stop {
			if asciiInfo[b]&fWeakStop != 0 {
				stop[b] = 1
			}
			if asciiInfo[b]&fClosing != 0 {
				keep[b] = 0xFF
			}
		}
		return stop, keep
	}()
)

// tokClass maps a token's tokBits to its class: 0 alphabetic, 1 numeric,
// 2 mixed, 3 other; tokInc to the increment of its packed 16-bit counter.
var (
	tokClass = [8]uint8{3, 0, 1, 2, 3, 0, 1, 2}
	tokInc   = func() (t [8]uint64) {
		for f, c := range tokClass {
			t[f] = 1 << (uint64(c) * 16)
		}
		return t
	}()
)

// hashSeed seeds the duplicate hashes; any seed will do, as only equal
// hashes within a page matter.
var hashSeed = maphash.MakeSeed()

// scanText fills the text statistics of st from one pass over s. key is
// scratch space for the text's letters and digits in lower case, whose hash
// identifies duplicates; scanText returns it for reuse.
//
// The loop over ASCII bytes keeps its counters packed in registers and
// branches only on spaces: a counter array in memory would serialise it on
// store-to-load forwarding, and branches on character classes mispredict.
func scanText(s string, st *blockStats, key []byte) []byte {
	*st = blockStats{}
	var (
		count [5]int32 // characters per class
		toks  [4]int32 // tokens: alpha, num, mix, other
		seen  uint16   // trigger bytes
		tf    uint8    // the current token's letters (1), digits (2), others (4)
		term  uint8    // 1 when the current token ends with sentence punctuation
		since uint8    // 1 when letters or digits came after the last sentence end
	)
	// The key is written without branching: every byte is stored, and the
	// length advances for letters and digits only.
	kb := slices.Grow(key[:0], len(s))
	kb = kb[:cap(kb)]
	n := 0
	for i := 0; i < len(s); {
		var packed, tokPacked uint64
		lim := min(len(s), i+packedRun)
		for ; i < lim; i++ {
			b := s[i]
			if b >= utf8.RuneSelf {
				break
			}
			packed += classInc[b]
			seen |= triggers[b]
			if b == ' ' {
				if tf != 0 {
					tokPacked += tokInc[tf]
					if since&term != 0 {
						st.sents++
						since = 0
					}
					tf, term = 0, 0
				}
				continue
			}
			tf |= tokBits[b]
			term = term&keepTerm[b] | stopBit[b]
			kb[n] = lowerAlnum[b]
			a := isAlnum[b]
			n += int(a)
			since |= a
		}
		for c := range count {
			count[c] += int32(packed >> (c * packedBits) & (1<<packedBits - 1))
		}
		for k := range toks {
			toks[k] += int32(tokPacked >> (k * 16) & 0xFFFF)
		}
		if i == lim {
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		seen |= tNonASCII
		info := runeInfo(r)
		c := info & classMask
		count[c]++
		switch {
		case c == cWhite:
			if tf != 0 {
				toks[tokClass[tf]]++
				if since&term != 0 {
					st.sents++
					since = 0
				}
				tf, term = 0, 0
			}
			continue
		case c <= cNum:
			tf |= 1 << c
			kb = utf8.AppendRune(kb[:n], unicode.ToLower(r))
			n = len(kb)
			kb = slices.Grow(kb, len(s)-i)
			kb = kb[:cap(kb)]
			since = 1
		default:
			tf |= 4
		}
		switch {
		case info&fClosing != 0:
		case info&fStop != 0: // 。: ends a sentence with or without a space
			if since != 0 {
				st.sents++
				since = 0
			}
			term = 1
		case info&fWeakStop != 0:
			term = 1
		default:
			term = 0
		}
	}
	if tf != 0 {
		toks[tokClass[tf]]++
		if since&term != 0 {
			st.sents++
			since = 0
		}
	}
	if since != 0 {
		st.sents++ // the text after the last sentence end
	}
	st.runes = count[cAlpha] + count[cNum] + count[cPunct] + count[cWhite] + count[cOther]
	st.alpha, st.num, st.punct, st.white, st.other = count[cAlpha], count[cNum], count[cPunct], count[cWhite], count[cOther]
	st.tokAlpha, st.tokNum, st.tokMix, st.tokOther = toks[0], toks[1], toks[2], toks[3]
	st.tokens = toks[0] + toks[1] + toks[2] + toks[3]
	st.begin = textBegin(s)
	st.end = textEnd(s)
	st.seen = seen
	key = kb[:n]
	if len(key) > 0 {
		st.hash = maphash.Bytes(hashSeed, key)
	} else {
		st.hash = maphash.String(hashSeed, s) ^ 1 // symbols only: compare them all
	}
	return key
}

// info returns the character information of r.
func info(r rune) uint8 {
	if r < utf8.RuneSelf {
		return asciiInfo[r]
	}
	return runeInfo(r)
}

// textBegin classifies the first character of s after opening quotes and
// brackets.
func textBegin(s string) uint8 {
	for _, r := range s {
		inf := info(r)
		if inf&fOpening == 0 && inf&classMask != cWhite {
			return beginClass(r, inf&classMask)
		}
	}
	return beginOther
}

// textEnd classifies the end of s: its last character after closing quotes
// and brackets, and the two before it for "...".
func textEnd(s string) uint8 {
	var last [3]rune
	var lastClass uint8
	n := 0
	for s != "" && n < 3 {
		r, size := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-size]
		inf := info(r)
		if n == 0 && (inf&fClosing != 0 || inf&classMask == cWhite) {
			continue
		}
		if n == 0 {
			lastClass = inf & classMask
		}
		last[n] = r
		n++
	}
	return endClass(last[0], last[1], last[2], lastClass)
}

func beginClass(r rune, c uint8) uint8 {
	switch {
	case c == cNum:
		return beginDigit
	case c != cAlpha:
		return beginOther
	case r < utf8.RuneSelf:
		if r >= 'A' && r <= 'Z' {
			return beginUpper
		}
		return beginLower
	case unicode.IsUpper(r) || unicode.IsTitle(r):
		return beginUpper
	case unicode.IsLower(r):
		return beginLower
	}
	return beginLetter
}

func endClass(last, prev, prev2 rune, c uint8) uint8 {
	switch {
	case last == 0:
		return endOther
	case last == '…' || last == '.' && prev == '.' && prev2 == '.':
		return endEllipsis
	case terminal(last) != 0:
		return endStop
	}
	switch last {
	case ':', '：':
		return endColon
	case ',', ';', '，', '；', '、', '،':
		return endComma
	}
	if c == cAlpha || c == cNum {
		return endAlnum
	}
	return endOther
}

// ---- Duplicates and groups ---------------------------------------------

// duplicates sets the dup count and first flag of every block from the
// hashes of pass 1: sorting block indices by hash groups equal texts.
func (s *scratch) duplicates(n int) {
	s.order = grow(s.order, n)
	for i := range s.order {
		s.order[i] = int32(i)
	}
	st := s.stats
	slices.SortFunc(s.order, func(a, b int32) int {
		ha, hb := st[a].hash, st[b].hash
		switch {
		case ha < hb:
			return -1
		case ha > hb:
			return 1
		}
		return int(a - b)
	})
	for i := 0; i < n; {
		j := i + 1
		for j < n && st[s.order[j]].hash == st[s.order[i]].hash {
			j++
		}
		for k := i; k < j; k++ {
			st[s.order[k]].dup = int32(j - i - 1)
		}
		if j-i > 1 {
			st[s.order[i]].first = true
		}
		i = j
	}
}

type groupInfo struct{ maxDiv, maxTd float64 }

// groupRatios sums the non-link words, characters and link characters of
// every div and td group into s.groups (a div group's sums at slot, a td
// group's at slot+1, slot taken from s.slot by node) and returns the
// largest ratios.
func (s *scratch) groupRatios(p *page.Page, nonLink float64) groupInfo {
	if cap(s.slot) < len(p.Nodes) {
		s.slot = make([]int32, len(p.Nodes))
		for i := range s.slot {
			s.slot[i] = -1
		}
	}
	s.slot = s.slot[:len(p.Nodes)]
	s.groups = s.groups[:0]
	for i := range p.Blocks {
		b := &p.Blocks[i]
		st := &s.stats[i]
		for k, gid := range [2]int32{b.DivGroup, b.TdGroup} {
			if gid < 0 || int(gid) >= len(s.slot) {
				continue
			}
			if s.slot[gid] < 0 {
				s.slot[gid] = int32(len(s.groups))
				s.groups = append(s.groups, groupSum{}, groupSum{})
			}
			gs := &s.groups[int(s.slot[gid])+k]
			gs.nonLink += st.nonLink
			gs.chars += float64(b.Chars)
			gs.linkChars += float64(b.LinkChars)
		}
	}
	var g groupInfo
	for i := 0; i < len(s.groups); i += 2 {
		g.maxDiv = max(g.maxDiv, safeDiv(s.groups[i].nonLink, nonLink))
		g.maxTd = max(g.maxTd, safeDiv(s.groups[i+1].nonLink, nonLink))
	}
	return g
}

// resetGroups clears the node slots used by the page, leaving s.slot all -1.
func (s *scratch) resetGroups(p *page.Page) {
	if len(s.groups) == 0 {
		return
	}
	for i := range p.Blocks {
		b := &p.Blocks[i]
		for _, gid := range [2]int32{b.DivGroup, b.TdGroup} {
			if gid >= 0 && int(gid) < len(s.slot) {
				s.slot[gid] = -1
			}
		}
	}
	s.groups = s.groups[:0]
}

// ---- Patterns ----------------------------------------------------------

// Pattern bits, in attribute order.
const (
	patURL = iota
	patEmail
	patDate
	patTime
	patPhone
	patCopyright
	patRights
)

var patternNames = [...]string{"pat=url", "pat=email", "pat=date", "pat=time", "pat=phone", "pat=copyright", "pat=rights"}

// digitRun is a maximal run of ASCII digits in a text.
type digitRun struct {
	start, end int // byte offsets
	val        int // value, capped
}

// maxRuns bounds the digit runs a pattern scan looks at.
const maxRuns = 24

// patterns returns the set of patterns found in s. The scanners look at
// digits and separators, not words, apart from "copyright" and a few
// "rights reserved" phrases.
func patterns(s string, st *blockStats, words int32) uint32 {
	var set uint32
	seen := st.seen
	// Notices and bare addresses are short: long texts are only searched
	// for "://", which a colon must announce.
	short := words <= 40
	if seen&tColon != 0 && strings.Contains(s, "://") ||
		short && seen&(tW|tDot) == tW|tDot && (strings.Contains(s, "www.") || strings.Contains(s, "WWW.")) {
		set |= 1 << patURL
	}
	if seen&tAt != 0 && hasEmail(s) {
		set |= 1 << patEmail
	}
	if st.num > 0 {
		var runs [maxRuns]digitRun
		nr := 0
		for i := 0; i < len(s) && nr < maxRuns; i++ {
			if !isDigit(s[i]) {
				continue
			}
			j, v := i, 0
			for j < len(s) && isDigit(s[j]) {
				if v < 1e6 {
					v = v*10 + int(s[j]-'0')
				}
				j++
			}
			runs[nr] = digitRun{i, j, v}
			nr++
			i = j
		}
		set |= digitPatterns(s, runs[:nr], words)
	}
	if !short {
		return set
	}
	if seen&tNonASCII != 0 && strings.Contains(s, "©") ||
		seen&tY != 0 && (strings.Contains(s, "opyright") || strings.Contains(s, "OPYRIGHT")) ||
		seen&tParen != 0 && (strings.Contains(s, "(c)") || strings.Contains(s, "(C)")) {
		set |= 1 << patCopyright
	}
	if seen&(tV|tNonASCII) != 0 && rightsReserved(s) {
		set |= 1 << patRights
	}
	return set
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isASCIIAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// digitPatterns finds dates, times and phone numbers among the digit runs.
func digitPatterns(s string, runs []digitRun, words int32) uint32 {
	var set uint32
	var used uint32 // runs that are part of a date or a time
	sep := func(k int) string { return s[runs[k].end:runs[k+1].start] }
	length := func(k int) int { return runs[k].end - runs[k].start }
	// Numeric dates: 2024-03-12, 12.3.2024, 3/12/24, 12. 3. 2024.
	for k := 0; k+2 < len(runs) && set&(1<<patDate) == 0; k++ {
		s1, s2 := sep(k), sep(k+1)
		if !dateSep(s1) || !dateSep(s2) || s1[0] != s2[0] {
			continue
		}
		a, b, c := runs[k].val, runs[k+1].val, runs[k+2].val
		la, lb, lc := length(k), length(k+1), length(k+2)
		iso := la == 4 && lb <= 2 && lc <= 2 && b >= 1 && b <= 12 && c >= 1 && c <= 31
		dmy := la <= 2 && lb <= 2 && (lc == 2 || lc == 4) && a >= 1 && a <= 31 && b >= 1 && b <= 31 && (a <= 12 || b <= 12)
		if iso || dmy {
			set |= 1 << patDate
			used |= 7 << k
		}
	}
	// CJK dates: 2024年3月12日.
	if set&(1<<patDate) == 0 && strings.Contains(s, "年") && strings.Contains(s, "月") {
		set |= 1 << patDate
	}
	// Dates with a month name in any language: a short text with a year
	// (1900-2099) and a day number standing alone.
	if set&(1<<patDate) == 0 && words <= 12 {
		year, day := false, false
		for k := range runs {
			r := runs[k]
			alone := (r.start == 0 || !isASCIIAlnum(s[r.start-1]) && s[r.start-1] != ':' && s[r.start-1] != '.') &&
				(r.end == len(s) || !isASCIIAlnum(s[r.end]) && s[r.end] != ':')
			if !alone {
				continue
			}
			switch l := length(k); {
			case l == 4 && r.val >= 1900 && r.val <= 2099:
				year = true
			case l <= 2 && r.val >= 1 && r.val <= 31:
				day = true
			}
		}
		if year && day {
			set |= 1 << patDate
		}
	}
	// Times: 9:30, 23:59:59.
	for k := 0; k+1 < len(runs); k++ {
		if sep(k) == ":" && length(k) <= 2 && length(k+1) == 2 && runs[k].val <= 24 && runs[k+1].val <= 59 &&
			(runs[k].start == 0 || s[runs[k].start-1] != '.') {
			set |= 1 << patTime
			used |= 3 << k
		}
	}
	// Phone numbers: chains of digit groups joined by spaces, dashes,
	// dots, slashes or brackets, 7 to 15 digits in all. A chain joined by
	// spaces only must have two groups of three digits or more ("030
	// 1234567", not a row of numbers "25 29 10 9"), one joined by dots
	// only must not look like thousands ("1.234.567") or a decimal.
	for k := 0; k < len(runs); {
		if used&(1<<k) != 0 {
			k++
			continue
		}
		j, digits, groups, long := k, length(k), 1, 0
		if length(k) >= 3 {
			long++
		}
		onlyDots, onlySpaces, thousands := true, true, true
		for j+1 < len(runs) && used&(1<<(j+1)) == 0 && phoneSep(sep(j)) {
			switch sep(j) {
			case ".":
				onlySpaces = false
			case " ":
				onlyDots = false
			default:
				onlyDots, onlySpaces = false, false
			}
			if length(j+1) != 3 {
				thousands = false
			}
			j++
			digits += length(j)
			groups++
			if length(j) >= 3 {
				long++
			}
		}
		st := runs[k].start
		plus := st > 0 && (s[st-1] == '+' || s[st-1] == '(')
		ok := digits >= 7 && digits <= 15 && groups <= 6 && (plus && digits >= 8 || groups >= 2)
		switch {
		case plus:
		case onlySpaces && long < 2:
			ok = false // a row of numbers
		case onlyDots && (groups == 2 || thousands):
			ok = false // 3.14159265, 1.234.567
		}
		if ok {
			set |= 1 << patPhone
			break
		}
		k = j + 1
	}
	return set
}

func dateSep(s string) bool {
	switch s {
	case ".", "/", "-", ". ":
		return true
	}
	return false
}

func phoneSep(s string) bool {
	if len(s) == 0 || len(s) > 3 {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '-', '.', '/', '(', ')':
		default:
			return false
		}
	}
	return true
}

// hasEmail reports whether s holds something like name@host.tld.
func hasEmail(s string) bool {
	for i := strings.IndexByte(s, '@'); i >= 0; {
		if i > 0 && (isASCIIAlnum(s[i-1]) || strings.IndexByte("._%+-", s[i-1]) >= 0) {
			j, dot, tld := i+1, -1, 0
			for j < len(s) && (isASCIIAlnum(s[j]) || s[j] == '-' || s[j] == '.') {
				if s[j] == '.' {
					dot, tld = j, 0
				} else if s[j] >= 'A' && s[j] <= 'z' && dot > 0 {
					tld++
				}
				j++
			}
			if s[j-1] == '.' { // a sentence's full stop after the address
				tld = 0
				for m := dot - 1; m > i && s[m] != '.'; m-- {
					tld++
				}
			}
			if dot > i+1 && tld >= 2 {
				return true
			}
		}
		k := strings.IndexByte(s[i+1:], '@')
		if k < 0 {
			break
		}
		i += 1 + k
	}
	return false
}

// indexFold returns the index of the ASCII-lower-case pattern p in s,
// ignoring ASCII case, or -1. It looks for p[anchor] with IndexByte first,
// so anchor should be a rare letter of p.
func indexFold(s, p string, anchor int) int {
	lo := p[anchor]
	up := lo
	if lo >= 'a' && lo <= 'z' {
		up -= 'a' - 'A'
	}
	for _, c := range [2]byte{lo, up} {
		for off := anchor; off < len(s); {
			k := strings.IndexByte(s[off:], c)
			if k < 0 {
				break
			}
			at := off + k - anchor
			if at+len(p) <= len(s) && equalFoldASCII(s[at:at+len(p)], p) {
				return at
			}
			off += k + 1
		}
		if lo == up {
			break
		}
	}
	return -1
}

func equalFoldASCII(s, lower string) bool {
	for i := 0; i < len(lower); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// rightsReserved reports whether s reads like "all rights reserved" in one
// of a few languages: the stems of "reserved" in the Romance languages and
// English next to a word for rights, German "vorbehalten", Czech
// "vyhrazena", Polish "zastrzeżone", or the Chinese and Japanese notices.
// Words are matched in lower case, capitalised or upper case.
func rightsReserved(s string) bool {
	if strings.Contains(s, "版权所有") || strings.Contains(s, "版權所有") || strings.Contains(s, "無断転載") {
		return true
	}
	if strings.Contains(s, "serv") || strings.Contains(s, "SERV") {
		for _, w := range [...]string{"right", "droit", "derech", "diritt", "direit", "rett"} {
			if indexFold(s, w, 0) >= 0 {
				return true
			}
		}
	}
	return strings.Contains(s, "orbehalt") || strings.Contains(s, "ORBEHALT") ||
		strings.Contains(s, "yhrazen") || strings.Contains(s, "YHRAZEN") ||
		strings.Contains(s, "astrze") || strings.Contains(s, "ASTRZE")
}

// ---- Bullets -----------------------------------------------------------

const (
	noBullet = iota
	bulletDot
	bulletDash
	bulletStar
	bulletArrow
	bulletNum
	bulletSection
	bulletAlpha
	bulletRoman
)

var bulletNames = [...]string{"", "bullet=dot", "bullet=dash", "bullet=star", "bullet=arrow",
	"bullet=num", "bullet=section", "bullet=alpha", "bullet=roman"}

// bullet returns the kind of list marker or section number s starts with.
func bullet(s string) int {
	if s == "" {
		return noBullet
	}
	r, size := utf8.DecodeRuneInString(s)
	rest := s[size:]
	spaced := rest == "" || rest[0] == ' '
	switch r {
	case '•', '·', '●', '∙', '◦', '▪', '■', '□', '▫', '►', '▸', '▶', '◆', '◇', '○', '‣', '⁃', '✓', '✔':
		return bulletDot
	case '–', '—':
		return bulletDash
	case '→', '⇒', '➔', '➜':
		return bulletArrow
	case '-', '+':
		if spaced {
			return bulletDash
		}
	case '*':
		if spaced {
			return bulletStar
		}
	case '>', '»', '›':
		if spaced {
			return bulletArrow
		}
	}
	// "(1)", "(a)"
	paren := r == '('
	if paren {
		s = rest
	}
	i := 0
	for i < len(s) && i < 4 && isDigit(s[i]) {
		i++
	}
	if i > 0 && i < 4 {
		j := i
		dots := 0
		for j+1 < len(s) && s[j] == '.' && isDigit(s[j+1]) { // 1.2, 1.2.3
			j++
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			dots++
		}
		if j < len(s) && (s[j] == '.' || s[j] == ')') {
			if j+1 == len(s) || s[j+1] == ' ' {
				if dots > 0 {
					return bulletSection
				}
				return bulletNum
			}
		}
		if dots > 0 && j < len(s) && s[j] == ' ' && !paren {
			return bulletSection
		}
		return noBullet
	}
	// "a)", "b.", "iv." and "IV)"
	j := 0
	for j < len(s) && j < 5 && (s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z') {
		j++
	}
	if j == 0 || j == 5 || j >= len(s) || s[j] != ')' && s[j] != '.' || j+1 < len(s) && s[j+1] != ' ' {
		return noBullet
	}
	if s[j] == '.' && j+1 == len(s) {
		return noBullet // "Inc." or "etc." alone
	}
	if j == 1 {
		return bulletAlpha
	}
	if roman(s[:j]) {
		return bulletRoman
	}
	return noBullet
}

func roman(s string) bool {
	lower := s[0] >= 'a'
	for i := 0; i < len(s); i++ {
		c := s[i]
		if lower {
			c -= 'a' - 'A'
		}
		if strings.IndexByte("IVXLC", c) < 0 {
			return false
		}
	}
	return true
}
