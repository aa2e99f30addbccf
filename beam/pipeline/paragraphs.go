package pipeline

import (
	"bytes"
	"context"
	"encoding/gob"
	"fmt"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/sluice-project/sluice/corpus"
	"github.com/sluice-project/sluice/fingerprint"
	"github.com/sluice-project/sluice/page"
)

func init() {
	register.Function2x0[Cleaned, func(uint64, order)](paragraphHolders)
	register.Emitter2[uint64, order]()
	register.DoFn3x0[uint64, func(*order) bool, func(string, uint64)](&lateHoldersFn{})
	register.Iter1[order]()
	register.Emitter2[string, uint64]()
	register.Function1x2[Cleaned, string, Cleaned](byOrder)
	register.DoFn5x1[context.Context, string, func(*Cleaned) bool, func(*uint64) bool, func(Cleaned), error](&dropParagraphsFn{})
	register.Iter1[Cleaned]()
	register.Iter1[uint64]()
}

// dedupParagraphs drops from each page the paragraphs that after earlier
// pages held, as sluice corpus --dedup-paragraphs does: the pages holding
// a paragraph are grouped by its key (a shuffle of the keys), the pages
// past the first after, in output order, are told to drop it (a join on
// the pages), and the pages are then rendered. A page left without text is
// skipped as "no text".
func dedupParagraphs(s beam.Scope, after int, f finishing, docs beam.PCollection) beam.PCollection {
	s = s.Scope("DedupParagraphs")
	holders := beam.GroupByKey(s, beam.ParDo(s, paragraphHolders, docs))
	drops := beam.ParDo(s, &lateHoldersFn{After: after}, holders)
	joined := beam.CoGroupByKey(s, beam.ParDo(s, byOrder, docs), drops)
	return beam.ParDo(s, &dropParagraphsFn{Finishing: f}, joined)
}

// paragraphHolders emits the keys of a page's paragraphs, each with the
// page.
func paragraphHolders(c Cleaned, emit func(uint64, order)) {
	for _, h := range c.Paragraphs {
		emit(h, c.Order)
	}
}

// lateHoldersFn tells the pages that hold a paragraph after the first
// After of them to drop it.
type lateHoldersFn struct {
	After int
}

func (fn *lateHoldersFn) ProcessElement(h uint64, holders func(*order) bool, emit func(string, uint64)) {
	var all []order
	var o order
	for holders(&o) {
		all = append(all, o)
	}
	if len(all) <= fn.After {
		return
	}
	slices.SortFunc(all, order.compare)
	for _, o := range all[fn.After:] {
		emit(o.key(), h)
	}
}

func byOrder(c Cleaned) (string, Cleaned) { return c.Order.key(), c }

// dropParagraphsFn drops from a page the paragraphs it was told to and
// renders it.
type dropParagraphsFn struct {
	Finishing finishing
}

func (fn *dropParagraphsFn) ProcessElement(ctx context.Context, _ string, docs func(*Cleaned) bool, drops func(*uint64) bool, emit func(Cleaned)) error {
	drop := map[uint64]bool{}
	var h uint64
	for drops(&h) {
		drop[h] = true
	}
	for c := (Cleaned{}); docs(&c); c = (Cleaned{}) {
		var p page.Page
		if err := gob.NewDecoder(bytes.NewReader(c.Page)).Decode(&p); err != nil {
			return fmt.Errorf("%s: decoding the cleaned page: %w", c.Rec.URL, err)
		}
		count(ctx, CounterParagraphsDropped, int64(fingerprint.DropParagraphs(&p, drop)))
		if !corpus.KeptText(&p) {
			countVerdict(ctx, corpus.Verdict{Skipped: true, Reason: corpus.ReasonNoText})
			continue
		}
		f := fn.Finishing
		f.Keep = false
		if err := f.finish(&c, &p, c.Site); err != nil {
			return err
		}
		emit(c)
	}
	return nil
}
