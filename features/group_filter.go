package features

import "github.com/sluice-project/sluice/crf"

// FilterScore: each configured filter's score, "f.lqf=0.5"
// (FeatureConfig.Filters); bucket key "f" gives the bounds of every filter
// without its own "f.NAME".
const FilterScore Group = "filter"

var filterScoreGroup = groupSpec{
	group:     FilterScore,
	filterKey: func(f *extFilter) string { return f.bucket.key },
	buckets:   []bucketDef{{"f", ratio10}},
	window:    2,
	needs:     passFilters,
	emit: func(e *Extractor, s *scratch, i int, _ []*Bucket, dst []crf.Attr) []crf.Attr {
		n := len(s.p.Blocks)
		for k, f := range e.filters {
			dst = append(dst, crf.Attr{Name: f.bucket.Name(s.scores[k*n+i])})
		}
		return dst
	},
}
