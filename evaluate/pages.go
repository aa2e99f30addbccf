package evaluate

import (
	"context"
	"slices"

	"github.com/sluice-project/sluice/dataset"
	"github.com/sluice-project/sluice/parallel"
)

// ReadPages reads the pages of a set, at most limit of them (0: all),
// passing those that cannot be read to bad.
func ReadPages(set *dataset.Set, limit int, bad func(error)) []*dataset.Page {
	var pages []*dataset.Page
	for p, err := range set.Pages() {
		if err != nil {
			bad(err)
			continue
		}
		pages = append(pages, p)
		if limit > 0 && len(pages) >= limit {
			break
		}
	}
	return pages
}

// MapPages runs work on every page on jobs goroutines (parallel.Map) and
// returns its results in page order. progress, if set, is called after
// each page with the pages done and the total, from the caller's
// goroutine. When ctx is done the pages not worked on get ctx.Err() as
// their error.
func MapPages[T any](ctx context.Context, pages []*dataset.Page, jobs int, progress func(done, total int),
	work func(context.Context, *dataset.Page) (T, error)) ([]T, []error) {
	res := make([]T, len(pages))
	errs := make([]error, len(pages))
	i := 0
	for r, err := range parallel.Map(ctx, slices.Values(pages), work, parallel.Options[*dataset.Page]{Jobs: jobs}) {
		res[i], errs[i] = r, err
		i++
		if progress != nil {
			progress(i, len(pages))
		}
	}
	for ; i < len(pages); i++ {
		errs[i] = ctx.Err()
	}
	return res, errs
}
