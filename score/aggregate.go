package score

import (
	"encoding/json"
	"slices"
)

// Scores is a precision, recall and F1 triple.
type Scores struct {
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
}

// ScoresOf returns the precision, recall and F1 of c, with the
// zero-denominator conventions of Counts.
func ScoresOf(c Counts) Scores {
	return Scores{Precision: c.Precision(), Recall: c.Recall(), F1: c.F1()}
}

// Summary accumulates the per-page Counts of one metric over a corpus and
// reports the usual averages. Each page's own scores follow the conventions
// of Counts (an empty output for an empty gold scores 1; an empty output or
// an empty gold alone scores 0). The zero value is an empty Summary, ready to
// use; a Summary is not safe for concurrent use.
type Summary struct {
	pages []Counts
	total Counts
}

// Add records the counts of one page.
func (s *Summary) Add(c Counts) {
	s.pages = append(s.pages, c)
	s.total = s.total.Add(c)
}

// Merge records every page of o in s (to pool folds or page types).
func (s *Summary) Merge(o *Summary) {
	for _, c := range o.pages {
		s.Add(c)
	}
}

// Pages is the number of pages recorded.
func (s Summary) Pages() int { return len(s.pages) }

// Total is the sum of the counts of all pages.
func (s Summary) Total() Counts { return s.total }

// Micro returns the scores of the summed counts (micro average), as
// cleaneval.py's totals and trafilatura's snippet scores are computed. All
// scores are 0 when no page was recorded.
func (s Summary) Micro() Scores {
	if len(s.pages) == 0 {
		return Scores{}
	}
	return ScoresOf(s.total)
}

// Macro returns the means over pages of each page's precision, recall and F1
// (macro average), as WCXB and Bevendorff et al. report them: the F1 is the
// mean of the per-page F1s, not the F1 of the mean precision and recall. All
// scores are 0 when no page was recorded.
func (s Summary) Macro() Scores {
	if len(s.pages) == 0 {
		return Scores{}
	}
	var sum Scores
	for _, c := range s.pages {
		sum.Precision += c.Precision()
		sum.Recall += c.Recall()
		sum.F1 += c.F1()
	}
	n := float64(len(s.pages))
	return Scores{Precision: sum.Precision / n, Recall: sum.Recall / n, F1: sum.F1 / n}
}

// Median returns the medians over pages of each page's precision, recall and
// F1 (the mean of the two middle values for an even number of pages), which
// Bevendorff et al. report beside the means. All scores are 0 when no page
// was recorded.
func (s Summary) Median() Scores {
	if len(s.pages) == 0 {
		return Scores{}
	}
	p := make([]float64, len(s.pages))
	r := make([]float64, len(s.pages))
	f := make([]float64, len(s.pages))
	for i, c := range s.pages {
		p[i], r[i], f[i] = c.Precision(), c.Recall(), c.F1()
	}
	return Scores{Precision: median(p), Recall: median(r), F1: median(f)}
}

func median(x []float64) float64 {
	slices.Sort(x)
	n := len(x)
	if n%2 == 1 {
		return x[n/2]
	}
	return (x[n/2-1] + x[n/2]) / 2
}

// MacroDefined is the aggregate of the Zyte (Scrapinghub) article extraction
// benchmark (evaluate.py, metrics_from_tp_fp_fns): precision is the mean of
// the per-page precisions over the pages where it is defined (TP+FP > 0: the
// output is not empty), recall the mean over the pages where recall is
// defined (TP+FN > 0: the gold is not empty), and F1 the harmonic mean of
// those two means. A mean over no page is 0, and so is F1 when both are.
func (s Summary) MacroDefined() Scores {
	var sp, sr float64
	var np, nr int
	for _, c := range s.pages {
		if c.TP+c.FP > 0 {
			sp += float64(c.TP) / float64(c.TP+c.FP)
			np++
		}
		if c.TP+c.FN > 0 {
			sr += float64(c.TP) / float64(c.TP+c.FN)
			nr++
		}
	}
	var out Scores
	if np > 0 {
		out.Precision = sp / float64(np)
	}
	if nr > 0 {
		out.Recall = sr / float64(nr)
	}
	if out.Precision+out.Recall > 0 {
		out.F1 = 2 * out.Precision * out.Recall / (out.Precision + out.Recall)
	}
	return out
}

// Report is the JSON-friendly form of a Summary.
type Report struct {
	Pages int `json:"pages"`
	// Summed counts over all pages.
	TP int `json:"tp"`
	FP int `json:"fp"`
	FN int `json:"fn"`
	// Micro: scores of the summed counts.
	Micro Scores `json:"micro"`
	// Macro: means of the per-page scores.
	Macro Scores `json:"macro"`
	// Median: medians of the per-page scores.
	Median Scores `json:"median"`
	// MacroDefined: the Zyte benchmark's aggregate (see Summary.MacroDefined).
	MacroDefined Scores `json:"macro_defined"`
}

// Report returns every aggregate of s in one value.
func (s Summary) Report() Report {
	return Report{
		Pages:        s.Pages(),
		TP:           s.total.TP,
		FP:           s.total.FP,
		FN:           s.total.FN,
		Micro:        s.Micro(),
		Macro:        s.Macro(),
		Median:       s.Median(),
		MacroDefined: s.MacroDefined(),
	}
}

// MarshalJSON encodes s as its Report (a value receiver, so that a Summary
// held by value encodes too).
func (s Summary) MarshalJSON() ([]byte, error) {
	return json.Marshal(s.Report())
}
