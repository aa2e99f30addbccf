package features

import (
	"golang.org/x/net/html/atom"

	"github.com/sluice-project/sluice/internal/grow"
	"github.com/sluice-project/sluice/page"
)

// Repeated items: the content of a listing, a catalogue, a search result
// or a forum thread is a run of sibling elements built from one template
// (the same tag and class), each holding a few blocks: a title, a teaser,
// a price, a date. Navigation is made of repeated items too, but of one
// short link each. The repeat group tells the labeller, for each block,
// whether it sits in such an item and what the items look like.

// repeatMaxUp is how many elements above a block's container are searched
// for the repeated item it belongs to.
const repeatMaxUp = 6

// repeatMin is the number of siblings of one signature that make a run.
const repeatMin = 3

type repeatRun struct {
	count, words int32
}

// NodeSignature hashes an element's tag and class, digits left out of the
// class so that "item-1" and "item-2" are one template (FNV-1a).
func NodeSignature(nd *page.Node) uint64 {
	h := uint64(14695981039346656037)
	mix := func(c byte) {
		h ^= uint64(c)
		h *= 1099511628211
	}
	for i := 0; i < len(nd.Tag); i++ {
		mix(nd.Tag[i])
	}
	mix(0)
	for i := 0; i < len(nd.Class); i++ {
		if c := nd.Class[i]; c < '0' || c > '9' {
			mix(c)
		}
	}
	return h
}

// repeats fills s.runs with, per (parent, signature), the number of
// sibling elements and the words of their blocks, s.sig with each node's
// key into it, s.ord with its index among its run's siblings, and
// s.prefix with the running word count of the blocks.
func (s *scratch) repeats(p *page.Page) {
	n := len(p.Nodes)
	s.sig = grow.Slice(s.sig, n)
	s.ord = grow.Slice(s.ord, n)
	s.prefix = grow.Slice(s.prefix, len(p.Blocks)+1)
	s.prefix[0] = 0
	for i := range p.Blocks {
		s.prefix[i+1] = s.prefix[i] + p.Blocks[i].Words
	}
	if s.runs == nil {
		s.runs = map[uint64]repeatRun{}
	}
	clear(s.runs)
	for i := range p.Nodes {
		nd := &p.Nodes[i]
		k := NodeSignature(nd) ^ uint64(nd.Parent+1)*0x9E3779B97F4A7C15
		s.sig[i] = k
		r := s.runs[k]
		s.ord[i] = r.count
		r.count++
		r.words += s.words(nd)
		s.runs[k] = r
	}
}

// words returns the words of the blocks inside nd.
func (s *scratch) words(nd *page.Node) int32 {
	lo, hi := int(nd.First), int(nd.End)
	if lo < 0 || hi >= len(s.prefix) || lo > hi {
		return 0
	}
	return s.prefix[hi] - s.prefix[lo]
}

// repeatItem returns the innermost element at most repeatMaxUp above the
// block's container (or the container itself) that has at least
// repeatMin siblings of its signature, how far up it is, and its run; up
// -1 when there is none. With whole, it returns the innermost such element
// that holds two blocks or more, where there is one: the card of a grid
// rather than one of the card's own repeated parts (three classless divs
// for price, rating and button).
func (s *scratch) repeatItem(p *page.Page, node int32, whole bool) (item int32, up int, run repeatRun) {
	item, up = -1, -1
	m := node
	for u := 0; u <= repeatMaxUp && m > 0 && int(m) < len(p.Nodes); u++ {
		nd := &p.Nodes[m]
		if nd.Atom == atom.Body {
			break
		}
		if r := s.runs[s.sig[m]]; r.count >= repeatMin {
			if item < 0 {
				item, up, run = m, u, r
			}
			if !whole || nd.End-nd.First >= 2 {
				return m, u, r
			}
		}
		if nd.Parent >= m {
			break // not a tree in pre-order
		}
		m = nd.Parent
	}
	return item, up, run
}
