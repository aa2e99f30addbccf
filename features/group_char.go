package features

import "github.com/sluice-project/sluice/crf"

// Char: shares of letters, digits, punctuation, white space and other
// characters (symbols) in the text, "char.alpha=0.8", "char.num=0",
// "char.punct=0.02", "char.white=0.16", "char.other=0", and the character
// count "chars=64" (runes, spaces included).
const Char Group = "char"

var charGroup = groupSpec{
	group: Char,
	keys:  []string{"char.alpha", "char.num", "char.punct", "char.white", "char.other", "chars"},
	buckets: []bucketDef{
		{"char.alpha", []float64{0, .1, .2, .3, .4, .5, .6, .7, .75, .8, .85, .9, 1}},
		{"char.num", []float64{0, .01, .05, .1, .2, .3, .5, .7, 1}},
		{"char.punct", []float64{0, .01, .02, .04, .06, .1, .15, .2, .3, .5, 1}},
		{"char.white", []float64{0, .05, .1, .13, .16, .2, .25, .3, .5}},
		{"char.other", []float64{0, .01, .05, .1, .2, .5, 1}},
		{"chars", []float64{0, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}},
	},
	size: [2]int{6, 6},
	emit: func(_ *Extractor, s *scratch, i int, bk []*Bucket, dst []crf.Attr) []crf.Attr {
		st := &s.stats[i]
		r := float64(max(st.runes, 1))
		for k, v := range [...]int32{st.alpha, st.num, st.punct, st.white, st.other} {
			dst = append(dst, crf.Attr{Name: bk[k].Name(float64(v) / r)})
		}
		return append(dst, crf.Attr{Name: bk[5].Int(st.runes)})
	},
}
