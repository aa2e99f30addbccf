package score

import (
	"strings"
)

// SnippetStyle selects how Snippets decides that a snippet occurs in an
// output. The benchmarks that score with/without snippets differ here, and a
// figure is only comparable with one computed the same way.
type SnippetStyle int

const (
	// SnippetsWCXB is the WCXB benchmark's test (evaluate.py,
	// snippet_check): s.lower() in text.lower(), Python's full lowercasing
	// of both sides, then a plain substring test; white space is not
	// normalised.
	SnippetsWCXB SnippetStyle = iota
	// SnippetsTrafilatura is trafilatura's current evaluation
	// (tests/eval_common.py, norm and count_item): both sides have every run
	// of white space (Python's \s) replaced by one space and are stripped,
	// re.sub(r"\s+", " ", text).strip(); case is kept.
	SnippetsTrafilatura
	// SnippetsExact is a plain, case-sensitive substring test, as in
	// trafilatura's older comparison scripts (tests/comparison.py:
	// "if to_include in result").
	SnippetsExact
)

// SnippetResult counts the snippets of one page (or, added up, of a corpus).
// In trafilatura's terms, WithFound is a true positive, WithMissing a false
// negative, WithoutFound a false positive and WithoutAbsent a true negative.
type SnippetResult struct {
	WithFound     int `json:"with_found"`
	WithMissing   int `json:"with_missing"`
	WithoutFound  int `json:"without_found"`
	WithoutAbsent int `json:"without_absent"`
}

// Snippets checks output against the snippets a correct extraction must
// contain (with) and must not contain (without), matched as style says.
// An empty snippet occurs in every output, as in Python.
func Snippets(output string, with, without []string, style SnippetStyle) SnippetResult {
	norm := snippetNorm(style)
	text := norm(output)
	var r SnippetResult
	for _, s := range with {
		if strings.Contains(text, norm(s)) {
			r.WithFound++
		} else {
			r.WithMissing++
		}
	}
	for _, s := range without {
		if strings.Contains(text, norm(s)) {
			r.WithoutFound++
		} else {
			r.WithoutAbsent++
		}
	}
	return r
}

func snippetNorm(style SnippetStyle) func(string) string {
	switch style {
	case SnippetsWCXB:
		return pyLower
	case SnippetsTrafilatura:
		return collapseSpace
	}
	return func(s string) string { return s }
}

// collapseSpace is Python's re.sub(r"\s+", " ", s).strip().
func collapseSpace(s string) string {
	return strings.Join(Words(s), " ")
}

// Add returns the sum of r and o (corpus totals, as trafilatura keeps them).
func (r SnippetResult) Add(o SnippetResult) SnippetResult {
	return SnippetResult{
		WithFound:     r.WithFound + o.WithFound,
		WithMissing:   r.WithMissing + o.WithMissing,
		WithoutFound:  r.WithoutFound + o.WithoutFound,
		WithoutAbsent: r.WithoutAbsent + o.WithoutAbsent,
	}
}

// Counts returns the result as Counts: TP = WithFound, FP = WithoutFound,
// FN = WithMissing, from which trafilatura's precision, recall and F1 follow
// (summed over a corpus first: its figures are micro averages). Note that
// Counts scores an all-zero result 1 where trafilatura reports 0.
func (r SnippetResult) Counts() Counts {
	return Counts{TP: r.WithFound, FP: r.WithoutFound, FN: r.WithMissing}
}

// Accuracy is trafilatura's accuracy: correct decisions (with snippets found,
// without snippets absent) over all snippets; 1 when there are none.
func (r SnippetResult) Accuracy() float64 {
	total := r.WithFound + r.WithMissing + r.WithoutFound + r.WithoutAbsent
	if total == 0 {
		return 1
	}
	return float64(r.WithFound+r.WithoutAbsent) / float64(total)
}

// WithRate is WCXB's with_rate: the share of with snippets found (higher is
// better); 1 when the page has none.
func (r SnippetResult) WithRate() float64 {
	return rate(r.WithFound, r.WithFound+r.WithMissing)
}

// WithoutRate is WCXB's without_rate: the share of without snippets found
// (lower is better). Like WCXB's snippet_check it is 1 when the page has no
// without snippet, which a corpus mean then counts against every extractor
// alike (15 of the 1,497 WCXB dev pages have none).
func (r SnippetResult) WithoutRate() float64 {
	return rate(r.WithoutFound, r.WithoutFound+r.WithoutAbsent)
}

func rate(found, n int) float64 {
	if n == 0 {
		return 1
	}
	return float64(found) / float64(n)
}
