// Package score measures how close a cleaner's output is to a gold standard.
// Its scorers work on strings and depend on nothing else in sluice but
// textunit, which says which characters belong to the scripts written
// without spaces between words.
//
// Those characters (Han, kana, Thai...) are tokens of their own in every
// word-based scorer (bag of words, LCS, shingles, CleanEval), as the
// multilingual benchmarks score Chinese; the rest of the text is cut as each
// published scorer cuts it, so that on text without those scripts the
// figures are the published ones. The ...As variants with CJKRuns cut
// exactly as the published scorers do, for comparisons with published
// figures on Chinese or Japanese text (see CJK). ROUGE-LSum and the edit
// distance keep their white-space words.
//
// CleanEval scorers:
//
//   - CleanEval, CleanEvalTags and CleanEvalDetail reproduce Stefan Evert's
//     cleaneval.py (2008), the de-facto CleanEval scorer: whitespace words,
//     aligned with a port of Python's difflib.SequenceMatcher (MatchingBlocks),
//     give word and segment-marker precision, recall and F1, in labelled,
//     unlabelled and text-only modes. ReadGold decodes the gold files.
//   - CleanEvalEdit is the CleanEval paper's measure: token edit distance with
//     insertions and deletions only, "text only" and "text and markup", and
//     their average.
//
// Every scorer returns Counts (true positives, false positives, false
// negatives) or a score built from them; Counts.Add sums them over files for
// micro-averages, and averaging Counts.F1 over files gives macro-averages.
package score
