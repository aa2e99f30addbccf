package features

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"

	"github.com/sluice-project/sluice/crf"
	"github.com/sluice-project/sluice/filter"
	"github.com/sluice-project/sluice/internal/freelist"
	"github.com/sluice-project/sluice/internal/grow"
	"github.com/sluice-project/sluice/page"
)

// Group names a feature group that can be switched off for ablations. Every
// attribute belongs to exactly one group; Extractor.Keys lists a group's
// attribute keys. Each group is declared in a file of its own (group.go,
// group_*.go), where its attributes are documented. Boost and Stack are
// the groups of the trees and stack stages (boost.go, stack.go).
type Group string

// Context is not a feature group: the context stage gives no attributes.
// It is the name that configurations written before stages were named, and
// sluice train's --off, use to leave the context stage out (see StagesOf);
// NewExtractor ignores it and WithStages removes it.
const Context Group = "context"

// Config selects and tunes the features of an Extractor. The zero value
// means all groups, the default buckets and no filters; use DefaultConfig
// for the default filters.
type Config struct {
	// Off lists the groups switched off.
	Off map[Group]bool `json:"off,omitempty"`
	// Buckets gives, per numeric attribute key ("words", "char.alpha",
	// "f" for all filter scores or "f.NAME" for one), the bucket lower
	// bounds; keys left out keep their defaults (see DefaultBuckets).
	Buckets map[string][]float64 `json:"buckets,omitempty"`
	// Filters are filter expressions (see filter.Parse) whose scores become
	// features.
	Filters []string `json:"filters,omitempty"`
	// Cues is the table of learned class/id cues (see LearnedCues and
	// LearnCues): token to log-odds of content. Training fills it.
	Cues map[string]float32 `json:"cues,omitempty"`
	// TextCues is the table of learned text cues (see TextCues and
	// LearnTextCues): text token to log-odds of content. Training fills it.
	TextCues map[string]float32 `json:"text_cues,omitempty"`
	// CueSource and TextCueSource give the two tables without a map, for
	// a model file that holds them encoded (package label reads them in
	// place): NewExtractor reads a table from its source when its map is
	// nil. They are not written to JSON.
	CueSource, TextCueSource *CueSource `json:"-"`
}

// CueEntries yields a cue table's entries: a token, valid during the call,
// and its log-odds.
type CueEntries = func(yield func(token []byte, v float32) bool)

// CueSource is a cue table as its size and its entries.
type CueSource struct {
	Len     int
	Entries CueEntries
}

// DefaultFilters are the filters whose scores the default configuration
// uses: the cheap ones, together about 60 µs of CPU on a 270-block page
// (density and dsc about 25 µs each, lqf 4, ttr 3, targetnode 2, bte 1).
// CCB, about 0.4 ms on the same page, is left out.
var DefaultFilters = []string{"lqf", "bte", "dsc", "targetnode", "ttr", "density"}

// DefaultConfig returns the default configuration: every group on but
// ClassID, Item, Schema, SectionCues and Headline, the default buckets written out, and
// DefaultFilters. ClassID, a fixed list of English developer words, is off
// since the class/id cues learned from the training pages (LearnedCues)
// replace it: in a cross-validation over all shared sets the learned cues
// without the list did better than the list, with or without the learned
// cues, on six of eight sets. Item and Schema (the parts of repeated items,
// the page's declared kind) gained nothing held out: WCXB-dev +0.05 with
// product −1.1 and collection −0.8, cleaneval-dev −0.73 (docs/page-types.md).
// SectionCues (a heading's text cues for the blocks under it) lost held out
// on five of eight sets, cleaneval-dev by 2.95 (docs/languages.md).
// Headline (a block's place in the tree relative to the headline) left
// WCXB-dev where it was, collection −3.5 for product +0.4
// (docs/page-types.md). Switch any of them on with sluice train --on.
func DefaultConfig() Config {
	return Config{
		Off:     map[Group]bool{ClassID: true, Item: true, Schema: true, SectionCues: true, Headline: true},
		Buckets: DefaultBuckets(),
		Filters: slices.Clone(DefaultFilters),
	}
}

// Bucket bounds that several keys share.
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

// DefaultBuckets returns the default bucket lower bounds of every numeric
// attribute key. "f" applies to every filter score.
func DefaultBuckets() map[string][]float64 {
	m := map[string][]float64{}
	for _, g := range featureGroups {
		for _, d := range g.buckets {
			m[d.key] = slices.Clone(d.bounds)
		}
	}
	return m
}

// Extractor computes the CRF attributes of a page's blocks. It is built once
// from a FeatureConfig, holds the filter instances and every attribute name
// it can emit, and is safe for concurrent use.
type Extractor struct {
	on      []bool      // per featureGroups entry
	buckets [][]*Bucket // per featureGroups entry, as its buckets declare
	filters []extFilter
	// cueH and textCueH are Config.Cues and Config.TextCues keyed by
	// cuetable.TokenHash, as labelling reads them; nil when the table is empty.
	cueH     *hashTable
	textCueH *hashTable
	titleOn  bool // the Title or the Headline group is on: the headline is found
	// titleGroupOn: the Title group is on, whose page pass finds it
	titleGroupOn bool
	needs        pass // the page passes of the groups on
	pool         *freelist.List[scratch]

	// typical and largest number of attributes of a block
	perBlock, maxPerBlock int
}

type extFilter struct {
	f      filter.Filter
	bucket *Bucket
	real   string // "r.f.NAME"
}

// NewExtractor checks cfg and builds an Extractor. Errors name the group,
// bucket key or filter expression at fault.
func NewExtractor(cfg Config) (*Extractor, error) {
	e := &Extractor{on: make([]bool, len(featureGroups)), buckets: make([][]*Bucket, len(featureGroups))}
	for i := range e.on {
		e.on[i] = true
	}
	for _, g := range sortedKeys(cfg.Off) {
		if g == Context {
			continue
		}
		i := groupIndex(g)
		if i < 0 {
			return nil, fmt.Errorf("features: unknown feature group %q (known: %s)", g, groupList())
		}
		e.on[i] = !cfg.Off[g]
	}
	if err := e.makeBuckets(cfg.Buckets); err != nil {
		return nil, err
	}
	if err := e.makeFilters(cfg); err != nil {
		return nil, err
	}
	var err error
	if e.cueH, err = newHashTable("learned cue", cfg.Cues, cfg.CueSource); err != nil {
		return nil, err
	}
	if e.textCueH, err = newHashTable("text cue", cfg.TextCues, cfg.TextCueSource); err != nil {
		return nil, err
	}
	e.titleOn = e.on[groupIndex(Title)] || e.on[groupIndex(Headline)]
	e.titleGroupOn = e.on[groupIndex(Title)]
	for i, g := range featureGroups {
		if !e.on[i] {
			continue
		}
		e.needs |= g.needs
		e.perBlock += g.size[0]
		e.maxPerBlock += g.size[1]
		if g.filterKey != nil {
			e.perBlock += len(e.filters)
			e.maxPerBlock += len(e.filters)
		}
	}
	e.pool = freelist.New[scratch](0)
	return e, nil
}

// makeBuckets makes every group's buckets, with the bounds of cfg where it
// gives them.
func (e *Extractor) makeBuckets(cfg map[string][]float64) error {
	known := DefaultBuckets()
	for _, k := range sortedKeys(cfg) {
		if _, ok := known[k]; !ok && !strings.HasPrefix(k, "f.") {
			return fmt.Errorf("features: unknown bucket key %q (known: %s, and f.NAME for one filter)", k, strings.Join(sortedKeys(known), ", "))
		}
	}
	for i, g := range featureGroups {
		for _, d := range g.buckets {
			bounds := d.bounds
			if b, ok := cfg[d.key]; ok {
				bounds = b
			}
			bk, err := NewBucket(d.key, bounds)
			if err != nil {
				return err
			}
			e.buckets[i] = append(e.buckets[i], bk)
		}
	}
	return nil
}

// makeFilters makes the feature filters of cfg, each with its bucket ("f"
// unless cfg gives "f.NAME").
func (e *Extractor) makeFilters(cfg Config) error {
	seen := map[string]string{}
	for _, expr := range cfg.Filters {
		f, err := filter.Parse(expr)
		if err != nil {
			return fmt.Errorf("features: feature filter: %w", err)
		}
		key := "f." + attrSafe(f.Name())
		if prev, dup := seen[key]; dup {
			return fmt.Errorf("features: feature filters %q and %q are the same filter", prev, expr)
		}
		seen[key] = expr
		bounds := e.Bucket(FilterScore, "f").bounds
		if b, ok := cfg.Buckets[key]; ok {
			bounds = b
		}
		bk, err := NewBucket(key, bounds)
		if err != nil {
			return err
		}
		e.filters = append(e.filters, extFilter{f: f, bucket: bk, real: "r." + key})
	}
	for _, k := range sortedKeys(cfg.Buckets) {
		if strings.HasPrefix(k, "f.") && seen[k] == "" {
			return fmt.Errorf("features: bucket key %q names no configured filter (filters: %s)", k, strings.Join(cfg.Filters, ", "))
		}
	}
	return nil
}

// Bucket returns group g's bucket of key; it panics when there is none, a
// programming error.
func (e *Extractor) Bucket(g Group, key string) *Bucket {
	for _, b := range e.buckets[groupIndex(g)] {
		if b.key == key {
			return b
		}
	}
	panic("features: no bucket " + key + " in group " + string(g))
}

// EachBucket calls fn with every bucket of the extractor's numeric keys,
// the feature filters' included.
func (e *Extractor) EachBucket(fn func(*Bucket)) {
	for _, bks := range e.buckets {
		for _, bk := range bks {
			fn(bk)
		}
	}
	for _, f := range e.filters {
		fn(f.bucket)
	}
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
	s := make([]string, len(featureGroups))
	for i, g := range featureGroups {
		s[i] = string(g.group)
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
	spec := featureGroups[i]
	keys := slices.Clone(spec.keys)
	if spec.filterKey != nil {
		for k := range e.filters {
			keys = append(keys, spec.filterKey(&e.filters[k]))
		}
	}
	return keys
}

// GroupKeys returns the attribute keys group g gives (the part of a name
// before "="), besides those of each feature filter; nil for an unknown
// group.
func GroupKeys(g Group) []string {
	if i := groupIndex(g); i >= 0 {
		return slices.Clone(featureGroups[i].keys)
	}
	return nil
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

// scratch is the per-call working memory of Attrs, pooled, and what the
// page passes found (see preparePage), which the groups read.
type scratch struct {
	p                  *page.Page
	docWords, docSents int32
	nonLink            float64   // the page's non-link words
	g                  groupInfo // the largest div and td group ratios
	divMax, tdMax      string    // their attributes (group_ratio.go)
	doc                [3]string // the Document group's attributes

	stats  []blockStats
	order  []int32
	nodes  []nodeMemo
	slot   []int32 // group slot of a node, -1 when none; reset after use
	groups []groupSum
	scores []float64 // len(filters) × blocks
	path   []int32
	key    []byte
	tok    tokenBuf // classTokens' buffer
	low    []byte   // textTokens' buffer
	// the title group (group_title.go)
	ttl            []titleMatch
	ttlSet, ttlBlk []uint64
	headline       int // the headline block, -1 when none
	// the headline group (group_headline.go)
	hl      []headlineRel
	hlWords []int64
	// the blocks' text tokens (blocktokens.go), read by the text cues, the
	// section cues (with the extractor's text cue table) and the title
	toks     textTokenCache
	textCueH *hashTable
	titleOn  bool
	// titleGroupOn is Extractor.titleGroupOn
	titleGroupOn bool
	// the section cues (group_section.go): each block's heading's value
	sec   []float32
	secOK []bool
	// repeated items (repeat.go)
	sig    []uint64
	prefix []int32
	runs   map[uint64]repeatRun
	ord    []int32 // a node's index among its run's siblings
	// the parts of repeated items (item.go)
	item      []itemInfo
	texts     map[uint64]itemText
	ranks     map[uint64]int32
	runKeys   []uint64
	itemPg    itemPage
	itemNames [3]string // the item group's page-level attributes
	kinds     []string  // the Schema group's attributes
}

type nodeMemo struct {
	tags tagSet
	cues uint64
	lc   cueValues
	done uint8 // doneTags | doneCues | doneLearned
}

const (
	doneTags = 1 << iota
	doneCues
	doneLearned
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

// MaxPooled bounds the blocks and nodes of the scratch kept for reuse, so
// that one huge page does not pin its working memory; its text tokens are
// bounded at eight a block.
const MaxPooled = 1 << 16

func (e *Extractor) put(s *scratch) {
	if cap(s.stats) > MaxPooled || cap(s.nodes) > MaxPooled || cap(s.toks.hash) > 8*MaxPooled {
		return
	}
	e.pool.Put(s)
}

// Attrs returns the attributes of every block of p, in block order: one list
// per block, each in a fixed group order, so that the output is
// deterministic. The lists share one backing array per page.
func (e *Extractor) Attrs(p *page.Page) [][]crf.Attr { return e.attrs(p, nil) }

// AttrBuf is memory for the result of Attrs that a caller reuses from page
// to page (see Extractor.AttrsInto), so that labelling a page does not
// allocate its attributes anew. Its zero value is ready to use.
type AttrBuf struct {
	out [][]crf.Attr
	buf []crf.Attr
}

// Pooled reports whether the buffer is small enough to keep for reuse
// (see MaxPooled), and clears what it holds if so.
func (ab *AttrBuf) Pooled() bool {
	if cap(ab.out) > MaxPooled {
		return false
	}
	clear(ab.out[:cap(ab.out)])
	return true
}

// AttrsInto is Attrs writing into ab: the result is valid until ab is used
// again.
func (e *Extractor) AttrsInto(p *page.Page, ab *AttrBuf) [][]crf.Attr { return e.attrs(p, ab) }

func (e *Extractor) attrs(p *page.Page, ab *AttrBuf) [][]crf.Attr {
	if ab == nil {
		ab = new(AttrBuf)
	}
	pp := e.Prepare(p)
	out := pp.AttrsInto(0, len(p.Blocks), ab)
	pp.Release()
	return out
}

// Prepared is a page whose page passes have run (document totals, groups,
// duplicates, repeated items, filter scores: a fixed number of values per
// block or node), so that the attributes of any run of its blocks can be
// computed on their own: a labeller reads a long page window by window
// instead of holding every block's attributes at once. Call Release when
// done.
type Prepared struct {
	e *Extractor
	s *scratch
}

// Prepare runs the page passes of p.
func (e *Extractor) Prepare(p *page.Page) *Prepared {
	s := e.pool.Get()
	s.p, s.textCueH, s.titleOn, s.titleGroupOn = p, e.textCueH, e.titleOn, e.titleGroupOn
	s.toks.done = false
	if len(p.Blocks) > 0 {
		e.preparePage(s)
		for gi, g := range featureGroups {
			if e.on[gi] && g.page != nil {
				g.page(s, e.buckets[gi])
			}
		}
	}
	return &Prepared{e: e, s: s}
}

// Release gives the page's working memory back for reuse; pp must not be
// used after.
func (pp *Prepared) Release() {
	if pp.s == nil {
		return
	}
	pp.s.resetGroups(pp.s.p)
	pp.s.p = nil
	pp.e.put(pp.s)
	pp.s = nil
}

// AttrsInto returns the attributes of blocks lo to hi-1 (index i of the
// result is block lo+i), the same as Extractor.Attrs gives them, written
// into ab: the result is valid until ab is used again.
func (pp *Prepared) AttrsInto(lo, hi int, ab *AttrBuf) [][]crf.Attr {
	e, s, n := pp.e, pp.s, hi-lo
	ab.out = grow.Slice(ab.out, n)
	out := ab.out[:n]
	if n <= 0 {
		return out[:0]
	}
	// The lists share backing arrays, a new one started whenever the room
	// left might not hold a block's attributes, so that append never
	// copies the page's attributes.
	if need := n*e.perBlock + e.maxPerBlock; cap(ab.buf) < need {
		ab.buf = make([]crf.Attr, 0, need+need/4)
	}
	buf := ab.buf[:0]
	for i := lo; i < hi; i++ {
		if cap(buf)-len(buf) < e.maxPerBlock {
			buf = make([]crf.Attr, 0, (hi-i)*e.perBlock+e.maxPerBlock)
		}
		start := len(buf)
		for gi, g := range featureGroups {
			if e.on[gi] && g.emit != nil {
				buf = g.emit(e, s, i, e.buckets[gi], buf)
			}
		}
		out[i-lo] = buf[start:len(buf):len(buf)]
	}
	return out
}

// preparePage runs the page passes: the text statistics and document
// totals always, then those the groups on need (see pass).
func (e *Extractor) preparePage(s *scratch) {
	p, n := s.p, len(s.p.Blocks)
	s.stats = grow.Slice(s.stats, n)
	s.docWords, s.docSents, s.nonLink = 0, 0, 0
	for i := range p.Blocks {
		b := &p.Blocks[i]
		st := &s.stats[i]
		s.key = scanText(b.Text, st, s.key)
		st.nonLink = float64(b.Words)
		if b.Chars > 0 {
			st.nonLink *= float64(b.Chars-b.LinkChars) / float64(b.Chars)
		}
		s.docWords += b.Words
		s.docSents += st.sents
		s.nonLink += st.nonLink
	}
	if e.needs&passDuplicates != 0 {
		s.duplicates(n)
	}
	s.g = groupInfo{}
	if e.needs&passGroups != 0 {
		s.g = s.groupRatios(p, s.nonLink)
	}
	if e.needs&passNodes != 0 {
		s.nodes = grow.Slice(s.nodes, len(p.Nodes))
		clear(s.nodes)
	}
	if e.needs&passRepeats != 0 {
		s.repeats(p)
	}
	if e.needs&passFilters != 0 && len(e.filters) > 0 {
		s.scores = grow.Slice(s.scores, n*len(e.filters))
		clear(s.scores)
		for k, f := range e.filters {
			f.f.Score(p, nil, s.scores[k*n:(k+1)*n])
		}
	}
}

func safeDiv(a, b float64) float64 {
	if b <= 0 {
		return 0
	}
	return a / b
}

func trailingZeros(x uint64) int { return bits.TrailingZeros64(x) }
