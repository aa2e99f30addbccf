package pipeline

import (
	"context"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/sluice-project/sluice/corpus"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/site"
)

func init() {
	register.Function1x2[Page, string, Page](bySite)
	register.DoFn4x1[context.Context, string, func(*Page) bool, func(Cleaned), error](&siteFn{})
}

// cleanBySite cleans the pages of one host against each other, as sluice
// corpus --site does: the pages are grouped by archive and host (a
// shuffle of every payload), and each group is cleaned in input order and
// corrected in batches with the site model of the host (siteFn).
func cleanBySite(s beam.Scope, fn *siteFn, pages beam.PCollection) beam.PCollection {
	s = s.Scope("Site")
	return beam.ParDo(s, fn, beam.GroupByKey(s, beam.ParDo(s, bySite, pages)))
}

// bySite keys a page by its archive and the site corpus groups it under
// (corpus.SiteKey of the host of its address): corpus holds pages by host
// within one input at a time.
func bySite(p Page) (string, Page) {
	return p.File + "\x00" + corpus.SiteKey(hostOf(p.URL)), p
}

// hostOf is the host of a page's address as page.Meta.Host gives it.
func hostOf(url string) string {
	m := page.Meta{URL: url}
	return m.Host()
}

// siteFn cleans the pages of one host of one archive in input order and
// corrects them with the host's site model as corpus does: a site.Grouper
// makes batches of Group.BatchSize pages (the host's earlier batches
// counting towards the model of a later one), corpus.SiteCorrect corrects
// each page with its batch's model. A page is placed in the output order
// (order) where corpus writes it: on the record that completes its batch,
// or at the end of the archive. Pages with no host are not grouped.
type siteFn struct {
	Cleaner   cleaner
	Finishing finishing
	Group     site.GroupOptions
}

// Setup makes the cleaner and settles the site model's options as corpus
// does with it (corpus.SiteModelOptions: the path prior for the model).
func (fn *siteFn) Setup() error {
	if err := fn.Cleaner.setup(); err != nil {
		return err
	}
	var err error
	fn.Group.Model, err = corpus.SiteModelOptions(fn.Cleaner.c, fn.Group.Model)
	return err
}

func (fn *siteFn) ProcessElement(ctx context.Context, key string, pages func(*Page) bool, emit func(Cleaned)) error {
	var all []Page
	var p Page
	for pages(&p) {
		all = append(all, p)
		p = Page{}
	}
	slices.SortFunc(all, func(a, b Page) int { return a.order().compare(b.order()) })
	g := site.NewGrouper[Page](fn.Group)
	for i := range all {
		p := &all[i]
		pg := fn.Cleaner.clean(ctx, p)
		if pg == nil {
			continue
		}
		host := corpus.SiteKey(pg.Meta.Host())
		if host == "" {
			// Written as cleaned, at its own place.
			c := Cleaned{Order: p.order(), Rec: *p}
			if err := fn.Finishing.finish(&c, pg, nil); err != nil {
				return err
			}
			emit(c)
			continue
		}
		at := p.order()
		for _, b := range g.Add(host, *p, pg) {
			if err := fn.batch(ctx, &b, order{File: p.File, At: at.At, AtSub: at.AtSub}, emit); err != nil {
				return err
			}
		}
	}
	for _, b := range g.Flush() {
		first := b.Items[0].order()
		if err := fn.batch(ctx, &b, order{File: first.File, At: atEnd, AtSub: atEnd, From: first.At, FromSub: first.AtSub}, emit); err != nil {
			return err
		}
	}
	return nil
}

// batch corrects the pages of a batch with its model and emits them,
// placed at o.
func (fn *siteFn) batch(ctx context.Context, b *site.Batch[Page], o order, emit func(Cleaned)) error {
	for i, p := range b.Items {
		js, v := corpus.SiteCorrect(b, i)
		if js != nil {
			count(ctx, CounterSitePages, 1)
			count(ctx, CounterSiteDropped, int64(js.Dropped))
			count(ctx, CounterSiteRescued, int64(js.Rescued))
		}
		if !v.Written() {
			countVerdict(ctx, v)
			continue
		}
		o.Index = i
		c := Cleaned{Order: o, Rec: p}
		if err := fn.Finishing.finish(&c, b.Pages[i], js); err != nil {
			return err
		}
		b.Pages[i] = nil
		emit(c)
	}
	return nil
}
