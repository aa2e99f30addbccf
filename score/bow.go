package score

// BagOfWords scores output against gold with the bag-of-words F1 of the WCXB
// benchmark (Web Content eXtraction Benchmark, 2026; evaluate.py, word_f1):
// both texts are lowercased and split into \w+ tokens (WordsLower), and the
// overlap is the size of the multiset intersection, the sum over tokens of
// the smaller of its two counts:
//
//	TP = Σ_t min(count_out(t), count_gold(t)),  FP = |out| - TP,  FN = |gold| - TP
//
// Word order is ignored, repeated words count as often as they occur in both.
// The zero-denominator conventions of Counts are those of word_f1: both
// empty scores 1, exactly one empty scores 0.
//
// Every Han, kana, Thai... character is a token of its own
// (WordsLowerCJK); BagOfWordsAs with CJKRuns is word_f1 exactly.
func BagOfWords(output, gold string) Counts { return BagOfWordsAs(output, gold, CJKChars) }

// BagOfWordsAs is BagOfWords with the given tokenisation of the scripts
// written without spaces.
func BagOfWordsAs(output, gold string, cjk CJK) Counts {
	return BagOfWordsTokens(cjk.cut(WordsLower(output)), cjk.cut(WordsLower(gold)))
}

// BagOfWordsTokens is BagOfWords over tokens the caller has already split
// and normalised: the multiset intersection of output and gold.
func BagOfWordsTokens(output, gold []string) Counts {
	left := make(map[string]int32, len(gold)/2+1)
	for _, t := range gold {
		left[t]++
	}
	tp := 0
	for _, t := range output {
		if n := left[t]; n > 0 {
			left[t] = n - 1
			tp++
		}
	}
	return Counts{TP: tp, FP: len(output) - tp, FN: len(gold) - tp}
}

// BagOfWordsCJK is BagOfWords, which now takes every Han, kana or Thai
// character as a word of its own.
//
// Deprecated: use BagOfWords.
func BagOfWordsCJK(output, gold string) Counts { return BagOfWords(output, gold) }
