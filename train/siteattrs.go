package train

import (
	"cmp"
	"slices"

	"github.com/sluice-project/sluice/crf"
)

// dropSiteAttrs removes from seqs, in place, the attributes that the
// sequences of fewer than minSites distinct groups hold (groups[i] is
// sequence i's), and returns how many distinct attributes it removed.
// The attribute lists are copied before they are changed: the examples'
// extractor may share them.
func dropSiteAttrs(seqs []crf.Sequence, groups []string, minSites int) int {
	order := make([]int, len(seqs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(groups[a], groups[b]) })
	type seen struct {
		last  int // the last group counted, as an index in order's run of groups
		sites int
	}
	count := map[string]*seen{}
	run := -1
	for k, i := range order {
		if k == 0 || groups[i] != groups[order[k-1]] {
			run++
		}
		for _, attrs := range seqs[i].Attrs {
			for _, a := range attrs {
				c := count[a.Name]
				switch {
				case c == nil:
					count[a.Name] = &seen{last: run, sites: 1}
				case c.last != run:
					c.last, c.sites = run, c.sites+1
				}
			}
		}
	}
	rare := 0
	for _, c := range count {
		if c.sites < minSites {
			rare++
		}
	}
	if rare == 0 {
		return 0
	}
	for i := range seqs {
		out := make([][]crf.Attr, len(seqs[i].Attrs))
		for t, attrs := range seqs[i].Attrs {
			out[t] = slices.DeleteFunc(slices.Clone(attrs), func(a crf.Attr) bool { return count[a.Name].sites < minSites })
		}
		seqs[i].Attrs = out
	}
	return rare
}
