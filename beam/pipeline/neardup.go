package pipeline

import (
	"context"
	"fmt"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/sluice-project/sluice/corpus"
	"github.com/sluice-project/sluice/fingerprint"
)

// A band entry: a page in one of its LSH buckets.
type bandEntry struct {
	Order order
	Sig   []byte
}

// An edge: Later resembles Earlier, which comes before it in output order.
type edge struct {
	Later, Earlier order
}

func init() {
	register.Function3x1[context.Context, Cleaned, func(string, bandEntry), error](bandsOf)
	register.Emitter2[string, bandEntry]()
	register.DoFn3x1[string, func(*bandEntry) bool, func(int, edge), error](&similarPairsFn{})
	register.Iter1[bandEntry]()
	register.Emitter2[int, edge]()
	register.Function3x0[int, func(*edge) bool, func(string, bool)](nearDuplicatesOf)
	register.Iter1[edge]()
	register.Emitter2[string, bool]()
	register.DoFn5x0[context.Context, string, func(*Cleaned) bool, func(*bool) bool, func(Cleaned)](&dropNearDuplicatesFn{})
	register.Iter1[bool]()
}

// dropNearDuplicates skips the pages whose text resembles that of a page
// before them in output order with which they share an LSH band, as
// sluice corpus --near-dup does, and counts them as "near duplicate":
//
//   - each page goes to the bucket of each of its bands (a shuffle of the
//     signatures), where the similar pairs are found (each pair once: in
//     the lowest band the two share);
//   - the pairs go to one worker, which decides in output order, as
//     corpus does: a page is a near duplicate when it resembles a page
//     that is not one;
//   - the decisions are joined to the pages.
//
// The deciding step holds every similar pair at once, on one worker.
func dropNearDuplicates(s beam.Scope, threshold float64, docs beam.PCollection) beam.PCollection {
	s = s.Scope("NearDuplicates")
	buckets := beam.GroupByKey(s, beam.ParDo(s, bandsOf, docs))
	pairs := beam.ParDo(s, &similarPairsFn{Threshold: threshold}, buckets)
	dups := beam.ParDo(s, nearDuplicatesOf, beam.GroupByKey(s, pairs))
	return beam.ParDo(s, &dropNearDuplicatesFn{}, beam.CoGroupByKey(s, beam.ParDo(s, byOrder, docs), dups))
}

// bandsOf emits a comparable page under the key of each of its bands.
func bandsOf(_ context.Context, c Cleaned, emit func(string, bandEntry)) error {
	var sig fingerprint.Signature
	if err := sig.UnmarshalBinary(c.Sig); err != nil {
		return fmt.Errorf("%s: %w", c.Rec.URL, err)
	}
	if !sig.Comparable() {
		return nil
	}
	for b, h := range sig.Bands() {
		emit(fmt.Sprintf("%d:%x", b, h), bandEntry{Order: c.Order, Sig: c.Sig})
	}
	return nil
}

// similarPairsFn emits the similar pairs of pages of one bucket.
type similarPairsFn struct {
	Threshold float64
}

func (fn *similarPairsFn) ProcessElement(bucket string, entries func(*bandEntry) bool, emit func(int, edge)) error {
	var band int
	if _, err := fmt.Sscanf(bucket, "%d:", &band); err != nil {
		return fmt.Errorf("bucket %q: %w", bucket, err)
	}
	type page struct {
		o     order
		sig   fingerprint.Signature
		bands [fingerprint.SignatureBands]uint64
	}
	var all []page
	for e := (bandEntry{}); entries(&e); e = (bandEntry{}) {
		p := page{o: e.Order}
		if err := p.sig.UnmarshalBinary(e.Sig); err != nil {
			return err
		}
		p.bands = p.sig.Bands()
		all = append(all, p)
	}
	slices.SortFunc(all, func(a, b page) int { return a.o.compare(b.o) })
	for j := range all {
		for i := range j {
			if lowerBand(&all[i].bands, &all[j].bands, band) || !all[j].sig.Similar(&all[i].sig, fn.Threshold) {
				continue
			}
			emit(0, edge{Later: all[j].o, Earlier: all[i].o})
		}
	}
	return nil
}

// lowerBand reports whether a and b share a band below band: their pair
// is then found in that band's bucket.
func lowerBand(a, b *[fingerprint.SignatureBands]uint64, band int) bool {
	for k := range band {
		if a[k] == b[k] {
			return true
		}
	}
	return false
}

// nearDuplicatesOf decides, from every similar pair, which pages are near
// duplicates: in output order, a page is one when it resembles a page
// before it that is not one.
func nearDuplicatesOf(_ int, edges func(*edge) bool, emit func(string, bool)) {
	var all []edge
	for e := (edge{}); edges(&e); e = (edge{}) {
		all = append(all, e)
	}
	slices.SortFunc(all, func(a, b edge) int {
		if c := a.Later.compare(b.Later); c != 0 {
			return c
		}
		return a.Earlier.compare(b.Earlier)
	})
	dup := map[string]bool{}
	for _, e := range all {
		later := e.Later.key()
		if !dup[later] && !dup[e.Earlier.key()] {
			dup[later] = true
			emit(later, true)
		}
	}
}

// dropNearDuplicatesFn passes the pages that are not near duplicates on.
type dropNearDuplicatesFn struct{}

func (fn *dropNearDuplicatesFn) ProcessElement(ctx context.Context, _ string, docs func(*Cleaned) bool, dups func(*bool) bool, emit func(Cleaned)) {
	dup := false
	var d bool
	for dups(&d) {
		dup = true
	}
	for c := (Cleaned{}); docs(&c); c = (Cleaned{}) {
		if dup {
			countVerdict(ctx, corpus.Verdict{Skipped: true, Reason: corpus.ReasonNearDuplicate})
			continue
		}
		emit(c)
	}
}
