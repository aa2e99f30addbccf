package features

import "github.com/sluice-project/sluice/crf"

// Density: boilerpipe's shallow text features: "link=0.5", the block's
// link density (link characters over characters), and "tdens=9", its text
// density (words per 80-character line).
const Density Group = "density"

var densityGroup = groupSpec{
	group: Density,
	keys:  []string{"link", "tdens"},
	buckets: []bucketDef{
		{"link", []float64{0, .01, .1, .2, .33, .5, .67, .8, .9, 1}},
		{"tdens", []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16, 20}},
	},
	size:   [2]int{2, 2},
	window: 1,
	emit: func(_ *Extractor, s *scratch, i int, bk []*Bucket, dst []crf.Attr) []crf.Attr {
		link, tdens := densities(s, i)
		return append(dst, crf.Attr{Name: bk[0].Name(link)}, crf.Attr{Name: bk[1].Name(tdens)})
	},
}

// densities returns block i's link density and text density.
func densities(s *scratch, i int) (link, tdens float64) {
	b := &s.p.Blocks[i]
	return safeDiv(float64(b.LinkChars), float64(b.Chars)), textDensity(b.Words, s.stats[i].runes)
}

// textDensity is boilerpipe's text density: the words per line of the text
// wrapped at 80 characters, the last, partial line left out unless it is the
// only one (approximated from the word and character counts).
func textDensity(words, runes int32) float64 {
	const width = 80
	if runes <= width {
		return float64(words)
	}
	return float64(words) * width / float64(runes)
}
