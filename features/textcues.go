package features

import (
	"github.com/sluice-project/sluice/crf"
	"github.com/sluice-project/sluice/cuetable"
	"github.com/sluice-project/sluice/page"
)

// TextCues: evidence learned from the words of a block's own text (issue
// 22), as LearnedCues learns it from class/id tokens. Config.TextCues maps
// a text token (a lower-cased word of two letters or more, or in Chinese,
// Japanese and Thai text a pair of neighbouring characters: textunit's
// Bigrams) to the log-odds that a block holding it is content, learned by
// site votes (LearnTextCues), so that "add to cart", "reply", "cookies" or
// "相关" carry what they carried on the training sites, in any language the
// training pages have, and a word of one site's template carries nothing.
// Of a block's first textCueTokens tokens, the known ones give "lt.max",
// "lt.min" and "lt.mean" (their largest, smallest and mean value). Without
// a table, or without a known token, the group gives nothing.
const TextCues Group = "textcues"

// textCueTokens is how many of a block's first tokens the text cues read:
// boilerplate says what it is at once ("Add to cart", "Posted by",
// "Related articles", "We use cookies"), and prose is read by the other
// groups.
const textCueTokens = 12

var textCuesGroup = groupSpec{
	group: TextCues,
	keys:  []string{"lt.max", "lt.min", "lt.mean"},
	buckets: []bucketDef{
		{"lt.max", lcB}, {"lt.min", lcB}, {"lt.mean", lcB},
	},
	size:   [2]int{3, 3},
	window: 1,
	emit: func(e *Extractor, s *scratch, i int, bk []*Bucket, dst []crf.Attr) []crf.Attr {
		if e.textCueH == nil {
			return dst
		}
		v := s.textCueValues(i)
		if v.n == 0 {
			return dst
		}
		mean := float64(v.sum) / float64(v.n)
		return append(dst, crf.Attr{Name: bk[0].Name(float64(v.max))}, crf.Attr{Name: bk[1].Name(float64(v.min))}, crf.Attr{Name: bk[2].Name(mean)})
	},
}

// textTokens calls fn with each of the first textCueTokens tokens of text
// (cuetable.TextTokens): its Word units of two letters or more and its
// pairs of neighbouring Char units (a lone one alone), lower-cased into buf;
// numbers are skipped but counted. tok is only valid during the call. It
// returns buf, to be reused. (The extractor reads them through
// scratch.tokens, hashed, once per page.)
func textTokens(text string, buf []byte, fn func(tok []byte, unit int)) []byte {
	return cuetable.TextTokens(text, textCueTokens, buf, fn)
}

// LearnTextCues estimates the table of Config.TextCues from labelled
// pages: the text tokens of each block (textTokens), with cuetable.Learn's
// site votes.
func LearnTextCues(samples []CueSample, opts CueOptions) map[string]float32 {
	var buf []byte
	return cuetable.Learn(samples, opts, func(p *page.Page, b int, dst []string) []string {
		buf = textTokens(p.Blocks[b].Text, buf, func(tok []byte, _ int) {
			for _, d := range dst {
				if d == string(tok) {
					return
				}
			}
			dst = append(dst, string(tok))
		})
		return dst
	})
}
