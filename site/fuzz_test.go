package site_test

import (
	"testing"

	"github.com/sluice-project/sluice/ingest"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/segment"
	"github.com/sluice-project/sluice/site"
)

// FuzzSite runs every method of the package on pairs of arbitrary pages:
// nothing may panic, and the outputs have one entry per block.
func FuzzSite(f *testing.F) {
	f.Add(`<body><ul><li>Home</li></ul><p>Text</p></body>`, `<body><ul><li>Home</li><li>News</li></ul><div><p>Other</p></div></body>`)
	f.Add(`<p>a<br>b<pre>x
y</pre>`, `<table><tr><td>a</td></tr></table>`)
	f.Add(``, `<html>`)
	f.Fuzz(func(t *testing.T, a, b string) {
		pa, pb := fuzzPage(a), fuzzPage(b)
		if pa == nil || pb == nil {
			return
		}
		if got := site.MultiFile(pa, pb); len(got) != len(pa.Blocks) {
			t.Fatalf("MultiFile: %d entries for %d blocks", len(got), len(pa.Blocks))
		}
		for mode := range 8 {
			opts := site.MultiFileOptions{Prune: mode&1 != 0, FromTarget: mode&2 != 0, Sparse: mode&4 != 0, PruneLevels: mode}
			out, err := site.CleanMultiFile([]*page.Page{pa, pb, pa}, nil, pb, opts)
			if err != nil || len(out) != 3 {
				t.Fatalf("CleanMultiFile %+v: %v, %d outcomes", opts, err, len(out))
			}
			site.SimilarByChildCount(pa, pb, mode)
		}
		for i := range pa.Blocks {
			pa.Blocks[i].Score = float64(i%7) / 6
		}
		for i := range pb.Blocks {
			pb.Blocks[i].Score = float64(i%3) / 2
		}
		for _, key := range []site.Key{site.TextKey, site.PathKey} {
			bl := site.NewBuilder(site.Options{Key: key, MinPages: 1, MaxEntries: 4, Prior: site.DefaultPrior, Rescue: key == site.PathKey})
			bl.Add(pa)
			bl.Add(pb)
			bl.Add(pb)
			m := bl.Build()
			if got := m.Template(pa, true); len(got) != len(pa.Blocks) {
				t.Fatalf("Template: %d entries for %d blocks", len(got), len(pa.Blocks))
			}
			for i := range pa.Blocks {
				pa.Blocks[i].Label = page.Label(i % 5)
			}
			m.Apply(pa, false)
			if d, k := m.Apply(pb, true); d < 0 || k < 0 || d+k > 2*len(pb.Blocks) {
				t.Fatalf("Apply: %d dropped, %d kept of %d blocks", d, k, len(pb.Blocks))
			}
		}
	})
}

func fuzzPage(src string) *page.Page {
	doc, err := ingest.Parse([]byte(src), ingest.DefaultOptions())
	if err != nil {
		return nil
	}
	return segment.Segment(doc, segment.DefaultOptions())
}
