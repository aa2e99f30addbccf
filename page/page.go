// Package page holds the data structure that every stage after segmentation
// works on: a page as a sequence of text blocks in reading order, plus a
// compact summary of the element tree the blocks came from.
//
// The segment package builds a Page from a parsed document; filters score its
// blocks, the structure stage labels them, and renderers write them out. No
// stage after segment walks the DOM again.
package page

import (
	"math"
	"net/url"
	"slices"
	"strings"

	"golang.org/x/net/html/atom"
)

// Page is one document split into text blocks.
type Page struct {
	// Blocks are the text blocks in reading order.
	Blocks []Block
	// Nodes summarises the element tree below the content root: every
	// element kept after precleaning, in document (pre-)order. Nodes[0] is
	// the content root, <body> (or <frameset>, or <html> when neither exists).
	Nodes []Node
	// Body is the index in Nodes of the content root: 0 when Nodes is not
	// empty.
	Body int32
	// Meta is what the input says about itself.
	Meta Meta
	// Tables are the grids of the page's leaf tables (tables with no table
	// inside), in document order, recorded while segmenting.
	Tables []Table
	// Links and Images are the links and images inside the blocks, in
	// document order (so ordered by block), when segmentation records
	// them (segment.Options.Links and Images); nil otherwise. They are
	// kept on the page, not on each block, so that a page that does not
	// record them pays nothing per block. BlockLinks and BlockImages
	// return a block's. Nothing that decides content reads them.
	Links  []Link
	Images []Image
}

// Meta is document-level metadata found while ingesting.
type Meta struct {
	URL      string // from the CleanEval wrapper's id, or given by the caller
	Title    string // the wrapper's title, else <title>
	Encoding string // the charset the input was decoded from (IANA name)
	// EncodingSource says how the charset was found: "bom", "http",
	// "wrapper", "meta", "utf8", "detected" or "default".
	EncodingSource string
	// Lang is the language the page declares, as written: the lang
	// attribute of <html>, else its metadata's (package metadata).
	Lang string
	// Language is the language of the page's kept text (ISO 639-1, as
	// package langid gives it) with Lang as evidence (langid.Document),
	// once told: cleaning leaves it empty, langid.SetPage (and
	// sluice.Result.Language, sluice.Extract, sluice corpus) sets it.
	// Empty too when the page keeps no letter and declares nothing.
	Language string
	// Description is the page's own summary: <meta name="description">,
	// else og:description or twitter:description.
	Description string
	// Types are the kinds of page the markup declares, lower case: the
	// schema.org types of its JSON-LD ("product", "newsarticle") and
	// microdata, then its Open Graph type as "og:article" (og:type's
	// leading letters); at most 16.
	Types []string
	// What the markup says of the page (package metadata): Headline is
	// its title without the site's name (og:title, a JSON-LD headline, or
	// <title> with a site suffix removed); Author its authors, joined
	// with ", "; Published and Modified its dates (YYYY-MM-DD); SiteName
	// the site's name; Canonical its canonical address; Image its main
	// image's address; License the address or name of its licence;
	// Categories its sections and Tags its keywords. Empty when unknown.
	Headline, Author, Published, Modified string
	SiteName, Canonical, Image, License   string
	Categories, Tags                      []string
	// File is the name of the file the page was read from, when the caller
	// says (sluice clean does for file inputs); empty otherwise.
	File string
}

// Clone returns m with every string copied: for metadata read from a
// tree whose memory is reused (an htmltree.Builder's).
func (m Meta) Clone() Meta {
	for _, s := range []*string{&m.URL, &m.Title, &m.Encoding, &m.EncodingSource, &m.Lang, &m.Language, &m.Description,
		&m.Headline, &m.Author, &m.Published, &m.Modified, &m.SiteName, &m.Canonical, &m.Image, &m.License, &m.File} {
		*s = strings.Clone(*s)
	}
	for _, l := range []*[]string{&m.Types, &m.Categories, &m.Tags} {
		*l = slices.Clone(*l)
		for i := range *l {
			(*l)[i] = strings.Clone((*l)[i])
		}
	}
	return m
}

// Span is a half-open byte range [Start, End) in the original input.
type Span struct {
	Start, End int
}

// Block is a run of text with no block-level boundary inside it, in the sense
// of Victor's text blocks: text is split at every element that is not inline
// phrasing (a, b, em, span, ...), and at <br>.
type Block struct {
	// Text is the block's text with entities decoded and white space
	// collapsed to single spaces, trimmed.
	Text string
	// Node is the index in Page.Nodes of the deepest element that contains
	// all of the block's text: for "<li><a>Home</a></li>" it is the a.
	Node int32
	// Split counts the tags crossed since the previous block (or the start
	// of the body), the evidence for whether this block continues the
	// previous one.
	Split Split
	// InnerTags is the number of inline start and end tags inside the
	// block (the <a> and </a> of a link in a sentence count 2), and
	// InnerLinkTags how many of those are <a> or </a>.
	InnerTags, InnerLinkTags int32
	// Words is Units rounded to a whole number, at least 1 when Units is
	// above 0 (RoundUnits): the length of Text in words of any script,
	// which the labeller's features and stages count and weigh blocks by.
	// (Before issue 22 it counted white-space tokens, so that a Chinese
	// paragraph was one word.)
	Words int32
	// LinkChars is the number of characters (runes, spaces excluded) of
	// Text that are inside <a href> elements.
	LinkChars int32
	// Chars is the number of characters (runes) of Text, spaces excluded.
	Chars int32
	// Units is the length of Text in word-equivalents,
	// textunit.WordEquivalents(Text): a word or number counts 1, a Han,
	// kana or Thai character 1/textunit.PerWord of its script (a Chinese
	// character 0.625); punctuation and symbols count nothing. The filters
	// count text in these units, so that their thresholds mean the same in
	// every script.
	Units float32
	// DivGroup and TdGroup are the indices in Page.Nodes of the nearest
	// ancestor sectioning element (div, section, article, main, aside,
	// nav, header, footer, form, body) and the nearest table cell (td, th)
	// or -1; blocks with the same group id belong together (Victor 4.2).
	DivGroup, TdGroup int32
	// Source is the byte span of the block's text in the original input
	// (before any charset conversion). It is zero when unknown.
	Source Span
	// Pre is true for a line of preformatted text.
	Pre bool

	// Score is the content score in [0,1] given by the scoring stage.
	Score float64
	// Label is what the decide stage made of the block; Other means dropped.
	Label Label
}

// Split records the tags seen between the previous block and this one.
type Split struct {
	// Tags is the total number of start and end tags crossed.
	Tags int32
	// Block is the number of block-level start or end tags crossed
	// (p, div, li, h1, td, ...).
	Block int32
	// Inline is the number of inline start or end tags crossed (a, b, span...).
	Inline int32
	// BR is the number of <br> elements crossed.
	BR int32
	// HR is the number of <hr> elements crossed.
	HR int32
	// Links is the number of <a> start and end tags crossed, which
	// ACCB-style filters leave out of the markup count.
	Links int32
	// P is the number of <p> start or end tags crossed.
	P int32
}

// Node is one element of the document tree, summarised.
type Node struct {
	Tag    string    // lower-case tag name
	Atom   atom.Atom // the tag's atom, 0 for tags x/net/html does not know
	ID     string    // the id attribute
	Class  string    // the class attribute
	Parent int32     // index of the parent in Page.Nodes, -1 for the root
	Depth  int32     // 0 for the root
	// First and End delimit the blocks inside this element: Blocks[First:End].
	First, End int32
	// Elements is the number of elements in the subtree, this one included.
	Elements int32
	// Structural is the number of structural (block-level) elements in the
	// subtree, this one included (WC Cleaner's s_tags).
	Structural int32
}

// Ancestors calls fn for node n and each of its ancestors, innermost first,
// until fn returns false.
func (p *Page) Ancestors(n int32, fn func(i int32, nd *Node) bool) {
	for n >= 0 && int(n) < len(p.Nodes) {
		if !fn(n, &p.Nodes[n]) {
			return
		}
		n = p.Nodes[n].Parent
	}
}

// CommonAncestor returns the lowest element holding both elements a and b
// (-1 when they are in no common tree or either is out of range) and how
// many levels each is below it (the levels walked, when there is none). A
// walk ends after as many steps as the page has nodes, whatever the parents
// and depths say.
func (p *Page) CommonAncestor(a, b int32) (up, down, lca int32) {
	valid := func(n int32) bool { return n >= 0 && int(n) < len(p.Nodes) }
	if !valid(a) || !valid(b) {
		return 0, 0, -1
	}
	for steps := 0; a != b; steps++ {
		if steps > len(p.Nodes) {
			return up, down, -1
		}
		da, db := p.Nodes[a].Depth, p.Nodes[b].Depth
		if da >= db {
			a = p.Nodes[a].Parent
			up++
		}
		if db >= da {
			b = p.Nodes[b].Parent
			down++
		}
		if !valid(a) || !valid(b) {
			return up, down, -1
		}
	}
	return up, down, a
}

// Path returns the tags from the outermost element to block b's container,
// for example ["html" "body" "div" "p"].
func (p *Page) Path(b int) []string {
	var rev []string
	p.Ancestors(p.Blocks[b].Node, func(_ int32, nd *Node) bool {
		rev = append(rev, nd.Tag)
		return true
	})
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}

// Within reports whether block b lies inside the subtree of node n.
func (p *Page) Within(b int, n int32) bool {
	nd := &p.Nodes[n]
	return int32(b) >= nd.First && int32(b) < nd.End
}

// Host returns the host of the page's URL in lower case, without a port;
// "" when the URL has none or cannot be parsed.
func (m *Meta) Host() string {
	u, err := url.Parse(m.URL)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}

// RoundUnits returns u word-equivalents as a whole number of words: u
// rounded, at least 1 when u is above 0 (a block of one Chinese character
// is one word; a block of punctuation alone none).
func RoundUnits(u float32) int32 {
	if !(u > 0) {
		return 0
	}
	return max(int32(math.Round(float64(u))), 1)
}
