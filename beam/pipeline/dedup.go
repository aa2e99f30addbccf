package pipeline

import (
	"context"
	"crypto/sha256"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/sluice-project/sluice/corpus"
)

func init() {
	register.Function1x2[Page, string, Page](byPayload)
	register.DoFn4x0[context.Context, string, func(*Page) bool, func(Page)](&firstCopyFn{})
	register.Iter1[Page]()
}

// dedupExact keeps one page of those with the same payload (the HTTP body
// as decoded), the first in input order (order: the lowest file, then
// offset), and counts the others skipped as "duplicate", as sluice corpus
// does before cleaning. The pages are grouped by a SHA-256 of their
// payload: a shuffle of every payload.
func dedupExact(s beam.Scope, pages beam.PCollection) beam.PCollection {
	s = s.Scope("Dedup")
	return beam.ParDo(s, &firstCopyFn{}, beam.GroupByKey(s, beam.ParDo(s, byPayload, pages)))
}

// byPayload keys a page by the hash of its payload.
func byPayload(p Page) (string, Page) {
	h := sha256.Sum256(p.Body)
	return string(h[:]), p
}

// firstCopyFn emits the first of the pages with one payload.
type firstCopyFn struct{}

func (fn *firstCopyFn) ProcessElement(ctx context.Context, _ string, copies func(*Page) bool, emit func(Page)) {
	var first, p Page
	n := 0
	for copies(&p) {
		if n == 0 || p.order().compare(first.order()) < 0 {
			first = p
		}
		p = Page{}
		n++
	}
	count(ctx, SkippedPrefix+corpus.ReasonDuplicate, int64(n-1))
	emit(first)
}
