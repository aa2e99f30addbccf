package filter

import (
	"unicode"
	"unicode/utf8"

	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/textunit"
)

func init() {
	RegisterParams("density", []Param{
		{Name: "line_width", Kind: Int, Default: DensityLineWidth, Min: 1, Max: 10000,
			Doc: "width in columns (Latin characters; a Chinese character takes 3.7) at which a block's text is wrapped to measure its words per line"},
		{Name: "link_density", Default: densityMaxLink, Min: 0.01, Max: 1,
			Doc: "link density (link characters / characters) above which a block is boilerplate, the tree's first test"},
	}, func(p Params) Filter { return Density{LineWidth: int(p["line_width"]), MaxLink: p["link_density"]} })
}

// DensityLineWidth is the default line width, in characters, at which
// Density wraps a block's text to measure its text density.
const DensityLineWidth = 80

// Density is the densitometric classifier of Kohlschütter, Fankhauser and
// Nejdl ("Boilerplate detection using shallow text features", WSDM 2010), the
// decision tree that boilerpipe ships: a baseline that looks only at the link
// density and the text density of a block and of its neighbours.
//
// The link density of a block is LinkChars/Chars (the paper counts words
// inside anchors; characters are what a Block records). Its text density is
// the number of words per line once the text is wrapped at LineWidth
// characters: the words of the full lines divided by their number, the last,
// partial line left out unless it is the only one (so a short block's density
// is its word count). The tree, learned with C4.8 on the L3S-GN1 news pages
// (Algorithm 2 of the paper), keeps block c with previous block p and next
// block n when
//
//	link(c) <= 0.333333, and
//	  if link(p) <= 0.555556:
//	    text(c) <= 9:  text(n) > 10, or text(p) > 4
//	    text(c) > 9:   text(n) > 0
//	  else:            text(n) > 11
//
// so a link-dense block is always boilerplate, and a short block is kept when
// its neighbours are long. p and n are the nearest active blocks.
//
// One change: boilerpipe gives the first block an empty previous block and
// the last an empty next one (text density 0), which makes the last block of
// a page boilerplate whatever it says ("text(n) > 0" fails) and drops the
// only paragraph of a one-paragraph page. Here a missing neighbour is the
// block itself, so the edges are judged on their own densities: a last
// paragraph is kept, a last link or short line after links is not.
//
// Scores are 1 (content) or 0.
type Density struct {
	// LineWidth is the wrapping width in characters (values below 1 mean
	// DensityLineWidth).
	LineWidth int
	// MaxLink is the link density above which a block is boilerplate
	// whatever its neighbours (the tree's first test); values of 0 and
	// below mean the tree's 0.333333.
	MaxLink float64
}

// densityMaxLink is the link density cut of the first test of the tree.
const densityMaxLink = 0.333333

// NewDensity returns Density with the default line width.
func NewDensity() Density { return Density{LineWidth: DensityLineWidth} }

// Name returns "density".
func (Density) Name() string { return "density" }

type densities struct{ text, link float64 }

// Score implements Filter.
func (d Density) Score(p *page.Page, active []bool, out []float64) {
	bs := p.Blocks
	width := d.LineWidth
	if width < 1 {
		width = DensityLineWidth
	}
	measure := func(i int) densities {
		b := &bs[i]
		var dn densities
		if b.Chars > 0 {
			dn.link = min(float64(max(b.LinkChars, 0))/float64(b.Chars), 1)
		}
		dn.text = textDensity(b.Text, width)
		return dn
	}
	maxLink := d.MaxLink
	if !(maxLink > 0) {
		maxLink = densityMaxLink
	}
	var prev, curD densities
	cur := -1
	for i := range bs {
		if !live(active, i) {
			continue
		}
		if cur < 0 {
			cur, curD = i, measure(i)
			prev = curD // the first block is its own previous block
			continue
		}
		next := measure(i)
		out[cur] = densityRule(prev, curD, next, maxLink)
		prev, cur, curD = curD, i, next
	}
	if cur >= 0 {
		out[cur] = densityRule(prev, curD, curD, maxLink) // the last is its own next
	}
}

// densityRule is the decision tree of Kohlschütter et al. (Algorithm 2),
// with maxLink in place of its first cut.
func densityRule(p, c, n densities, maxLink float64) float64 {
	var keep bool
	switch {
	case c.link > maxLink:
		keep = false
	case p.link > 0.555556:
		keep = n.text > 11
	case c.text <= 9:
		keep = n.text > 10 || p.text > 4
	default:
		keep = n.text > 0
	}
	if keep {
		return 1
	}
	return 0
}

// textDensity is the number of words per line of s wrapped at width
// columns, counting only full lines when there is more than one: a unit
// goes to the next line when it would take the line past width. Words are
// counted in word-equivalents (see unitMeasure): a word is 1 and takes its
// characters and a space; a Han, kana or Thai character is 1/PerWord of a
// word and takes that share of an English word's columns, so that a line
// holds about as many word-equivalents in every script and the tree's
// thresholds (4, 9, 10 and 11 words a line) keep their meaning. (Counted
// by white space, a Chinese paragraph was one word on many lines, a
// density near 0, and the tree dropped it.) Punctuation and symbols ("|",
// "»") are no units, as boilerpipe leaves out tokens without a letter or
// a digit.
func textDensity(s string, width int) float64 {
	if 2*len(s) <= width && !maybeChars(s) {
		// One line: a unit takes at most twice its bytes (its characters,
		// a space), and without Han, kana or Thai every unit is a word.
		return float64(textunit.Count(s))
	}
	if units, full, last, ok := textunit.WrapASCII(s, width); ok {
		// wrapDensity's count, every unit a word of its bytes' columns.
		if full == 0 {
			return float64(units)
		}
		return float64(units-last) / float64(full)
	}
	return wrapDensity(s, width)
}

// wrapDensity is textDensity, wrapping s unit by unit.
func wrapDensity(s string, width int) float64 {
	var words, lastLine, lineLen float64
	lines := 0
	w := float64(width)
	textunit.Units(s, func(u textunit.Unit) bool {
		weight, cols, spaced := unitMeasure(u)
		words += weight
		lastLine += weight
		lineLen += cols
		if spaced {
			lineLen++
		}
		if lineLen > w {
			lines++
			lineLen = cols
			lastLine = weight
		}
		return true
	})
	if words == 0 {
		return 0
	}
	if lines == 0 {
		return words
	}
	return (words - lastLine) / float64(lines)
}

// asciiSpace and asciiAlnum classify ASCII bytes as unicode.IsSpace and
// unicode.IsLetter || unicode.IsDigit do.
var asciiSpace, asciiAlnum = func() (sp, al [utf8.RuneSelf]bool) {
	for c := range utf8.RuneSelf {
		sp[c] = unicode.IsSpace(rune(c))
		al[c] = unicode.IsLetter(rune(c)) || unicode.IsDigit(rune(c))
	}
	return
}()
