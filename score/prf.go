package score

// Counts is the outcome of comparing one output with its gold standard: true
// positives, false positives (output only), false negatives (gold only), in
// the unit of the metric (tokens, words, shingles...).
//
// Zero denominators: when output and gold are both empty (TP=FP=FN=0),
// precision, recall and F1 are all 1 (a perfect answer to an empty page).
// Otherwise a zero denominator gives 0: an empty output for a non-empty gold
// has P=0, R=0, F1=0, and a non-empty output for an empty gold has P=0, R=0.
// The CleanEval counts meet them only for an empty output against a gold
// with words: an empty gold gets the counts of Evert's cleaneval.py, where an
// empty text still has an empty word (see cleaneval.go).
type Counts struct{ TP, FP, FN int }

// Precision is TP/(TP+FP); see Counts for the zero-denominator convention.
func (c Counts) Precision() float64 { return share(c.TP, c.FP, c.FN) }

// Recall is TP/(TP+FN); see Counts for the zero-denominator convention.
func (c Counts) Recall() float64 { return share(c.TP, c.FN, c.FP) }

// share is tp/(tp+wrong), with the zero-denominator convention of Counts:
// 1 if the third count, other, is 0 too, else 0.
func share(tp, wrong, other int) float64 {
	if tp+wrong == 0 {
		if other == 0 {
			return 1
		}
		return 0
	}
	return float64(tp) / float64(tp+wrong)
}

// F1 is the harmonic mean of Precision and Recall, 2TP/(2TP+FP+FN); it is 1
// when both sequences are empty and 0 when TP is 0 otherwise.
func (c Counts) F1() float64 {
	if c.TP+c.FP+c.FN == 0 {
		return 1
	}
	return 2 * float64(c.TP) / float64(2*c.TP+c.FP+c.FN)
}

// Add returns the element-wise sum of c and d (micro-averaging).
func (c Counts) Add(d Counts) Counts {
	return Counts{TP: c.TP + d.TP, FP: c.FP + d.FP, FN: c.FN + d.FN}
}
