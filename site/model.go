package site

import (
	"math"
	"slices"

	"github.com/sluice-project/sluice/page"
)

// The defaults of Options.
const (
	// DefaultShare is the share of a host's other pages a block must recur
	// on to be template evidence, above the floor DefaultMinPages.
	DefaultShare = 0.1
	// DefaultMinPages is the fewest other pages a block must recur on.
	DefaultMinPages = 2
	// DefaultMaxEntries caps the fingerprint table of a Builder.
	DefaultMaxEntries = 1 << 16
)

// Options configure a site model. The zero value means the defaults.
type Options struct {
	// Key is what a fingerprint covers: TextKey (the default) or PathKey.
	Key Key
	// Share and MinPages set the threshold: a block of a page is template
	// evidence when its fingerprint occurs on at least
	// max(MinPages, ⌈Share × others⌉) of the host's other pages, where
	// others is the number of pages of the model besides the page itself.
	//
	// Share defaults to DefaultShare, 0.1. A site is several templates
	// (sections, shows, blogs, each with its own menus and boxes), so a
	// template block is on the pages of its section, not on most pages of
	// the host: on cleanportaleval, where a site has 12 to 30 pages,
	// every share above 0.2 loses F1 and 0.1 is best. The share matters
	// for hosts of more than 20 pages, where a block found on a few pages
	// only (a quote, a headline linked from two others) stays content.
	Share float64
	// MinPages is the floor of that threshold, default DefaultMinPages, 2:
	// a block found on one other page only is never template evidence
	// (two pages may share a quote or a headline), and a model of fewer
	// than three pages is inert.
	MinPages int
	// MaxEntries caps the number of fingerprints a Builder holds. When the
	// table is full, the fingerprints seen on the fewest pages are dropped
	// (those seen once, then twice..., until half the table is free: lossy
	// counting), so memory stays bounded whatever the number of pages of a
	// host, while the frequent fingerprints, the template, stay counted. A
	// fingerprint dropped and seen again starts from zero: its count is a
	// lower bound, and the model errs towards keeping text. Default
	// DefaultMaxEntries, 65,536 entries (about 2.5 MB of map).
	MaxEntries int
	// Rescue turns Rescue on in Model.Apply. It is off by default: on
	// the labeller's held-out decisions (docs/experiments.md, "Site
	// models") it lost on every set it moved, where it had helped the
	// embedded model on the pages it was trained on.
	Rescue bool
	// Prior is the weight of the path prior (prior.go), 0 (the default)
	// for none; DefaultPrior, 0.9, is the measured one. The prior reads
	// the content scores of the labelled pages added to the Builder as
	// probabilities and decides pages again with the expected-F1 rule: it
	// is for pages labelled by a trained model with that rule (the
	// default model), not for filter pipelines' scores.
	Prior float64
}

func (o Options) withDefaults() Options {
	if o.Share <= 0 {
		o.Share = DefaultShare
	}
	if o.Share > 1 {
		o.Share = 1
	}
	if o.MinPages <= 0 {
		o.MinPages = DefaultMinPages
	}
	if o.MaxEntries <= 0 {
		o.MaxEntries = DefaultMaxEntries
	}
	o.Prior = min(max(o.Prior, 0), 1)
	return o
}

// Builder counts, for every block fingerprint, the number of distinct pages
// of one host it occurs on. Add the segmented pages of a host, then Build.
// A Builder is not safe for concurrent use.
type Builder struct {
	opts   Options
	counts map[uint64]uint32
	paths  map[uint64]pathStat // with Options.Prior
	pages  int
	s      scratch
}

// NewBuilder returns an empty Builder.
func NewBuilder(opts Options) *Builder {
	b := &Builder{opts: opts.withDefaults(), counts: make(map[uint64]uint32)}
	if b.opts.Prior > 0 {
		b.paths = make(map[uint64]pathStat)
	}
	return b
}

// Add counts the blocks of p: each distinct fingerprint of p once, however
// often it occurs on the page; with Options.Prior, the mean score of its
// blocks at each path too. p is only read.
func (b *Builder) Add(p *page.Page) {
	b.pages++
	if b.paths != nil {
		b.addPaths(p)
	}
	for _, h := range b.s.distinct(p, b.opts.Key) {
		if c, ok := b.counts[h]; ok {
			if c < math.MaxUint32 {
				b.counts[h] = c + 1
			}
			continue
		}
		if len(b.counts) >= b.opts.MaxEntries {
			b.prune(b.opts.MaxEntries / 2)
		}
		b.counts[h] = 1
	}
}

// distinct returns the nonzero fingerprints of p's blocks selected by k,
// sorted and without duplicates, in s.hs.
func (s *scratch) distinct(p *page.Page, k Key) []uint64 {
	s.hs = s.hs[:0]
	for _, f := range s.fingerprints(p, k == PathKey) {
		if h := f.Of(k); h != 0 {
			s.hs = append(s.hs, h)
		}
	}
	slices.Sort(s.hs)
	s.hs = slices.Compact(s.hs)
	return s.hs
}

// prune drops the rarest fingerprints until at most target remain.
func (b *Builder) prune(target int) {
	for level := uint32(1); len(b.counts) > target; level++ {
		for h, c := range b.counts {
			if c <= level {
				delete(b.counts, h)
			}
		}
	}
}

// compact keeps only the fingerprints seen on at least min pages, in a new
// map (a Go map does not shrink when entries are deleted): what a Grouper
// keeps of a host between its batches.
func (b *Builder) compact(min int) {
	m := make(map[uint64]uint32)
	for h, c := range b.counts {
		if int(c) >= min {
			m[h] = c
		}
	}
	b.counts = m
	if b.paths != nil {
		ps := make(map[uint64]pathStat)
		for k, st := range b.paths {
			if int(st.pages) >= min {
				ps[k] = st
			}
		}
		b.paths = ps
	}
	b.s = scratch{}
}

// Pages returns the number of pages added.
func (b *Builder) Pages() int { return b.pages }

// Len returns the number of fingerprints held, and of paths with
// Options.Prior.
func (b *Builder) Len() int { return len(b.counts) + len(b.paths) }

// Build returns the model of the pages added so far. The Builder stays
// usable; pages added later go into later models only.
func (b *Builder) Build() *Model {
	m := &Model{opts: b.opts, pages: b.pages, counts: make(map[uint64]uint32)}
	if b.paths != nil {
		// A path on one page only says nothing of the page's others (as
		// a fingerprint under MinPages is no evidence).
		m.paths = make(map[uint64]pathStat)
		for k, st := range b.paths {
			if st.pages >= 2 {
				m.paths[k] = st
			}
		}
	}
	// A fingerprint on fewer than MinPages pages can never be evidence; the
	// model keeps only the others, which are few: the template.
	for h, c := range b.counts {
		if int(c) >= b.opts.MinPages {
			m.counts[h] = c
		}
	}
	return m
}

// Model is what recurs across the pages of one host: for each fingerprint
// seen on at least MinPages of them, the number of pages it occurs on. It is
// immutable and safe for concurrent use.
type Model struct {
	opts   Options
	pages  int
	counts map[uint64]uint32
	paths  map[uint64]pathStat // the path prior, with Options.Prior
}

// Pages returns the number of pages the model was built from.
func (m *Model) Pages() int { return m.pages }

// Options returns the options the model was built with, defaults filled in.
func (m *Model) Options() Options { return m.opts }

// Len returns the number of fingerprints the model holds, and of paths
// with Options.Prior.
func (m *Model) Len() int { return len(m.counts) + len(m.paths) }

// Count returns the number of the model's pages fingerprint h (of the
// model's Key) occurs on, or 0 when it is on fewer than MinPages of them.
func (m *Model) Count(h uint64) int { return int(m.counts[h]) }

// Judges reports whether the model can judge a page (one of its own pages
// when member) by the others: it has pages enough, and fingerprints seen
// on two of them or more (a host whose pages came one at a time has none:
// a Grouper keeps only those between batches), or, with Options.Prior,
// paths of priorOthers other pages or more.
func (m *Model) Judges(member bool) bool {
	if m == nil {
		return false
	}
	others := m.others(member)
	if len(m.paths) > 0 && others >= priorOthers {
		return true
	}
	return len(m.counts) > 0 && m.Need(member) <= others
}

// Need returns the number of other pages a block must occur on to be
// template evidence: max(MinPages, ⌈Share × others⌉), where others is
// Pages-1 when the page judged is one of the model's pages (member) and
// Pages when it is not. When the model has too few pages for that, Need is
// more than others and nothing is template.
func (m *Model) Need(member bool) int {
	others := m.others(member)
	need := max(m.opts.MinPages, int(math.Ceil(m.opts.Share*float64(others)-1e-9)))
	return min(need, others+1)
}

// others is the number of pages of the model besides the page judged.
func (m *Model) others(member bool) int {
	if member {
		return max(m.pages-1, 0)
	}
	return m.pages
}

// Template reports, for every block of p, whether it is template evidence:
// whether its fingerprint occurs on at least Need(member) of the host's
// other pages. member says whether p was added to the Builder the model
// came from; its own occurrence is then taken out of the counts, so a page
// is judged by the other pages of its host either way.
func (m *Model) Template(p *page.Page, member bool) []bool {
	out := make([]bool, len(p.Blocks))
	if m == nil || len(m.counts) == 0 {
		return out
	}
	need := m.Need(member)
	if need > m.others(member) {
		return out // too few pages to judge
	}
	var s scratch
	for i, f := range s.fingerprints(p, m.opts.Key == PathKey) {
		h := f.Of(m.opts.Key)
		if h == 0 {
			continue
		}
		c := int(m.counts[h])
		if member && c > 0 {
			c--
		}
		out[i] = c >= need
	}
	return out
}
