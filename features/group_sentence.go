package features

import "github.com/sluice-project/sluice/crf"

// Sentence: "sent.count=N" sentences, "sent.len=N" words per sentence,
// "sent.begin=upper|lower|letter|digit|other" (first letter, opening quotes
// and brackets skipped; letter is a letter of a caseless script) and
// "sent.end=stop|ellipsis|colon|comma|alnum|other" (last character, closing
// quotes and brackets skipped; stop is . ! ? 。！？ and the like).
const Sentence Group = "sentence"

var sentenceGroup = groupSpec{
	group: Sentence,
	keys:  []string{"sent.count", "sent.len", "sent.begin", "sent.end"},
	buckets: []bucketDef{
		{"sent.count", []float64{0, 1, 2, 3, 4, 5, 7, 10, 15}},
		{"sent.len", []float64{0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40}},
	},
	size:   [2]int{4, 4},
	window: 1,
	emit: func(_ *Extractor, s *scratch, i int, bk []*Bucket, dst []crf.Attr) []crf.Attr {
		st := &s.stats[i]
		return append(dst,
			crf.Attr{Name: bk[0].Int(st.sents)},
			crf.Attr{Name: bk[1].Name(float64(s.p.Blocks[i].Words) / float64(max(st.sents, 1)))},
			crf.Attr{Name: beginNames[st.begin]},
			crf.Attr{Name: endNames[st.end]})
	},
}
