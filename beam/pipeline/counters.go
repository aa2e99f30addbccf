package pipeline

import (
	"context"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/sluice-project/sluice/corpus"
)

// Names of the counters, in namespace Namespace. They count what
// summary.json of sluice corpus counts (corpus.Summary), under the names
// CountersOf gives.
const (
	Namespace = "sluice"

	CounterFiles   = "files"   // archives read
	CounterRecords = "records" // records read, damaged stretches of an archive included (Summary.Records)
	CounterCleaned = "cleaned" // pages written (Summary.Cleaned)
	// SkippedPrefix and FailedPrefix, followed by a reason of
	// corpus.Counts ("not HTML", "status 404", "duplicate", "near
	// duplicate", "archive: garbage between records", ...), name the
	// counters of the records skipped and failed for that reason.
	SkippedPrefix = "skipped: "
	FailedPrefix  = "failed: "
	// With Options.Site, what the site models did (Summary.Site).
	CounterSitePages   = "site.pages"
	CounterSiteDropped = "site.dropped"
	CounterSiteRescued = "site.rescued"
	// CounterParagraphsDropped counts the paragraphs Options.ParagraphDedup
	// dropped (Summary.ParagraphsDropped).
	CounterParagraphsDropped = "paragraphs_dropped"
)

// count adds n to the counter name of namespace Namespace.
func count(ctx context.Context, name string, n int64) {
	if n != 0 {
		beam.NewCounter(Namespace, name).Inc(ctx, n)
	}
}

// countVerdict counts a record skipped or failed in the counter of its
// reason.
func countVerdict(ctx context.Context, v corpus.Verdict) {
	switch {
	case v.Skipped:
		count(ctx, SkippedPrefix+v.Reason, 1)
	case v.Failed:
		count(ctx, FailedPrefix+v.Reason, 1)
	}
}

// CountersOf returns the counters a run of the pipeline gives for what a
// run of sluice corpus on the same archives summed up in sum (its counts
// of this run), by counter name: the counters that are not zero, "files"
// left out.
func CountersOf(sum *corpus.Summary) map[string]int64 {
	m := map[string]int64{}
	add := func(name string, n int64) {
		if n != 0 {
			m[name] += n
		}
	}
	add(CounterRecords, sum.Records)
	add(CounterCleaned, sum.Cleaned)
	for r, n := range sum.Skipped {
		add(SkippedPrefix+r, n)
	}
	for r, n := range sum.Failed {
		add(FailedPrefix+r, n)
	}
	if sum.Site != nil {
		add(CounterSitePages, sum.Site.Pages)
		add(CounterSiteDropped, sum.Site.Dropped)
		add(CounterSiteRescued, sum.Site.Rescued)
	}
	add(CounterParagraphsDropped, sum.ParagraphsDropped)
	return m
}
