package corpus

import (
	"fmt"
	"strings"
	"unsafe"

	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/render"
	"github.com/sluice-project/sluice/site"
)

// siteStage is the writer's side of Options.Site: it holds the cleaned
// pages of an input by host in a site.Grouper, corrects each batch the
// Grouper hands back with the batch's site model, renders the pages and
// passes them on to be counted and written. Only the writer goroutine uses
// it.
type siteStage struct {
	g        *site.Grouper[*item]
	maxBytes int64
	held     int64 // pageBytes of the pages held
	r        *renderer
	// keep, with Options.ParagraphDedup, leaves a corrected page on its
	// item unrendered: the writer drops its repeated paragraphs first.
	keep bool
}

func newSiteStage(o *Options) *siteStage {
	return &siteStage{g: site.NewGrouper[*item](o.SiteGroup), maxBytes: o.SiteBytes,
		r: newRenderer(o)}
}

// add holds a cleaned page under its host and emits the batches that are
// ready: the host's when it has a batch's worth of pages, and those of the
// hosts waiting longest while the pages held are over the page or byte
// caps.
func (s *siteStage) add(it *item, emit func(*item) error) error {
	it.held = pageBytes(it.page)
	s.held += it.held
	bs := s.g.Add(SiteKey(it.page.Meta.Host()), it, it.page)
	for _, b := range bs {
		s.unhold(b)
	}
	for s.held > s.maxBytes {
		b, ok := s.g.Release()
		if !ok {
			break
		}
		s.unhold(b)
		bs = append(bs, b)
	}
	return s.emit(bs, emit)
}

// flush emits every page held: the input ends.
func (s *siteStage) flush(emit func(*item) error) error {
	bs := s.g.Flush()
	for _, b := range bs {
		s.unhold(b)
	}
	return s.emit(bs, emit)
}

func (s *siteStage) unhold(b site.Batch[*item]) {
	for _, it := range b.Items {
		s.held -= it.held
	}
}

// emit corrects, renders and emits the pages of the batches, in order.
func (s *siteStage) emit(bs []site.Batch[*item], emit func(*item) error) error {
	for _, b := range bs {
		for i, it := range b.Items {
			s.finish(&b, i, it)
			b.Pages[i] = nil
			if err := emit(it); err != nil {
				return err
			}
		}
	}
	return nil
}

// SiteKey returns the host a page is grouped under with Options.Site: the
// host of its address (page.Meta.Host) without a leading "www.", which
// names the same site.
func SiteKey(h string) string {
	if k, ok := strings.CutPrefix(h, "www."); ok && k != "" {
		return k
	}
	return h
}

// finish corrects page i of the batch with its model (SiteCorrect) and
// renders it (unless keep); a page left without text is skipped as "no
// text".
func (s *siteStage) finish(b *site.Batch[*item], i int, it *item) {
	p := it.page
	it.page = nil
	defer func() {
		if r := recover(); r != nil {
			it.out, it.site = nil, nil
			it.failed, it.skipped, it.reason, it.detail = true, false, "clean: panic", fmt.Sprint(r)
		}
	}()
	var v Verdict
	it.site, v = SiteCorrect(b, i)
	if !v.Written() {
		it.skipped, it.reason, it.detail = true, v.Reason, v.Detail
		return
	}
	if s.keep {
		it.page = p
		return
	}
	out, err := s.r.render(it, p)
	if err != nil {
		it.failed, it.reason, it.detail = true, "clean: rendering", err.Error()
		return
	}
	it.out = out
}

// SiteCorrect corrects page i of a batch with the batch's site model, as
// Run does with Options.Site, and returns what the model did (nil when it
// cannot judge the batch's pages: the page stays as cleaned). A page the
// model leaves without text is skipped as "no text".
func SiteCorrect[T any](b *site.Batch[T], i int) (*render.JSONSite, Verdict) {
	return correct(b.Model, true, b.Host, b.Pages[i])
}

// correct corrects page p of host with the host's model m (see
// site.Model.Apply for member), as SiteCorrect does.
func correct(m *site.Model, member bool, host string, p *page.Page) (*render.JSONSite, Verdict) {
	if !m.Judges(member) {
		return nil, Verdict{}
	}
	dropped, rescued := m.Apply(p, member)
	js := &render.JSONSite{Pages: m.Pages(), Dropped: dropped, Rescued: rescued}
	if !KeptText(p) {
		return js, skip(ReasonNoText, fmt.Sprintf("every kept block is template of %s (the site model of %d of its pages)", host, m.Pages()))
	}
	return js, Verdict{}
}

// pageBytes estimates the memory a cleaned page takes: its blocks and
// element summaries with the strings they hold, and a quarter more for the
// rounding of allocations (on the CleanEval and CleanPortalEval pages the
// heap grew by 1.1 to 1.25 times the sum of the sizes). A page takes 1.3
// (CleanPortalEval) to 2.3 (CleanEval) times the bytes of its HTML.
func pageBytes(p *page.Page) int64 {
	n := int64(unsafe.Sizeof(*p)) + int64(len(p.Meta.Title)+len(p.Meta.URL)+len(p.Meta.Description))
	n += int64(cap(p.Blocks)) * int64(unsafe.Sizeof(page.Block{}))
	for i := range p.Blocks {
		n += int64(len(p.Blocks[i].Text))
	}
	n += int64(cap(p.Nodes)) * int64(unsafe.Sizeof(page.Node{}))
	for i := range p.Nodes {
		n += int64(len(p.Nodes[i].ID) + len(p.Nodes[i].Class))
	}
	return n + n/4
}
