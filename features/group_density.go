package features

import (
	"github.com/sluice-project/sluice/crf"
	"github.com/sluice-project/sluice/filter"
)

// Density: boilerpipe's shallow text features: "link=0.5", the block's
// link density (link characters over characters), and "tdens=9", its text
// density (words per 80-column line; words and columns as in
// textDensity).
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
	cols := float64(s.stats[i].runes)
	if s.stats[i].seen&tNonASCII != 0 {
		cols += filter.LatinChars(b) - float64(b.Chars)
	}
	return safeDiv(float64(b.LinkChars), float64(b.Chars)), textDensity(b.Words, cols)
}

// textDensity is boilerpipe's text density: the words per line of the text
// wrapped at 80 columns, the last, partial line left out unless it is the
// only one (approximated from the word and column counts). Words are
// word-equivalents (page.Block.Words) and cols the text's characters with
// each Han, kana or Thai character counted as the Latin letters of its
// share of a word (filter.LatinChars: 3.06 for a Chinese character), so
// that a line of Chinese holds about as many words as one of English.
func textDensity(words int32, cols float64) float64 {
	const width = 80
	if cols <= width {
		return float64(words)
	}
	return float64(words) * width / cols
}
