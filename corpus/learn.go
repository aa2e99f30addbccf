package corpus

import (
	"context"
	"fmt"
	"time"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/parallel"
	"github.com/sluice-project/sluice/site"
)

// siteWhole is the manifest's name of Options.SiteWhole.
const siteWhole = "whole"

// numbered passes the items on to yield, numbering the records of each
// input from 1 (item.seq: the input's ord in the high 32 bits). Both passes
// of Options.SiteWhole read an input alike, so a record has the same
// number in both.
func numbered(yield func(*item) bool) func(*item) bool {
	var n uint64
	return func(it *item) bool {
		switch it.kind {
		case kStart:
			n = 0
		case kRecord:
			n++
			it.seq = it.in.ord<<32 | n
		}
		return yield(it)
	}
}

// learn is the first pass of Options.SiteWhole: it reads the inputs of
// p.learnFrom as the second pass will, segments on Options.Jobs workers
// every page that pass would clean (and labels it, for the path prior of
// site.Options.Prior), and adds the pages to a site.Learner
// in input order, so that the models do not depend on Jobs. The pages of a
// host over the Learner's MaxPages are not parsed when their record names
// the host. It sets p.models and the site counts of the summary.
func (p *pipeline) learn(ctx context.Context, outAbs string) error {
	start := time.Now()
	l := site.NewLearner(p.opts.SiteLearn)
	maxPages := p.opts.SiteLearn.MaxPages
	if maxPages <= 0 {
		maxPages = site.DefaultLearnPages
	}
	var dd *dedup
	if p.opts.DedupWindow > 0 {
		dd = newDedup(p.opts.DedupWindow)
	}
	rd := &reader{maxRecord: p.opts.MaxRecordBytes, outAbs: outAbs, dd: dd}
	taken := map[string]int{} // pages of a host sent to be parsed
	items := func(yield func(*item) bool) {
		rd.send = numbered(func(it *item) bool {
			if it.kind != kRecord || it.body == nil {
				return true // nothing to learn from
			}
			if h := uriKey(it.uri); h != "" {
				if taken[h] >= maxPages {
					it.body = nil // over the cap: the learner counts it
				}
				taken[h]++
			}
			return yield(it)
		})
		rd.run(ctx, p.learnFrom)
	}
	budget := parallel.NewBudget(p.opts.InFlightBytes)
	for it := range parallel.Map(ctx, items, p.segmenter(), p.mapOptions(budget)) {
		switch {
		case it.page != nil:
			if h := SiteKey(it.page.Meta.Host()); h != "" {
				l.Add(h, it.seq, it.page)
			}
			it.page = nil
		case !it.failed:
			l.Skip(uriKey(it.uri))
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	p.models = l.Models()
	st := p.models.Stats()
	p.sum.Site.Learned = &st
	p.notice(fmt.Sprintf("--site=whole: learned the site models of %d hosts from %d pages in %.1fs (%d hosts over %d pages, %d dropped to stay within %d MiB)",
		st.Hosts, st.Pages, time.Since(start).Seconds(), st.HostsOverCap, maxPages, st.HostsDropped, p.opts.SiteLearn.MaxBytes>>20))
	return nil
}

// segmenter returns the work of the first pass: parse and segment the page
// of an item (a page that cannot be is failed: it is not learned from).
func (p *pipeline) segmenter() func(context.Context, *item) (*item, error) {
	mem := p.memoryBudget()
	return func(_ context.Context, it *item) (*item, error) {
		if it.body == nil {
			return it, nil
		}
		body := it.body
		it.body = nil
		cost := sluice.CleanCost(len(body))
		_ = mem.Acquire(context.Background(), cost)
		defer mem.Release(cost)
		defer func() {
			if r := recover(); r != nil {
				it.page, it.failed = nil, true
			}
		}()
		res, err := p.opts.Cleaner.Segment(context.Background(), sluice.Input{Data: body, ContentType: it.ctype, URL: it.uri})
		if err != nil {
			it.failed = true
			return it, nil
		}
		if p.opts.SiteLearn.Model.Prior > 0 {
			// The path prior learns what the labeller says at each path.
			p.opts.Cleaner.Score(res.Page)
		}
		it.page = res.Page
		return it, nil
	}
}

// uriKey is the host key (SiteKey) of a record's target URI, as the page
// cleaned from it will have it; "" without a URI.
func uriKey(uri string) string {
	if uri == "" {
		return ""
	}
	return SiteKey((&page.Meta{URL: uri}).Host())
}
