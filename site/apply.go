package site

import (
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/structure"
)

// Apply corrects a labelled page (by the labeller or a filter pipeline and
// the structure stage) with the model: with Options.Prior, the page is
// decided again under the path prior (ApplyPrior); then the kept blocks
// that are template evidence are dropped (Remove), and, when the model's
// Options say Rescue, the page's own prose next to its kept content is
// kept (Rescue). member is as for Template. It returns the number of
// blocks dropped and kept anew.
func (m *Model) Apply(p *page.Page, member bool) (dropped, rescued int) {
	dropped, rescued = m.ApplyPrior(p, member)
	tmpl := m.Template(p, member)
	dropped += Remove(p, tmpl)
	if m != nil && m.opts.Rescue {
		rescued += Rescue(p, tmpl)
	}
	return dropped, rescued
}

// Remove drops the kept blocks of p marked in drop (one entry per block):
// their Label becomes page.Other and their Score 0. A kept block that
// continued a dropped one starts a segment instead, with the label its
// markup implies (heading within h1-h6, list item within li, dt or dd, else
// paragraph). It returns the number of blocks dropped.
func Remove(p *page.Page, drop []bool) int {
	n := 0
	cut := false // the last kept block before this one was dropped
	for i := range p.Blocks {
		b := &p.Blocks[i]
		if !b.Label.Kept() {
			continue
		}
		if i < len(drop) && drop[i] {
			b.Label = page.Other
			b.Score = 0
			n++
			cut = true
			continue
		}
		if cut && b.Label == page.Continuation {
			b.Label = structure.Kind(p, b.Node)
		}
		cut = false
	}
	return n
}

// rescueWords is the fewest words a block needs to be rescued: about a
// sentence. Bylines, dates, labels and teaser titles are shorter.
const rescueWords = 10

// Rescue keeps dropped blocks of p that the site model shows to be the
// page's own and that lie with its kept content. The template blocks
// (tmpl[i] true) cut the page into runs of the page's own blocks; in a run
// that holds kept blocks, a dropped block is kept when it is in the group
// (DivGroup) of one of them and reads as prose: ten words or more, at most
// half of its characters in links. It becomes a paragraph (or what its
// markup implies), or the continuation of a kept block just before it.
//
// A labeller that lost the end of an article (short paragraphs with little
// evidence of their own) gets it back, while comments, bylines, teasers and
// related links stay dropped: a template heading or share bar cuts them off,
// or they sit in other groups, or are too short. It returns the number of
// blocks kept anew.
func Rescue(p *page.Page, tmpl []bool) int {
	isTmpl := func(i int) bool { return i < len(tmpl) && tmpl[i] }
	n := 0
	var groups []int32 // the groups of the run's kept blocks
	for start := 0; start < len(p.Blocks); {
		if isTmpl(start) {
			start++
			continue
		}
		end := start
		groups = groups[:0]
		for ; end < len(p.Blocks) && !isTmpl(end); end++ {
			if b := &p.Blocks[end]; b.Label.Kept() && !hasGroup(groups, b.DivGroup) {
				groups = append(groups, b.DivGroup)
			}
		}
		for i := start; i < end && len(groups) > 0; i++ {
			b := &p.Blocks[i]
			if b.Label.Kept() || !hasGroup(groups, b.DivGroup) || !prose(b) {
				continue
			}
			b.Score = max(b.Score, 0.5)
			keepBlock(p, i)
			n++
		}
		start = end
	}
	return n
}

// keepBlock keeps dropped block i of p: it becomes the continuation of a
// kept block just before it when it reads as one, else what its markup
// implies (heading, list item, paragraph).
func keepBlock(p *page.Page, i int) {
	b := &p.Blocks[i]
	if i > 0 && p.Blocks[i-1].Label.Kept() && structure.Continues(b) {
		b.Label = page.Continuation
	} else {
		b.Label = structure.Kind(p, b.Node)
	}
}

func hasGroup(groups []int32, g int32) bool {
	for _, x := range groups {
		if x == g {
			return true
		}
	}
	return false
}

// prose reports whether a block reads as running text: a sentence or more,
// mostly outside links.
func prose(b *page.Block) bool {
	return b.Words >= rescueWords && 2*b.LinkChars < b.Chars
}

// Filter is the site model as a content filter (package filter): it scores
// template blocks 0 and the others 1, so that in a serial pipeline such as
// filter.Serial(site.Filter{Model: m}, lqf, targetnode) the later stages
// never see the template. It is not registered by name, since it needs a
// model: build it as a value. Member is as for Model.Template. A nil Model
// scores every block 1.
type Filter struct {
	Model  *Model
	Member bool
}

// Name returns "site".
func (f Filter) Name() string { return "site" }

// Score implements filter.Filter.
func (f Filter) Score(p *page.Page, active []bool, out []float64) {
	tmpl := f.Model.Template(p, f.Member)
	for i := range p.Blocks {
		if active != nil && !active[i] {
			continue
		}
		out[i] = 1
		if tmpl[i] {
			out[i] = 0
		}
	}
}
