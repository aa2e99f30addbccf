package site_test

import (
	"slices"
	"testing"

	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/site"
)

// label sets the Score of every block of p by its text (the labeller's
// content probability) and keeps those at 0.5 or more as paragraphs, as
// the expected-F1 rule does on a page it is sure of.
func label(p *page.Page, score func(text string) float64) {
	for i := range p.Blocks {
		b := &p.Blocks[i]
		b.Score = score(b.Text)
		b.Label = page.Other
		if b.Score >= 0.5 {
			b.Label = page.Paragraph
		}
	}
}

// priorPages are four pages of a host: each has an article in div.main
// and a box of "more" stories in div.more that the labeller dropped
// confidently on three pages and kept, unsure, on the fourth; on the
// fourth it also dropped the article's second paragraph, which the same
// container holds on every page.
func priorPages(t *testing.T) []*page.Page {
	more := func(s string) string {
		return `<div class="more"><p>` + s + ` and more stories from this week that a reader may like to read next.</p></div>`
	}
	var ps []*page.Page
	for i, h := range []string{"Storm", "Vote", "Fair", "Bridge"} {
		p := portal(t, h, []string{h + " first paragraph of the article, long enough to be prose.", h + " second paragraph of the article, also prose."}, more(h))
		unsure := i == 3
		label(p, func(text string) float64 {
			switch {
			case text == h+" second paragraph of the article, also prose." && unsure:
				return 0.4
			case len(text) > 30 && text[:len(h)] == h && text[len(h):len(h)+5] == " and ":
				if unsure {
					return 0.6
				}
				return 0.05
			case text == h || len(text) > 30 && text[:len(h)] == h:
				return 0.95
			}
			return 0.02
		})
		ps = append(ps, p)
	}
	return ps
}

func TestApplyPrior(t *testing.T) {
	ps := priorPages(t)
	b := site.NewBuilder(site.Options{Prior: site.DefaultPrior})
	for _, p := range ps {
		b.Add(p)
	}
	m := b.Build()
	if !m.Judges(true) {
		t.Fatal("a model of four pages with a prior cannot judge them")
	}
	p := ps[3]
	before := keptText(p)
	dropped, kept := m.ApplyPrior(p, true)
	after := keptText(p)
	want := []string{"Bridge", "Bridge first paragraph of the article, long enough to be prose.", "Bridge second paragraph of the article, also prose."}
	if dropped != 1 || kept != 1 || !slices.Equal(after, want) {
		t.Errorf("ApplyPrior = %d dropped, %d kept; kept %q (before %q), want %q", dropped, kept, after, before, want)
	}
	// The confident pages do not change: the fourth page's doubt is
	// outvoted, not the others' certainty.
	for _, q := range ps[:3] {
		was := keptText(q)
		if d, k := m.ApplyPrior(q, true); d != 0 || k != 0 || !slices.Equal(keptText(q), was) {
			t.Errorf("a confident page changed: %d dropped, %d kept: %q, was %q", d, k, keptText(q), was)
		}
	}
}

func TestApplyPriorInert(t *testing.T) {
	// No prior in the options: nothing changes.
	ps := priorPages(t)
	b := site.NewBuilder(site.Options{})
	for _, p := range ps {
		b.Add(p)
	}
	if d, k := b.Build().ApplyPrior(ps[3], true); d != 0 || k != 0 {
		t.Errorf("without Prior: ApplyPrior = %d, %d", d, k)
	}
	// Two pages: the other page alone is too little to judge by.
	ps = priorPages(t)[2:]
	b = site.NewBuilder(site.Options{Prior: site.DefaultPrior})
	for _, p := range ps {
		b.Add(p)
	}
	m := b.Build()
	if m.Judges(true) {
		t.Error("a model of two pages judges its pages")
	}
	if d, k := m.ApplyPrior(ps[1], true); d != 0 || k != 0 {
		t.Errorf("two pages: ApplyPrior = %d, %d", d, k)
	}
	// A page the labeller is sure of nothing on is left alone.
	ps = priorPages(t)
	b = site.NewBuilder(site.Options{Prior: site.DefaultPrior})
	for _, p := range ps {
		b.Add(p)
	}
	m = b.Build()
	p := ps[3]
	label(p, func(string) float64 { return 0.1 })
	if d, k := m.ApplyPrior(p, true); d != 0 || k != 0 || len(keptText(p)) != 0 {
		t.Errorf("a page with nothing sure: ApplyPrior = %d, %d, kept %q", d, k, keptText(p))
	}
}

// TestPriorBounded: a host whose pages each have new paths keeps its path
// table within MaxEntries.
func TestPriorBounded(t *testing.T) {
	const max = 64
	b := site.NewBuilder(site.Options{Prior: site.DefaultPrior, MaxEntries: max})
	for i := range 200 {
		extra := ""
		for j := range 5 {
			extra += `<div class="c` + string(rune('a'+i%26)) + string(rune('a'+i/26)) + string(rune('a'+j)) + `"><p>text</p></div>`
		}
		p := portal(t, "Page", []string{"A paragraph of the page."}, extra)
		label(p, func(string) float64 { return 0.9 })
		b.Add(p)
		if b.Len() > 2*max {
			t.Fatalf("page %d: %d entries, more than fingerprints and paths of %d each", i, b.Len(), max)
		}
	}
}
