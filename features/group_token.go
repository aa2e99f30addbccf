package features

import "github.com/sluice-project/sluice/crf"

// Token: shares of white-space separated tokens that are alphabetic,
// numeric, mixed letters and digits, or neither: "token.alpha=0.9",
// "token.num=0", "token.mix=0", "token.other=0"; and "words=8".
const Token Group = "token"

var tokenGroup = groupSpec{
	group: Token,
	keys:  []string{"token.alpha", "token.num", "token.mix", "token.other", "words"},
	buckets: []bucketDef{
		{"token.alpha", []float64{0, .2, .4, .5, .6, .7, .8, .9, .95, 1}},
		{"token.num", []float64{0, .05, .1, .2, .3, .5, .7, 1}},
		{"token.mix", []float64{0, .05, .1, .2, .5, 1}},
		{"token.other", []float64{0, .05, .1, .2, .3, .5, 1}},
		{"words", wordsB},
	},
	size: [2]int{5, 5},
	emit: func(_ *Extractor, s *scratch, i int, bk []*Bucket, dst []crf.Attr) []crf.Attr {
		st := &s.stats[i]
		t := float64(max(st.tokens, 1))
		for k, v := range [...]int32{st.tokAlpha, st.tokNum, st.tokMix, st.tokOther} {
			dst = append(dst, crf.Attr{Name: bk[k].Name(float64(v) / t)})
		}
		return append(dst, crf.Attr{Name: bk[4].Int(s.p.Blocks[i].Words)})
	},
}
