package train

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/sluice-project/sluice/dataset"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/score"
	"github.com/sluice-project/sluice/structure"
)

// This file derives training labels for a page's blocks from the gold
// standards of the shared data sets, which give the main content as text
// (and, for CleanEval, its segments; for L3S-GN1, annotated spans) but not
// which of sluice's blocks hold it.
//
// Method. The blocks' texts and the gold text are cut into tokens: the
// lower-cased runs of letters, digits, marks and '_' of each white-space
// word, or the word itself when it has none ("|", "»", "*"). That makes the
// comparison blind to white space, case and punctuation, which is where
// gold files and pages differ most (curly quotes that the L3S annotation
// tool turned into "?", "e-mail" against "e- mail"). The page's token
// sequence (the blocks' tokens, in order) is aligned with the gold's:
//
//  1. A diff in the manner of difflib: the longest common run of tokens,
//     then recursively the longest runs left and right of it, ties going to
//     the run nearest the neighbouring match (a headline repeated in a
//     teaser and above the article goes with the article); gaps between two
//     matches of at most dpCells token pairs are solved exactly with a
//     longest-common-subsequence table. Words frequent on both sides of a
//     long page do not start runs (difflib's "popular" rule), for speed.
//  2. The matches are cut into chains (each following the previous one in
//     the gold, or both following closely) and short chains that are not a
//     whole gold segment or whole blocks are dropped: a menu's "News"
//     matched to a "news" inside a gold sentence is chance, not alignment.
//  3. What is left unmatched on both sides is aligned again the same way,
//     up to maxPasses in all, which finds text that the gold orders
//     differently from the page (a product list that the gold puts after
//     the description it precedes on the page).
//
// Alignment, not membership, decides: a word that appears in a menu and in
// the text is content only where the alignment puts it.
//
// A block is content when at least ContentThreshold of its words are aligned
// with main-content gold words. The label of a content block then comes
// from the gold where it has labels, from the markup otherwise, as the data
// set kind's dataset.Alignment says:
//
//   - dataset.AlignSegments, CleanEval (segments <h>, <p>, <l>) and
//     annotated sets (the segments of dataset.AnnotationSegments; training
//     takes an annotation's labels as they are, with ApplyAnnotation): the
//     label of the gold segment its first aligned word falls in;
//     Continuation when that word is not the segment's first and the
//     previous content block is in the same segment.
//   - dataset.AlignText, Dragnet, WCXB, Readability (text only), and a gold
//     of the other modes that lacks their segments or spans: the labels the
//     structure stage gives the content blocks from their markup (h1-h6
//     headings, li items, continuation when no block boundary separates two
//     content blocks). Dragnet's user comments are aligned too, as
//     non-content, so that a comment quoting the article is not taken for
//     it.
//   - dataset.AlignSpans, L3S-GN1 (spans of classes 0-5): the spans of
//     every class are aligned;
//     content is classes 1 (headline) and 2 (full text), labelled as for the
//     text-only sets except that headline blocks are headings.

// ContentThreshold is the share of a block's words that must be aligned with
// main-content gold words for Align to call the block content. For blocks
// without words (only punctuation) the share of their punctuation tokens
// counts.
const ContentThreshold = 0.5

// Align returns one label per block of p derived from the gold standard g,
// aligned with the blocks as mode says (its data set kind's Alignment), and
// the alignment's quality: the share of
// the gold's main-content words that were aligned with some block's words,
// in [0, 1]. A low quality means the gold does not match the page (a gold
// text the page does not contain, a page saved differently from the one
// annotated), so training should skip the page. A gold without main content
// gives every block Other and quality 1. Align does not modify p and is
// safe for concurrent use.
func Align(p *page.Page, g *dataset.Gold, mode dataset.Alignment) (labels []page.Label, quality float64) {
	al := getAligner()
	defer putAligner(al)
	al.load(p, g, mode)
	al.align()
	content := al.content()
	switch {
	case mode == dataset.AlignSegments && len(g.Segments) > 0:
		labels = al.segmentLabels(content)
	case mode == dataset.AlignSpans && len(g.Spans) > 0:
		labels = structureLabels(p, content)
		// A headline is a heading, and the markup's continuation does not
		// join headline and full text.
		classes := al.classes()
		for i, l := range labels {
			if l == page.Other {
				continue
			}
			afterHeadline := prevContentClass(labels, classes, i) == dataset.ClassHeadline
			switch {
			case classes[i] == dataset.ClassHeadline && !(l == page.Continuation && afterHeadline):
				labels[i] = page.Heading
			case classes[i] != dataset.ClassHeadline && l == page.Continuation && afterHeadline:
				labels[i] = page.Paragraph
			}
		}
	default:
		labels = structureLabels(p, content)
	}
	return labels, al.quality()
}

// AlignClasses returns, for each block of p, the L3S-GN1 class (0 to 5,
// dataset.ClassBoilerplate to dataset.ClassComments) of the annotated spans
// its tokens are aligned with: the class most of its aligned words have,
// or -1 when none is aligned (or g has no spans). It is the gold of the
// block-accuracy evaluation on L3S-GN1. About a tenth of the blocks of
// l3s-gn1 get -1: text that the annotated copy of the page does not have,
// mostly image alt text and menus written by scripts, which the data set's
// convention (unannotated text is boilerplate) would count as class 0.
// Hidden spans keep their class here, while Align never calls them content.
func AlignClasses(p *page.Page, g *dataset.Gold) []int {
	al := getAligner()
	defer putAligner(al)
	al.load(p, g, dataset.AlignSpans)
	al.align()
	return al.classes()
}

// prevContentClass returns the class of the last content block before i,
// or -1.
func prevContentClass(labels []page.Label, classes []int, i int) int {
	for k := i - 1; k >= 0; k-- {
		if labels[k] != page.Other {
			return classes[k]
		}
	}
	return -1
}

// structureLabels labels the content blocks from their markup with the
// structure stage, on a copy of the blocks scored 1 (content) or 0.
func structureLabels(p *page.Page, content []bool) []page.Label {
	q := *p
	q.Blocks = make([]page.Block, len(p.Blocks))
	copy(q.Blocks, p.Blocks)
	for i := range q.Blocks {
		q.Blocks[i].Score = 0
		if content[i] {
			q.Blocks[i].Score = 1
		}
	}
	structure.Label(&q, structure.Threshold)
	labels := make([]page.Label, len(q.Blocks))
	for i := range q.Blocks {
		labels[i] = q.Blocks[i].Label
	}
	return labels
}

// Gold token flags.
const (
	fPunct   uint8 = 1 << iota // a token without word characters
	fContent                   // main content (else: other gold text)
	fMatched                   // aligned with a page token
)

// aligner holds the sequences and buffers of one alignment. It is reused
// through a pool; nothing of it outlives a call.
type aligner struct {
	ids map[string]int32 // token → id
	buf []byte

	// Page side: a[blockStart[k]:blockStart[k+1]] are block k's tokens.
	a          []int32
	aPunct     []bool
	blockStart []int32
	match      []int32 // gold index aligned with a[i], or -1

	// Gold side.
	b        []int32
	bFlags   []uint8
	bSeg     []int32 // segment of the token: CleanEval segment, paragraph, L3S text block
	segStart []int32 // first token of each segment
	segLabel []page.Label
	bClass   []int8 // L3S class of the token

	// The current pass: its page and gold tokens (ra, rb: their indices
	// in a and b; sa, sb: their symbols) and its matches pm (sa index →
	// sb index, or -1).
	ra, rb, sa, sb, pm []int32
	blockOf            []int32 // block of each page token
	chain              []tokenPair

	// Matcher state: the index of sb (score.Runs).
	runs       score.Runs
	popular    []bool  // symbols too frequent to start a run
	cntA       []int32 // occurrences of each symbol in sa
	anyPopular bool
	stack      []alignRegion
	table      []uint16
}

// alignRegion is a rectangle a[alo:ahi] × b[blo:bhi] still to align; left and
// right say whether a match bounds it on that side.
type alignRegion struct {
	alo, ahi, blo, bhi int
	left, right        bool
}

var alignerPool = sync.Pool{New: func() any { return &aligner{ids: make(map[string]int32)} }}

func getAligner() *aligner { return alignerPool.Get().(*aligner) }

func putAligner(al *aligner) {
	if len(al.ids) > 1<<16 {
		al.ids = make(map[string]int32) // do not keep a huge map
	} else {
		clear(al.ids)
	}
	alignerPool.Put(al)
}

// load tokenises the page's blocks and the gold.
func (al *aligner) load(p *page.Page, g *dataset.Gold, mode dataset.Alignment) {
	clear(al.ids)
	al.a, al.aPunct, al.blockStart = al.a[:0], al.aPunct[:0], al.blockStart[:0]
	for i := range p.Blocks {
		al.blockStart = append(al.blockStart, int32(len(al.a)))
		al.tokens(p.Blocks[i].Text, func(id int32, punct bool) {
			al.a = append(al.a, id)
			al.aPunct = append(al.aPunct, punct)
		})
	}
	al.blockStart = append(al.blockStart, int32(len(al.a)))

	al.b, al.bFlags, al.bSeg, al.bClass = al.b[:0], al.bFlags[:0], al.bSeg[:0], al.bClass[:0]
	al.segStart, al.segLabel = al.segStart[:0], al.segLabel[:0]
	// addSeg adds the tokens of text, as a new segment or (join) as part
	// of the last one.
	addSeg := func(text string, l page.Label, class int, content, join bool) {
		if !join || len(al.segStart) == 0 {
			al.segStart = append(al.segStart, int32(len(al.b)))
			al.segLabel = append(al.segLabel, l)
		}
		seg := int32(len(al.segStart) - 1)
		var flags uint8
		if content {
			flags = fContent
		}
		al.tokens(text, func(id int32, punct bool) {
			f := flags
			if punct {
				f |= fPunct
			}
			al.b = append(al.b, id)
			al.bFlags = append(al.bFlags, f)
			al.bSeg = append(al.bSeg, seg)
			al.bClass = append(al.bClass, int8(class))
		})
	}
	switch {
	case mode == dataset.AlignSegments && len(g.Segments) > 0:
		for _, s := range g.Segments {
			addSeg(s.Text, s.Label, -1, true, false)
		}
	case mode == dataset.AlignSpans && len(g.Spans) > 0:
		// A segment is one of the annotated page's text blocks.
		for k, s := range g.Spans {
			content := !s.Hidden && (s.Class == dataset.ClassHeadline || s.Class == dataset.ClassFullText)
			addSeg(s.Text, page.Paragraph, s.Class, content, k > 0 && s.Block == g.Spans[k-1].Block)
		}
	default:
		for para := range strings.SplitSeq(g.Text, "\n\n") {
			addSeg(para, page.Paragraph, -1, true, false)
		}
		// User comments are not main content, but aligning them keeps
		// the article's words from being matched inside them.
		for para := range strings.SplitSeq(g.Comments, "\n\n") {
			addSeg(para, page.Paragraph, -1, false, false)
		}
	}
}

// tokens calls emit for each token of s: the lower-cased word-character
// runs of every white-space separated word, or the word itself when it has
// no word character.
func (al *aligner) tokens(s string, emit func(id int32, punct bool)) {
	i := 0
	for i < len(s) {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		if isTokenSpace(r) {
			i += size
			continue
		}
		// One white-space word: s[i:j].
		j := i + size
		for j < len(s) {
			r, size := rune(s[j]), 1
			if r >= utf8.RuneSelf {
				r, size = utf8.DecodeRuneInString(s[j:])
			}
			if isTokenSpace(r) {
				break
			}
			j += size
		}
		words := false
		for k := i; k < j; {
			r, size := rune(s[k]), 1
			if r >= utf8.RuneSelf {
				r, size = utf8.DecodeRuneInString(s[k:])
			}
			if !isTokenWord(r) {
				k += size
				continue
			}
			al.buf = al.buf[:0]
			for k < j {
				r, size = rune(s[k]), 1
				if r >= utf8.RuneSelf {
					r, size = utf8.DecodeRuneInString(s[k:])
				}
				if !isTokenWord(r) {
					break
				}
				if r < utf8.RuneSelf {
					if 'A' <= r && r <= 'Z' {
						r += 'a' - 'A'
					}
					al.buf = append(al.buf, byte(r))
				} else {
					al.buf = utf8.AppendRune(al.buf, unicode.ToLower(r))
				}
				k += size
			}
			emit(al.intern(al.buf), false)
			words = true
		}
		if !words {
			emit(al.intern(append(al.buf[:0], s[i:j]...)), true)
		}
		i = j
	}
}

func (al *aligner) intern(tok []byte) int32 {
	if id, ok := al.ids[string(tok)]; ok {
		return id
	}
	id := int32(len(al.ids))
	al.ids[string(tok)] = id
	return id
}

// isTokenSpace reports whether r separates words: Unicode white space, the
// ASCII information separators, and the zero-width no-break and zero-width
// spaces.
func isTokenSpace(r rune) bool {
	if r < utf8.RuneSelf {
		return r == ' ' || '\t' <= r && r <= '\r' || r == 0x1c || r == 0x1d || r == 0x1e || r == 0x1f
	}
	return unicode.IsSpace(r) || r == 0xfeff || r == 0x200b
}

// isTokenWord reports whether r is part of a word token: a letter, a digit
// (any number), '_', or a combining mark (so that decomposed accents and
// Indic vowel signs do not split words).
func isTokenWord(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_'
	}
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.In(r, unicode.Mn, unicode.Mc)
}

// dpCells is the size of the largest gap between two matches (page tokens
// × gold tokens) that is aligned with an exact longest-common-subsequence
// table rather than by longest runs, which is faster for small gaps.
const dpCells = 1 << 12

// maxPasses bounds the alignment passes: the first aligns the whole
// sequences in order; each further one aligns what is left unmatched on
// both sides, which finds text that the page and the gold have in a
// different order (a list the gold puts after the text it precedes on the
// page).
const maxPasses = 3

// A symbol is "popular" in a pass when it occurs more than
// max(popularMin, len/popularShare) times among the pass's gold tokens, or
// more than popularPairMinB times there and so often on the page too that
// it makes more than popularPairs pairs of equal tokens. A popular symbol
// cannot start a longest run, only extend one. This is difflib's autojunk
// rule, with floors high enough that it applies only to large golds and
// frequent words ("the" on a long page), where it keeps the alignment
// close to linear; on a short gold difflib's 1% rule hides long runs of
// common words behind short runs of rare ones.
const (
	popularMin, popularShare = 1000, 100
	popularPairMinB          = 50
	popularPairs             = 20000
)

// minChain is the length from which a chain of matches is kept whatever it
// covers; see keepChain.
const minChain = 3

// align fills match and marks the matched gold tokens.
func (al *aligner) align() {
	la, lb := len(al.a), len(al.b)
	al.match = alignBuf(al.match, la)
	for i := range al.match {
		al.match[i] = -1
	}
	if la == 0 || lb == 0 {
		return
	}
	al.blockOf = alignBuf(al.blockOf, la)
	for k := 0; k+1 < len(al.blockStart); k++ {
		for i := al.blockStart[k]; i < al.blockStart[k+1]; i++ {
			al.blockOf[i] = int32(k)
		}
	}
	// Pass coordinates: ra[x] is the page index of the pass's x-th token,
	// rb[y] the gold index of its y-th.
	al.ra, al.rb = alignBuf(al.ra, la), alignBuf(al.rb, lb)
	for i := range al.ra {
		al.ra[i] = int32(i)
	}
	for j := range al.rb {
		al.rb[j] = int32(j)
	}
	for pass := 0; pass < maxPasses; pass++ {
		if pass > 0 {
			al.ra = al.ra[:0]
			for i, j := range al.match {
				if j < 0 {
					al.ra = append(al.ra, int32(i))
				}
			}
			al.rb = al.rb[:0]
			for j, f := range al.bFlags {
				if f&fMatched == 0 {
					al.rb = append(al.rb, int32(j))
				}
			}
		}
		if len(al.ra) == 0 || len(al.rb) == 0 || al.pass() == 0 {
			break
		}
	}
}

// pass aligns the page tokens ra with the gold tokens rb in order, keeps
// the chains of matches that keepChain accepts, and returns the number of
// matches kept.
func (al *aligner) pass() int {
	al.sa, al.sb = al.sa[:0], al.sb[:0]
	for _, i := range al.ra {
		al.sa = append(al.sa, al.a[i])
	}
	for _, j := range al.rb {
		al.sb = append(al.sb, al.b[j])
	}
	na, nb := len(al.sa), len(al.sb)
	al.pm = alignBuf(al.pm, na)
	for x := range al.pm {
		al.pm[x] = -1
	}
	al.index()
	al.stack = append(al.stack[:0], alignRegion{0, na, 0, nb, false, false})
	for len(al.stack) > 0 {
		r := al.stack[len(al.stack)-1]
		al.stack = al.stack[:len(al.stack)-1]
		if r.ahi <= r.alo || r.bhi <= r.blo {
			continue
		}
		if r.left && r.right && (r.ahi-r.alo)*(r.bhi-r.blo) <= dpCells {
			al.lcs(r)
			continue
		}
		// Ties go to the match nearest the anchor that bounds the region:
		// in the gap before a match the last, otherwise the first.
		last := r.right && !r.left
		x, y, k := al.longest(r, last, true)
		if k == 0 && al.anyPopular {
			x, y, k = al.longest(r, last, false)
		}
		if k == 0 {
			continue
		}
		for d := range k {
			al.pm[x+d] = int32(y + d)
		}
		al.stack = append(al.stack,
			alignRegion{r.alo, x, r.blo, y, r.left, true},
			alignRegion{x + k, r.ahi, y + k, r.bhi, true, r.right})
	}

	// Cut the matches into chains and keep the good ones.
	kept := 0
	chain := al.chain[:0]
	flush := func() {
		if len(chain) > 0 && al.keepChain(chain) {
			for _, m := range chain {
				al.match[m.i] = m.j
				al.bFlags[m.j] |= fMatched
			}
			kept += len(chain)
		}
		chain = chain[:0]
	}
	for x, y := range al.pm {
		if y < 0 {
			continue
		}
		m := tokenPair{al.ra[x], al.rb[y]}
		if len(chain) > 0 {
			last := chain[len(chain)-1]
			di, dj := m.i-last.i, m.j-last.j
			if dj != 1 && (di > 4 || dj > 4) {
				flush()
			}
		}
		chain = append(chain, m)
	}
	flush()
	al.chain = chain
	return kept
}

// tokenPair is a page token aligned with a gold token.
type tokenPair struct{ i, j int32 }

// keepChain reports whether a chain of matches is evidence of the same text
// rather than of words the page and the gold happen to share. Within a
// chain each match follows the previous one in the gold (the page may have
// anything in between, such as an advertisement), or both follow closely
// (a word changed or added). A chain of minChain matches is kept; a
// shorter one when it covers whole gold segments (a heading, a list item),
// or when it has two matches covering whole page blocks (a two-word block
// found in the gold): a menu's "News" matched to a "news" inside a gold
// sentence is not.
func (al *aligner) keepChain(c []tokenPair) bool {
	if len(c) >= minChain {
		return true
	}
	// Whole segments: the words of every segment touched are in the chain.
	seg0, seg1 := al.bSeg[c[0].j], al.bSeg[c[len(c)-1].j]
	end := int32(len(al.b))
	if int(seg1)+1 < len(al.segStart) {
		end = al.segStart[seg1+1]
	}
	if al.wordsIn(al.segStart[seg0], end, c, false) {
		return true
	}
	if len(c) < 2 {
		return false
	}
	b0, b1 := al.blockOf[c[0].i], al.blockOf[c[len(c)-1].i]
	return al.wordsIn(al.blockStart[b0], al.blockStart[b1+1], c, true)
}

// wordsIn reports whether the word tokens in [lo, hi) of the gold (page
// false) or of the page (page true) are all among the chain's.
func (al *aligner) wordsIn(lo, hi int32, c []tokenPair, pageSide bool) bool {
	n := 0
	for t := lo; t < hi; t++ {
		punct := false
		if pageSide {
			punct = al.aPunct[t]
		} else {
			punct = al.bFlags[t]&fPunct != 0
		}
		if punct {
			continue
		}
		n++
		found := false
		for _, m := range c {
			if pageSide && m.i == t || !pageSide && m.j == t {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return n > 0
}

// index indexes the pass's gold tokens sb and marks the popular symbols.
func (al *aligner) index() {
	nsym := len(al.ids)
	al.runs.Index(al.sb, nsym)
	al.popular = alignBuf(al.popular, nsym)
	clear(al.popular)
	al.anyPopular = false
	limit := max(popularMin, len(al.sb)/popularShare)
	al.cntA = alignBuf(al.cntA, nsym)
	cntA := al.cntA
	clear(cntA)
	for _, s := range al.sa {
		cntA[s]++
	}
	for s := range nsym {
		nb := al.runs.Count(int32(s))
		if nb > limit || nb > popularPairMinB && int64(nb)*int64(cntA[s]) > popularPairs {
			al.popular[s] = true
			al.anyPopular = true
		}
	}
}

// longest returns the longest run sa[x:x+k] == sb[y:y+k] inside region r
// (difflib's find_longest_match without junk, score.Runs). With
// skipPopular, popular symbols cannot start or be inside the run found,
// which is then extended over equal tokens of any kind. Among equally long
// runs the first (or, with last, the last) wins.
func (al *aligner) longest(r alignRegion, last, skipPopular bool) (x, y, k int) {
	var skip []bool
	if skipPopular && al.anyPopular {
		skip = al.popular
	}
	x, y, k = al.runs.Longest(al.sa, r.alo, r.ahi, r.blo, r.bhi, skip, last)
	if k > 0 && skip != nil {
		x, y, k = score.Extend(al.sa, al.sb, r.alo, r.ahi, r.blo, r.bhi, x, y, k)
	}
	return x, y, k
}

// lcs aligns a small region between two matches exactly: a longest common
// subsequence, with the earliest matches where there is a choice.
func (al *aligner) lcs(r alignRegion) {
	a, b := al.sa[r.alo:r.ahi], al.sb[r.blo:r.bhi]
	n, m := len(a), len(b)
	w := m + 1
	// t[i*w+j] is the length of the LCS of a[i:] and b[j:].
	al.table = alignBuf(al.table, (n+1)*w)
	t := al.table
	clear(t[n*w:])
	for i := n - 1; i >= 0; i-- {
		row, down := t[i*w:(i+1)*w], t[(i+1)*w:(i+2)*w]
		row[m] = 0
		for j := m - 1; j >= 0; j-- {
			switch {
			case a[i] == b[j]:
				row[j] = down[j+1] + 1
			case down[j] >= row[j+1]:
				row[j] = down[j]
			default:
				row[j] = row[j+1]
			}
		}
	}
	for i, j := 0, 0; i < n && j < m; {
		switch {
		case a[i] == b[j]:
			al.pm[r.alo+i] = int32(r.blo + j)
			i, j = i+1, j+1
		case t[(i+1)*w+j] >= t[i*w+j+1]:
			i++
		default:
			j++
		}
	}
}

// content returns, per block, whether enough of its words are aligned with
// main-content gold words.
func (al *aligner) content() []bool {
	nb := len(al.blockStart) - 1
	out := make([]bool, nb)
	for k := range nb {
		var words, wordHits, puncts, punctHits int
		for i := al.blockStart[k]; i < al.blockStart[k+1]; i++ {
			hit := al.match[i] >= 0 && al.bFlags[al.match[i]]&fContent != 0
			if al.aPunct[i] {
				puncts++
				if hit {
					punctHits++
				}
			} else {
				words++
				if hit {
					wordHits++
				}
			}
		}
		switch {
		case words > 0:
			out[k] = float64(wordHits) >= ContentThreshold*float64(words)
		case puncts > 0:
			out[k] = float64(punctHits) >= ContentThreshold*float64(puncts)
		}
	}
	return out
}

// quality is the share of main-content gold words aligned with the page.
func (al *aligner) quality() float64 {
	var words, hits int
	for _, f := range al.bFlags {
		if f&(fContent|fPunct) == fContent {
			words++
			if f&fMatched != 0 {
				hits++
			}
		}
	}
	if words == 0 {
		return 1
	}
	return float64(hits) / float64(words)
}

// segmentLabels labels the content blocks from the gold segments their
// aligned tokens fall in (CleanEval).
func (al *aligner) segmentLabels(content []bool) []page.Label {
	labels := make([]page.Label, len(content))
	prevSeg := int32(-1) // segment of the previous content block's last aligned token
	for k, c := range content {
		if !c {
			continue
		}
		first, lastSeg := int32(-1), int32(-1)
		for i := al.blockStart[k]; i < al.blockStart[k+1]; i++ {
			j := al.match[i]
			if j < 0 || al.bFlags[j]&fContent == 0 {
				continue
			}
			if first < 0 {
				first = j
			}
			lastSeg = al.bSeg[j]
		}
		if first < 0 {
			// Not reached: a content block has aligned tokens.
			labels[k] = page.Paragraph
			continue
		}
		seg := al.bSeg[first]
		if seg == prevSeg && first != al.segStart[seg] {
			labels[k] = page.Continuation
		} else {
			labels[k] = al.segLabel[seg]
		}
		prevSeg = lastSeg
	}
	return labels
}

// classes returns the L3S class most of each block's aligned tokens have
// (words first, punctuation only for blocks without aligned words), or -1.
func (al *aligner) classes() []int {
	nb := len(al.blockStart) - 1
	out := make([]int, nb)
	for k := range nb {
		var words, puncts [8]int
		for i := al.blockStart[k]; i < al.blockStart[k+1]; i++ {
			j := al.match[i]
			if j < 0 {
				continue
			}
			c := int(al.bClass[j])
			if c < 0 || c >= len(words) {
				continue
			}
			if al.aPunct[i] {
				puncts[c]++
			} else {
				words[c]++
			}
		}
		out[k] = classArgmax(words[:])
		if out[k] < 0 {
			out[k] = classArgmax(puncts[:])
		}
	}
	return out
}

// classArgmax returns the index of the largest positive count (the lowest such
// index on ties), or -1 when all are zero.
func classArgmax(counts []int) int {
	best := -1
	for c, n := range counts {
		if n > 0 && (best < 0 || n > counts[best]) {
			best = c
		}
	}
	return best
}

// alignBuf returns s resized to n elements, reallocated when too small;
// the contents are not kept.
func alignBuf[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
