package site

import (
	"cmp"
	"slices"

	"github.com/sluice-project/sluice/page"
)

// The defaults of LearnOptions.
const (
	// DefaultLearnPages is the most pages of one host a Learner learns
	// from: its first ones in the order they are added.
	DefaultLearnPages = 1000
	// DefaultLearnBytes bounds the memory of a Learner's tables.
	DefaultLearnBytes = 256 << 20
	// DefaultLearnEntries is the fingerprint table of one host's Builder
	// in a Learner (Options.MaxEntries), unless the Model options say.
	DefaultLearnEntries = 1 << 14
)

// entryBytes is what a fingerprint of a Builder's table takes in a Go map,
// with its share of the map's slack; hostBytes is what a host takes
// besides its table (its name, its Builder, the map entries naming it),
// and droppedBytes what a dropped host's name takes in the set of them.
const (
	entryBytes   = 40
	hostBytes    = 256
	droppedBytes = 64
)

// LearnOptions configure a Learner. The zero value means the defaults.
type LearnOptions struct {
	// Model configures the hosts' models. Its MaxEntries defaults to
	// DefaultLearnEntries, 16,384 (about 640 KiB a host at most).
	Model Options
	// MaxPages is the most pages of a host learned from: its first
	// MaxPages pages; the later ones are judged by the model of those.
	// Default DefaultLearnPages, 1,000.
	MaxPages int
	// MaxBytes bounds the memory of the tables of every host together.
	// When they take more, the largest tables are compacted (their
	// fingerprints seen on one page only are dropped, as Options.MaxEntries
	// does for one table), then, if that is not enough, the hosts with the
	// fewest pages are dropped: they get no model (their names are kept,
	// some 80 bytes each, so that they are not learned again from their
	// later pages). Default
	// DefaultLearnBytes, 256 MiB.
	MaxBytes int64
}

func (o LearnOptions) withDefaults() LearnOptions {
	if o.Model.MaxEntries <= 0 {
		o.Model.MaxEntries = DefaultLearnEntries
	}
	o.Model = o.Model.withDefaults()
	if o.MaxPages <= 0 {
		o.MaxPages = DefaultLearnPages
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultLearnBytes
	}
	return o
}

// LearnStats are what a Learner did.
type LearnStats struct {
	// Hosts and Pages are the hosts learned (that have a model) and the
	// pages their models were built from.
	Hosts int64 `json:"hosts"`
	Pages int64 `json:"pages"`
	// HostsOverCap are the hosts with more pages than MaxPages, and
	// PagesOverCap their pages not learned from.
	HostsOverCap int64 `json:"hosts_over_cap"`
	PagesOverCap int64 `json:"pages_over_cap"`
	// Compacted counts the tables compacted under MaxBytes; HostsDropped
	// are the hosts dropped under it, and PagesDropped their pages, those
	// learned before and those seen after.
	Compacted    int64 `json:"compacted,omitempty"`
	HostsDropped int64 `json:"hosts_dropped,omitempty"`
	PagesDropped int64 `json:"pages_dropped,omitempty"`
}

// Learner learns the models of many hosts from a stream of pages in which
// a host's pages may be anywhere: the first pass of a two-pass cleaning,
// which reads a whole crawl, then cleans every page with the model of its
// host (Models.Lookup). Memory is bounded by a cap on the pages learned
// per host (LearnOptions.MaxPages) and on the tables of all hosts
// together (MaxBytes). What it learns depends only on the order pages are
// added in. A Learner is not safe for concurrent use.
type Learner struct {
	opts    LearnOptions
	hosts   map[string]*learnHost
	dropped map[string]bool
	bytes   int64
	stats   LearnStats
}

type learnHost struct {
	b    *Builder
	last uint64 // the seq of the last page learned
	over bool   // a page over MaxPages was seen
}

// NewLearner returns an empty Learner.
func NewLearner(opts LearnOptions) *Learner {
	return &Learner{opts: opts.withDefaults(), hosts: map[string]*learnHost{}, dropped: map[string]bool{}}
}

// Add learns page p of host, unless the host has MaxPages pages learned
// already or was dropped. seq names the page: it must grow from one page
// to the next; Models.Lookup tells a page learned by it. p is only read.
func (l *Learner) Add(host string, seq uint64, p *page.Page) {
	if l.dropped[host] {
		l.stats.PagesDropped++
		return
	}
	h := l.hosts[host]
	if h == nil {
		h = &learnHost{b: NewBuilder(l.opts.Model)}
		l.hosts[host] = h
		l.bytes += hostBytes + int64(len(host))
	}
	if h.b.Pages() >= l.opts.MaxPages {
		l.Skip(host)
		return
	}
	n := h.b.Len()
	h.b.Add(p)
	h.last = seq
	l.bytes += int64(h.b.Len()-n) * entryBytes
	if l.bytes > l.opts.MaxBytes {
		l.shrink()
	}
}

// Skip counts a page of host over MaxPages that the caller did not even
// parse, since the host had MaxPages pages already.
func (l *Learner) Skip(host string) {
	if l.dropped[host] {
		l.stats.PagesDropped++
		return
	}
	l.stats.PagesOverCap++
	if h := l.hosts[host]; h != nil && !h.over {
		h.over = true
		l.stats.HostsOverCap++
	}
}

// Bytes returns the memory the tables are reckoned to take.
func (l *Learner) Bytes() int64 { return l.bytes }

// shrink brings the tables to three quarters of MaxBytes: it compacts the
// largest ones first, then drops the hosts with the fewest pages (ties in
// the order of their names, so that it depends only on what was added).
func (l *Learner) shrink() {
	target := l.opts.MaxBytes / 4 * 3
	names := make([]string, 0, len(l.hosts))
	for name := range l.hosts {
		names = append(names, name)
	}
	slices.SortFunc(names, func(a, b string) int {
		return cmp.Or(cmp.Compare(l.hosts[b].b.Len(), l.hosts[a].b.Len()), cmp.Compare(a, b))
	})
	for _, name := range names {
		if l.bytes <= target {
			return
		}
		b := l.hosts[name].b
		n := b.Len()
		b.compact(2)
		l.bytes -= int64(n-b.Len()) * entryBytes
		l.stats.Compacted++
	}
	slices.SortFunc(names, func(a, b string) int {
		return cmp.Or(cmp.Compare(l.hosts[a].b.Pages(), l.hosts[b].b.Pages()), cmp.Compare(a, b))
	})
	for _, name := range names {
		if l.bytes <= target {
			return
		}
		h := l.hosts[name]
		l.bytes -= int64(h.b.Len())*entryBytes + hostBytes - droppedBytes
		l.stats.HostsDropped++
		l.stats.PagesDropped += int64(h.b.Pages())
		delete(l.hosts, name)
		l.dropped[name] = true
	}
}

// Models returns the model of every host learned, and empties the Learner.
func (l *Learner) Models() *Models {
	ms := &Models{hosts: make(map[string]learned, len(l.hosts)), stats: l.stats}
	for name, h := range l.hosts {
		m := h.b.Build()
		ms.hosts[name] = learned{m, h.last}
		ms.stats.Hosts++
		ms.stats.Pages += int64(m.Pages())
		ms.bytes += hostBytes + int64(len(name)) + int64(m.Len())*entryBytes
		delete(l.hosts, name) // its table can go before the next is built
	}
	l.hosts, l.dropped, l.bytes = map[string]*learnHost{}, map[string]bool{}, 0
	return ms
}

// Models are the models a Learner learned, by host. They are immutable and
// safe for concurrent use.
type Models struct {
	hosts map[string]learned
	stats LearnStats
	bytes int64
}

type learned struct {
	m    *Model
	last uint64
}

// Lookup returns the model of host (nil when none was learned) and whether
// the page named seq was among those it was learned from: a page of the
// host added with a seq up to that of the last page learned (the pages of
// a host are learned first come, first learned).
func (ms *Models) Lookup(host string, seq uint64) (m *Model, member bool) {
	l, ok := ms.hosts[host]
	if !ok {
		return nil, false
	}
	return l.m, seq <= l.last
}

// Stats returns what the Learner did.
func (ms *Models) Stats() LearnStats { return ms.stats }

// Bytes returns the memory the models are reckoned to take.
func (ms *Models) Bytes() int64 { return ms.bytes }
