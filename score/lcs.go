package score

// LCS scores output against gold with the word-sequence measure of Gottron
// ("Evaluating content extraction on HTML documents", ITA 2007), which the
// CombinE experiments use (Weissig and Gottron, "Combinations of Content
// Extraction Algorithms", section 5): both texts are split into words at
// white space (Words), and the overlap of extract e and gold standard g is
// the length of their longest common, not necessarily contiguous,
// subsequence of words:
//
//	r = |lcs(e, g)| / |g|,  p = |lcs(e, g)| / |e|,  f1 = 2pr / (p + r)
//
// The result is Counts{TP: |lcs|, FP: |e| - |lcs|, FN: |g| - |lcs|}, so
// Precision, Recall and F1 are p, r and f1, with the zero-denominator
// conventions of Counts. Words are compared exactly (case and punctuation
// kept), as in the paper. Every Han, kana, Thai... character is a word of
// its own (WordsCJK); LCSAs with CJKRuns is the paper's measure exactly.
func LCS(output, gold string) Counts { return LCSAs(output, gold, CJKChars) }

// LCSAs is LCS with the given tokenisation of the scripts written without
// spaces.
func LCSAs(output, gold string, cjk CJK) Counts {
	return LCSTokens(cjk.cut(Words(output)), cjk.cut(Words(gold)))
}

// LCSTokens is LCS over tokens the caller has already split (and
// normalised, if wanted). It runs in memory linear in the input (Myers'
// O(ND) algorithm for similar texts, bit-parallel LCS otherwise): tens of
// milliseconds for a 50,000-word page, under one for usual page sizes.
func LCSTokens(output, gold []string) Counts {
	in := newInterner()
	a := in.intern(make([]int32, 0, len(output)), output)
	b := in.intern(make([]int32, 0, len(gold)), gold)
	n := lcsLength(a, b)
	return Counts{TP: n, FP: len(output) - n, FN: len(gold) - n}
}
