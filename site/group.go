package site

import "github.com/sluice-project/sluice/page"

// The defaults of GroupOptions.
const (
	DefaultBatchSize  = 32
	DefaultMaxPending = 4096
	DefaultMaxHosts   = 1024
)

// GroupOptions configure a Grouper. The zero value means the defaults.
type GroupOptions struct {
	// Model configures the site models built for the batches.
	Model Options
	// BatchSize is the number of pages of a host buffered before they are
	// handed back as a batch. Default DefaultBatchSize, 32.
	BatchSize int
	// MaxPending caps the pages buffered over all hosts. When it is
	// exceeded, the host whose buffered pages have waited longest is
	// handed back early, with a smaller batch. Default DefaultMaxPending,
	// 4,096.
	MaxPending int
	// MaxHosts caps the hosts whose counts a Grouper keeps between
	// batches (only the fingerprints seen on two pages or more are kept, a
	// few hundred per host); the hosts idle longest are forgotten first.
	// Default DefaultMaxHosts, 1,024.
	MaxHosts int
}

func (o GroupOptions) withDefaults() GroupOptions {
	if o.BatchSize <= 0 {
		o.BatchSize = DefaultBatchSize
	}
	if o.MaxPending <= 0 {
		o.MaxPending = DefaultMaxPending
	}
	if o.MaxHosts <= 0 {
		o.MaxHosts = DefaultMaxHosts
	}
	o.Model = o.Model.withDefaults()
	return o
}

// Batch is pages of one host handed back by a Grouper, with the site model
// of that host.
type Batch[T any] struct {
	// Host is the host the items were added under.
	Host string
	// Items are the items, in the order they were added, and Pages their
	// segmented pages.
	Items []T
	Pages []*page.Page
	// Model is built from these pages and those of the host's earlier
	// batches (as far as the Grouper remembers the host). Every page of
	// the batch is one of its pages: judge them with member true, as
	// Apply does.
	Model *Model
}

// Apply applies the batch's model to its page i (Model.Apply with member
// true) and returns the blocks dropped and rescued.
func (b *Batch[T]) Apply(i int) (dropped, rescued int) {
	return b.Model.Apply(b.Pages[i], true)
}

// Grouper sorts a stream of pages by host, as WC Cleaner sorted its ARC
// files before multiple-file cleaning, but in bounded memory: it buffers up
// to BatchSize pages per host and MaxPending pages in all, and hands back a
// host's pages as a Batch, with the model of that host, when its buffer is
// full, when the buffers overflow (the host waiting longest goes first), on
// Release (the same, asked by the caller) or at Flush.
//
// The trade-off: the first pages of a host wait until its buffer fills, so
// batches come out in another order than the pages went in, and a small
// host's pages wait until the end of the stream or an overflow. A page is
// judged by the pages of its batch and of its host's earlier batches, never
// by later ones: a host's first batch has the weakest model, and a host
// with fewer than MinPages+1 pages in a model gets no template evidence at
// all. Larger buffers give better models for more memory and latency.
//
// A Grouper is not safe for concurrent use.
type Grouper[T any] struct {
	opts    GroupOptions
	hosts   map[string]*hostState[T]
	pending int
	// waiting lists hosts in the order their buffers became non-empty,
	// idle in the order their buffers were emptied; entries made stale
	// by later events are skipped (gen tells).
	waiting, idle []hostRef
	gen           uint64
}

type hostState[T any] struct {
	items   []T
	pages   []*page.Page
	builder *Builder
	gen     uint64 // of the last event: buffer started or emptied
}

type hostRef struct {
	host string
	gen  uint64
}

// NewGrouper returns an empty Grouper.
func NewGrouper[T any](opts GroupOptions) *Grouper[T] {
	return &Grouper[T]{opts: opts.withDefaults(), hosts: make(map[string]*hostState[T])}
}

// Pending returns the number of pages buffered.
func (g *Grouper[T]) Pending() int { return g.pending }

// Add buffers item and its segmented page p under host and returns the
// batches that are ready: none, host's when its buffer is full, and the
// batches of the hosts that waited longest when the buffers overflow. The
// Grouper keeps p until its batch is handed back; it only reads it.
func (g *Grouper[T]) Add(host string, item T, p *page.Page) []Batch[T] {
	h := g.hosts[host]
	if h == nil {
		h = &hostState[T]{builder: NewBuilder(g.opts.Model)}
		g.hosts[host] = h
	}
	if len(h.pages) == 0 {
		g.gen++
		h.gen = g.gen
		g.waiting = append(g.waiting, hostRef{host, h.gen})
	}
	h.items = append(h.items, item)
	h.pages = append(h.pages, p)
	h.builder.Add(p)
	g.pending++
	var out []Batch[T]
	if len(h.pages) >= g.opts.BatchSize {
		out = append(out, g.release(host, h))
	}
	for g.pending > g.opts.MaxPending {
		b, ok := g.oldest()
		if !ok {
			break
		}
		out = append(out, b)
	}
	g.forget()
	return out
}

// Release hands back the pages of the host that has waited longest, as an
// overflow of MaxPending does, for a caller that bounds the buffers by
// another measure too (bytes of memory, say). ok is false when no page is
// buffered.
func (g *Grouper[T]) Release() (b Batch[T], ok bool) {
	b, ok = g.oldest()
	g.forget()
	return b, ok
}

// oldest releases the host at the head of the waiting queue, skipping
// stale entries.
func (g *Grouper[T]) oldest() (Batch[T], bool) {
	for len(g.waiting) > 0 {
		ref := g.waiting[0]
		g.waiting = g.waiting[1:]
		if h := g.hosts[ref.host]; h != nil && h.gen == ref.gen && len(h.pages) > 0 {
			return g.release(ref.host, h), true
		}
	}
	return Batch[T]{}, false
}

// release hands back host's buffered pages as a batch and keeps what the
// host's model needs to remember.
func (g *Grouper[T]) release(host string, h *hostState[T]) Batch[T] {
	b := Batch[T]{Host: host, Items: h.items, Pages: h.pages, Model: h.builder.Build()}
	g.pending -= len(h.pages)
	h.items, h.pages = nil, nil
	h.builder.compact(2)
	g.gen++
	h.gen = g.gen
	g.idle = append(g.idle, hostRef{host, h.gen})
	return b
}

// forget drops the idle hosts over MaxHosts, longest idle first.
func (g *Grouper[T]) forget() {
	for len(g.hosts) > g.opts.MaxHosts && len(g.idle) > 0 {
		ref := g.idle[0]
		g.idle = g.idle[1:]
		if h := g.hosts[ref.host]; h != nil && h.gen == ref.gen && len(h.pages) == 0 {
			delete(g.hosts, ref.host)
		}
	}
	// The queues hold stale entries too; keep them from growing without
	// bound when hosts come and go.
	if len(g.idle) > 4*len(g.hosts)+64 {
		g.idle = g.compactRefs(g.idle, false)
	}
	if len(g.waiting) > 4*len(g.hosts)+64 {
		g.waiting = g.compactRefs(g.waiting, true)
	}
}

// compactRefs drops the stale entries of a queue.
func (g *Grouper[T]) compactRefs(q []hostRef, waiting bool) []hostRef {
	out := q[:0]
	for _, ref := range q {
		if h := g.hosts[ref.host]; h != nil && h.gen == ref.gen && (len(h.pages) > 0) == waiting {
			out = append(out, ref)
		}
	}
	return append([]hostRef(nil), out...)
}

// Flush hands back every buffered page, one batch per host in the order the
// hosts' buffers started, and resets the Grouper: it is the end of the
// stream.
func (g *Grouper[T]) Flush() []Batch[T] {
	var out []Batch[T]
	for _, ref := range g.waiting {
		if h := g.hosts[ref.host]; h != nil && h.gen == ref.gen && len(h.pages) > 0 {
			out = append(out, g.release(ref.host, h))
		}
	}
	g.hosts = make(map[string]*hostState[T])
	g.waiting, g.idle, g.pending = nil, nil, 0
	return out
}
