package site

import (
	"errors"
	"fmt"
	"hash/fnv"

	"github.com/sluice-project/sluice/filter"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/structure"
)

// This file cleans a set of pages of one site as WC Cleaner's wc.py does in
// its multiple-file mode (Baisa's thesis, section 2.4 and the Appendix):
// each page is diffed against a reference page (MultiFile) and what the two
// have in common is dropped; everything else is kept. Its options are
// wc.py's: -e/--reference (a reference page given), -p/--prune,
// -f/--fromtarget and -r/--sparse (MultiFileOptions).

// SparseDensity is WC Cleaner's SPARSE.DENSITY (wclib.py): with
// MultiFileOptions.Sparse, a page whose target node holds fewer characters
// per structural element (the thesis's density, section 2.3; measured as
// filter.TargetNode measures it) is a sparse page, omitted.
const SparseDensity = 10

// DefaultPruneLevels is the default of MultiFileOptions.PruneLevels.
const DefaultPruneLevels = 3

// MultiFileOptions are the modes of CleanMultiFile. The zero value is the
// plain multiple-file mode (the thesis's WCC∅).
type MultiFileOptions struct {
	// Prune is wc.py's -p: a page whose structure differs from its
	// reference's (SimilarByChildCount fails) is cleaned in single-file mode
	// instead, by the density target node (filter.TargetNode): the blocks
	// inside it are kept, all others dropped.
	Prune bool
	// PruneLevels is the levels below <body> that SimilarByChildCount
	// compares for Prune; 0 means DefaultPruneLevels, 3.
	PruneLevels int
	// FromTarget is wc.py's -f: only the target node of the page is
	// diffed, against the target node of the reference; the blocks outside
	// the page's target node are dropped.
	FromTarget bool
	// Sparse is wc.py's -r: a page whose target node is less dense than
	// SparseDensity is omitted: every block of it is dropped (Outcome.Mode
	// Omitted says so, and why).
	Sparse bool
}

// Mode is how CleanMultiFile cleaned a page.
type Mode uint8

const (
	// Diffed: compared with its reference, the common blocks dropped.
	Diffed Mode = iota
	// Single: cleaned in single-file mode (the target node), because its
	// structure differs from the reference's (MultiFileOptions.Prune) or
	// because no other page differs from it.
	Single
	// Omitted: a sparse page (MultiFileOptions.Sparse); nothing is kept.
	Omitted
)

// String names the mode.
func (m Mode) String() string {
	switch m {
	case Diffed:
		return "diffed"
	case Single:
		return "single"
	case Omitted:
		return "omitted"
	}
	return fmt.Sprintf("Mode(%d)", uint8(m))
}

// Outcome says how CleanMultiFile cleaned one page.
type Outcome struct {
	Mode Mode
	// Reference is the index among the pages of the page this one was
	// compared with; -1 for the reference page given, or for none (a
	// sparse page, or a page with no other page to compare with).
	Reference int
	// Density is the density of the page's target node, in Latin
	// characters per structural element (filter.TargetNode); computed
	// with the prune, from-target and sparse modes, else 0.
	Density float64
	// Common is the blocks dropped as common with the reference, and Kept
	// the blocks kept.
	Common, Kept int
	// Reason says, for the modes Single and Omitted, why.
	Reason string
}

// Errors of CleanMultiFile: the set gives nothing to compare.
var (
	ErrNoPages = errors.New("no pages to clean")
	ErrOnePage = errors.New("one page alone: multiple-file cleaning compares a page with another page of its site; give two pages or more, or a reference page")
)

// CleanMultiFile cleans pages of one site against each other, as WC
// Cleaner's multiple-file mode does, and sets the Score (1 kept, 0
// dropped) and Label (structure.Label) of every block of every page.
//
// The reference is ref when given (wc.py's -e), else the page of median
// size (Reference over sizes, the bytes of each page's HTML; nil sizes
// mean the characters of its text). A page that is the reference itself,
// or is identical to it (the same blocks of the same text), is compared
// with the page of median size among the others that differ from it, so
// that it is not emptied; a page with no such page is cleaned in
// single-file mode. CleanMultiFile fails only when there is no page, or
// one page and no reference that differs from it.
func CleanMultiFile(pages []*page.Page, sizes []int, ref *page.Page, opts MultiFileOptions) ([]Outcome, error) {
	if len(pages) == 0 {
		return nil, ErrNoPages
	}
	s := newSetState(pages, sizes, ref, opts)
	if len(pages) == 1 && (ref == nil || s.sameAsRef(0)) {
		return nil, ErrOnePage
	}
	out := make([]Outcome, len(pages))
	for i, p := range pages {
		out[i] = s.clean(i)
		keep := 0
		for k := range p.Blocks {
			if p.Blocks[k].Score >= structure.Threshold {
				keep++
			}
		}
		out[i].Kept = keep
		structure.Label(p, structure.Threshold)
	}
	return out, nil
}

// setState is the work of one CleanMultiFile call: each page's tree view
// and identity, built once.
type setState struct {
	pages  []*page.Page
	sizes  []int
	ref    *page.Page
	opts   MultiFileOptions
	trees  []*tree // by page, built when first needed
	refT   *tree
	ident  []uint64 // identity of each page's text (pageIdentity)
	refID  uint64
	median int // the reference page among pages when ref is nil
}

func newSetState(pages []*page.Page, sizes []int, ref *page.Page, opts MultiFileOptions) *setState {
	s := &setState{pages: pages, ref: ref, opts: opts, trees: make([]*tree, len(pages)), ident: make([]uint64, len(pages))}
	if s.opts.PruneLevels <= 0 {
		s.opts.PruneLevels = DefaultPruneLevels
	}
	s.sizes = sizes
	if len(sizes) != len(pages) {
		s.sizes = make([]int, len(pages))
		for i, p := range pages {
			for k := range p.Blocks {
				s.sizes[i] += int(max(p.Blocks[k].Chars, 0))
			}
		}
	}
	for i, p := range pages {
		s.ident[i] = pageIdentity(p)
	}
	if ref != nil {
		s.refID = pageIdentity(ref)
	}
	s.median = Reference(s.sizes)
	return s
}

// pageIdentity hashes the exact text of a page's blocks, in order: two
// pages with the same identity have everything in common.
func pageIdentity(p *page.Page) uint64 {
	h := fnv.New64a()
	for k := range p.Blocks {
		h.Write([]byte(p.Blocks[k].Text))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

func (s *setState) sameAsRef(i int) bool { return s.ref != nil && s.ident[i] == s.refID }

func (s *setState) tree(i int) *tree {
	if s.ref != nil && i < 0 {
		if s.refT == nil {
			s.refT = newTree(s.ref)
		}
		return s.refT
	}
	if s.trees[i] == nil {
		s.trees[i] = newTree(s.pages[i])
	}
	return s.trees[i]
}

// referenceOf returns the page page i is compared with: -1 for the given
// reference, an index among the pages, or -2 for none.
func (s *setState) referenceOf(i int) int {
	if s.ref != nil && !s.sameAsRef(i) {
		return -1
	}
	if s.ref == nil && s.median != i && s.ident[s.median] != s.ident[i] {
		return s.median
	}
	var idx, sizes []int
	for j := range s.pages {
		if j != i && s.ident[j] != s.ident[i] {
			idx = append(idx, j)
			sizes = append(sizes, s.sizes[j])
		}
	}
	if r := Reference(sizes); r >= 0 {
		return idx[r]
	}
	return -2
}

// clean cleans page i and sets its blocks' scores.
func (s *setState) clean(i int) Outcome {
	p := s.pages[i]
	o := Outcome{Reference: -1}
	var target int32 = -1
	if s.opts.Prune || s.opts.FromTarget || s.opts.Sparse {
		var ok bool
		if target, o.Density, ok = filter.NewTargetNode().Target(p, nil); !ok {
			target = -1
		}
	}
	if s.opts.Sparse && target >= 0 && o.Density < SparseDensity {
		o.Mode, o.Reason = Omitted, fmt.Sprintf("a sparse page: its target node holds %.1f characters per structural element, fewer than %d", o.Density, SparseDensity)
		setScores(p, nil, func(int) bool { return false })
		return o
	}
	r := s.referenceOf(i)
	if r == -2 {
		o.Mode, o.Reason = Single, "no other page differs from it"
		singleFile(p)
		return o
	}
	o.Reference = r
	doc, ref := s.tree(i), s.tree(r)
	if s.opts.Prune && !similarByChildCount(doc, ref, p.Body, ref.p.Body, s.opts.PruneLevels) {
		o.Mode, o.Reason = Single, fmt.Sprintf("its structure differs from the reference's in the %d levels below <body> (--prune)", s.opts.PruneLevels)
		singleFile(p)
		return o
	}
	var common []bool
	if s.opts.FromTarget && target >= 0 {
		rt, _, ok := filter.NewTargetNode().Target(ref.p, nil)
		if !ok {
			rt = ref.p.Body
		}
		common = diffFrom(doc, ref, target, rt)
	} else {
		common = diffFrom(doc, ref, p.Body, ref.p.Body)
		target = -1
	}
	for _, c := range common {
		if c {
			o.Common++
		}
	}
	setScores(p, common, func(k int) bool {
		return target < 0 || int32(k) >= p.Nodes[target].First && int32(k) < p.Nodes[target].End
	})
	return o
}

// setScores gives block k of p Score 1 when it is not common and inside(k),
// else 0.
func setScores(p *page.Page, common []bool, inside func(k int) bool) {
	for k := range p.Blocks {
		p.Blocks[k].Score = 0
		if (k >= len(common) || !common[k]) && inside(k) {
			p.Blocks[k].Score = 1
		}
	}
}

// singleFile scores p in WC Cleaner's single-file mode: the blocks in its
// target node.
func singleFile(p *page.Page) {
	scores := make([]float64, len(p.Blocks))
	filter.NewTargetNode().Score(p, nil, scores)
	for k := range p.Blocks {
		p.Blocks[k].Score = scores[k]
	}
}

// SimilarByChildCount is WC Cleaner's isSimilarByChildCount: pages p and
// ref are alike in structure when, for levels levels from <body> down,
// every pair of corresponding nodes has the same number of children. As
// for the level walk, the children counted are the elements that hold text
// and the text blocks directly in the node; corresponding children are
// taken in order, and a text against an element is a difference. The
// prune mode of CleanMultiFile cleans a page that fails it in single-file
// mode.
func SimilarByChildCount(p, ref *page.Page, levels int) bool {
	if len(p.Nodes) == 0 || len(ref.Nodes) == 0 {
		return len(p.Nodes) == len(ref.Nodes)
	}
	return similarByChildCount(newTree(p), newTree(ref), p.Body, ref.Body, levels)
}

func similarByChildCount(a, b *tree, an, bn int32, levels int) bool {
	if !a.valid(an) || !b.valid(bn) {
		return a.valid(an) == b.valid(bn)
	}
	ai, bi := a.children[an], b.children[bn]
	if len(ai) != len(bi) {
		return false
	}
	if levels <= 1 {
		return true
	}
	for k := range ai {
		if (ai[k] < 0) != (bi[k] < 0) {
			return false
		}
		if ai[k] >= 0 && !similarByChildCount(a, b, ai[k], bi[k], levels-1) {
			return false
		}
	}
	return true
}
