package sluice

import (
	"context"
	"fmt"

	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/site"
)

// SiteOptions configure Cleaner.CleanSite, WC Cleaner's multiple-file
// cleaning. The zero value compares every page with the page of median
// size, in the plain mode.
type SiteOptions struct {
	// Reference is the reference page (WC Cleaner's -e/--reference); nil
	// means the input of median size.
	Reference *Input
	// MultiFileOptions are the modes: Prune (-p), FromTarget (-f) and
	// Sparse (-r).
	site.MultiFileOptions
}

// SiteResult is what CleanSite made of one input.
type SiteResult struct {
	// Result is the cleaned page, nil when Err is set. Its Warnings say
	// when the page was cleaned in single-file mode or omitted, and why.
	*Result
	// Err says why the input could not be cleaned (empty, binary); such
	// an input takes no part in the comparison.
	Err error
	// Outcome says how the page was cleaned: diffed against its reference
	// (Outcome.Reference, an index into the inputs, or -1 for
	// SiteOptions.Reference), in single-file mode, or omitted.
	Outcome site.Outcome
}

// CleanSite cleans pages of one site together, as WC Cleaner's
// multiple-file mode does (Baisa's thesis, section 2.4; site.CleanMultiFile):
// each page is compared with a reference page of the same site, level by
// level from <body>, and what the two have in common (menus, headers,
// footers) is dropped; the rest is kept. The cleaner's ingest and
// segmentation options apply; its model or filter pipeline does not: the
// reference page decides. A sparse page omitted (opts.Sparse) is returned
// with every block dropped and a warning, never left out of the results.
//
// The results are in the order of ins. CleanSite fails when the reference
// cannot be read, when no input can be, or when one page alone is left
// with nothing else to compare it with; an input that cannot be read
// fails alone (SiteResult.Err). All the pages are held in memory at once.
func (c *Cleaner) CleanSite(ctx context.Context, ins []Input, opts SiteOptions) ([]SiteResult, error) {
	var ref *page.Page
	if opts.Reference != nil {
		res, err := c.Segment(ctx, *opts.Reference)
		if err != nil {
			return nil, fmt.Errorf("reference: %w", err)
		}
		ref = res.Page
	}
	out := make([]SiteResult, len(ins))
	var pages []*page.Page
	var sizes, idx []int
	for i, in := range ins {
		res, err := c.Segment(ctx, in)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			out[i].Err = err
			continue
		}
		out[i].Result = res
		pages = append(pages, res.Page)
		sizes = append(sizes, len(in.Data))
		idx = append(idx, i)
	}
	outcomes, err := site.CleanMultiFile(pages, sizes, ref, opts.MultiFileOptions)
	if err != nil {
		if len(pages) == 0 && len(ins) > 0 {
			err = fmt.Errorf("no input could be read: %w", err)
		}
		return out, err
	}
	for k, o := range outcomes {
		if o.Reference >= 0 {
			o.Reference = idx[o.Reference]
		}
		r := &out[idx[k]]
		r.Outcome = o
		if w := siteWarning(o); w != "" {
			r.Warnings = append(r.Warnings, w)
		}
	}
	return out, nil
}

// siteWarning is the warning CleanSite gives of a page's outcome, or "".
func siteWarning(o site.Outcome) string {
	switch {
	case o.Mode == site.Single:
		return "cleaned in single-file mode (the density target node): " + o.Reason
	case o.Mode == site.Omitted:
		return "omitted: " + o.Reason + " (sparse mode); nothing kept"
	case o.Kept == 0:
		return "nothing kept: the page has no text that its reference lacks"
	}
	return ""
}
