// Package parsertext turns the kept content of a labelled page into text
// that syntactic parsers and question-answering systems can read, one
// sentence at a time, following Kitten (sections 3.2 and 3.3):
//
//   - lists (ul, ol, dl): items of link lists with fewer than five words
//     are removed (see Options.Removed); hand-written bullets ("*", "-",
//     "•", "1)", "a.", "iv)") are stripped from item starts; a dt and
//     its dd are one item ("Wheel: turned by water"); a one-level
//     list introduced by a clause ending in a colon is flattened into one
//     sentence, items joined by commas, when its median item is shorter
//     than 60 characters, else the introduction and each item become
//     sentences, each ending with a full stop; when that
//     clause ends in a trigger word (a preposition, an auxiliary, "not":
//     lang/triggers) it is repeated before each item instead (list.go);
//   - sentences: a full stop ends a heading or paragraph that has no
//     terminal punctuation, and a title that the decide stage joined to
//     the paragraph under it (or that shares a list item with it); the
//     pieces of one sentence cut by <br> are
//     joined, whether the decide stage labelled the later piece a
//     continuation (heuristic path) or a new paragraph (model path);
//     text inside <select> and <option> is dropped; then the text is split
//     into sentences, a sentence of more than 60 words is cut at its
//     semicolons and item separators, and a shorter one with item
//     separators ("Home | News | Sport") is read as a list, its items
//     joined by commas when they are short (sentence.go).
//
// Word lists are per language, chosen from Options.Lang or the page's lang
// attribute; see lang.go to add one.
package parsertext

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html/atom"

	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/tables"
	"github.com/sluice-project/sluice/textunit"
)

// Options configures Sentences. The zero value is the default.
type Options struct {
	// Lang is the language whose word lists are used (a BCP 47 tag such as
	// "fr" or "en-GB"). Default: the page's Meta.Lang, else English.
	Lang string
	// Removed, when set, is called with the text of each list item that
	// is removed and the reason (ReasonLinkItem), so that callers can log
	// them (Kitten 3.2.1; see Log). It is called from the goroutine that
	// calls Sentences, in reading order.
	Removed func(item, reason string)
	// Tables writes each data table that tables.Views finds (a data table
	// whose cells the cleaner mostly kept) as one clause a data row, from
	// tables.LinearizeTexts, in place of its cells' blocks (Kitten 3.1); a
	// clause whose cells hold several sentences is split into them. Default: off, cells read as blocks;
	// render's parser format turns it on.
	Tables bool
}

// ReasonLinkItem is the reason given to Options.Removed for an item of a
// link list (a list whose every item is all link text) that has fewer
// than five words: menu entries, calendar days, "Home", "Cite".
const ReasonLinkItem = "link-list item of fewer than 5 words"

// kind is what a piece of the page is.
type kind uint8

const (
	kText kind = iota
	kHeading
	kList
	kPre   // preformatted lines, written as they are
	kLines // the clauses of a data table, one a line, split into sentences
)

// piece is a heading, a paragraph or a list, in reading order.
type piece struct {
	kind   kind
	text   string // of a heading or paragraph
	list   int32  // node of the outermost list element, for kList
	items  []item // for kList
	nested bool   // the list holds another list
}

// item is one li, dt or dd of a list.
type item struct {
	node  int32
	text  string
	links bool // every block of the item is (almost) all link text
	kind  atom.Atom
}

// Sentences returns the kept text of p as sentences, in reading order.
func Sentences(p *page.Page, opts Options) []string {
	tag := opts.Lang
	if tag == "" {
		tag = p.Meta.Lang
	}
	lang := loadLanguage(tag)
	var out []string
	for _, t := range emit(collect(p, opts.Tables, lang), lang, opts.Removed) {
		if t.pre {
			out = append(out, strings.Split(t.text, "\n")...)
			continue
		}
		for _, x := range splitSentences(nil, t.text, lang) {
			if textunit.HasWord(x) { // symbols alone give a parser nothing to read
				out = cutLong(out, x, lang)
			}
		}
	}
	return out
}

// place is where a block sits in the lists of the page.
type place struct {
	item   int32 // nearest li, dt or dd; -1 outside lists
	list   int32 // outermost ul, ol or dl; -1 outside lists
	depth  int   // number of list elements around the block
	option bool  // inside select, option or optgroup
}

// places returns the place of every node of p, in one pass from the root
// down (a node's parent comes before it in p.Nodes), so that a page of
// many blocks in deeply nested lists costs time linear in its nodes.
func places(p *page.Page) []place {
	out := make([]place, len(p.Nodes))
	for i := range p.Nodes {
		nd := &p.Nodes[i]
		pl := place{item: -1, list: -1}
		if nd.Parent >= 0 && int(nd.Parent) < i {
			pl = out[nd.Parent]
		}
		switch nd.Atom {
		case atom.Li, atom.Dt, atom.Dd:
			pl.item = int32(i)
		case atom.Ul, atom.Ol, atom.Dl:
			pl.item = int32(i)
			if pl.list < 0 {
				pl.list = int32(i)
			}
			pl.depth++
		case atom.Select, atom.Option, atom.Optgroup, atom.Datalist:
			pl.option = true
		}
		out[i] = pl
	}
	return out
}

// collect groups the kept blocks of p into pieces; with linear, the data
// tables are pieces of their clauses.
func collect(p *page.Page, linear bool, lang *language) []piece {
	var out []piece
	where := places(p)
	var views []tables.View
	var owner []int32
	if linear && len(p.Tables) > 0 {
		views, owner = tables.Views(p)
	}
	asBlocks := make([]bool, len(views))
	prev := -1 // the previous kept block
	for i := range p.Blocks {
		b := &p.Blocks[i]
		if !b.Label.Kept() {
			continue
		}
		if owner != nil && owner[i] >= 0 {
			if lines, written := tableLines(views, owner[i], asBlocks); written {
				if lines != "" {
					out = append(out, piece{kind: kLines, text: lines})
				}
				prev = -1
				continue
			}
		}
		pl := place{item: -1, list: -1}
		if b.Node >= 0 && int(b.Node) < len(where) {
			pl = where[b.Node]
		}
		if b.Pre && !pl.option {
			out = addPre(out, b)
			prev = i
			continue
		}
		text := strings.Join(strings.Fields(b.Text), " ")
		if pl.option || text == "" {
			continue
		}
		adjacent := prev == i-1
		prev = i
		if pl.list >= 0 {
			out = addToList(p, out, pl, b, text, lang)
			continue
		}
		if n := len(out); n > 0 && out[n-1].kind < kList && joins(b, out[n-1].text, adjacent, lang) {
			out[n-1].text += " " + text
			continue
		}
		k := kText
		if b.Label == page.Heading {
			k = kHeading
		}
		out = append(out, piece{kind: k, text: text})
	}
	return out
}

// tableLines returns the clauses of table view v of views, one a line,
// for the first block of the table, and "" for its later blocks; written
// is false when the table is read as ordinary blocks (asBlocks), because
// no row has a data cell with text (a table of ticks drawn as images).
func tableLines(views []tables.View, v int32, asBlocks []bool) (lines string, written bool) {
	if asBlocks[v] {
		return "", false
	}
	if views[v].Table == nil {
		return "", true
	}
	clauses, _ := views[v].Clauses()
	views[v].Table = nil // written
	if len(clauses) == 0 {
		asBlocks[v] = true
		return "", false
	}
	return strings.Join(clauses, "\n"), true
}

// joins reports whether block b goes on with the piece of text before it.
// Where only <br> separates them (Kitten's Figure 9), it does when the
// earlier piece does not end a sentence and b does not open one with an
// upper-case letter or a digit: Figure 9's cut lines go on in lower case,
// while the lines of an address, a date or a phone number are pieces of
// their own, whatever the decide stage said. Otherwise b goes on when the
// decide stage said so (Continuation), unless the earlier piece stops
// without terminal punctuation and without a trigger word ("of", "by",
// "can") and b opens with an upper-case letter or a digit: a title over
// its paragraph ("Aura Credit Monitoring" / "We rate Aura ...") is a
// sentence of its own, which Kitten ends with a full stop.
func joins(b *page.Block, before string, adjacent bool, lang *language) bool {
	s := b.Split
	if brOnly := s.Block == 0 && s.HR == 0 && s.P == 0 && s.BR > 0 && !b.Pre; brOnly && (adjacent || b.Label == page.Continuation) {
		return !endsSentence(before) && !opensSentence(b.Text) || b.Label == page.Continuation && endsSentence(before)
	}
	if b.Label != page.Continuation {
		return false
	}
	return !newSentence(before, b.Text, lang)
}

// newSentence reports whether text, a block that follows the text before
// it in one paragraph or list item, opens a sentence of its own although
// before has no terminal punctuation: text opens with an upper-case letter
// or a digit, and before does not end with a colon or a trigger word ("of",
// "by", "can") that asks for more.
func newSentence(before, text string, lang *language) bool {
	return !endsSentence(before) && opensSentence(text) && !lang.triggers[lastWord(before)] && !strings.HasSuffix(before, ":")
}

// opensSentence reports whether text starts, after opening quotes and
// brackets, with an upper-case letter or a digit.
func opensSentence(text string) bool {
	r, _ := utf8.DecodeRuneInString(strings.TrimLeft(text, " \t\n"+openers))
	return unicode.IsUpper(r) || unicode.IsDigit(r)
}

// addToList adds block b of a list to the last piece, or opens a list.
func addToList(p *page.Page, out []piece, pl place, b *page.Block, text string, lang *language) []piece {
	n := len(out)
	if n == 0 || out[n-1].kind != kList || out[n-1].list != pl.list {
		out = append(out, piece{kind: kList, list: pl.list})
		n++
	}
	pc := &out[n-1]
	if pl.depth > 1 {
		pc.nested = true
	}
	links := b.Chars > 0 && 10*b.LinkChars >= 9*b.Chars
	if m := len(pc.items); m > 0 && pc.items[m-1].node == pl.item {
		it := &pc.items[m-1]
		if newSentence(it.text, text, lang) {
			it.text = terminate(it.text) // a title over its paragraph in one item
		}
		it.text += " " + text
		it.links = it.links && links
		return out
	}
	var kind atom.Atom
	if pl.item >= 0 {
		kind = p.Nodes[pl.item].Atom
	}
	pc.items = append(pc.items, item{node: pl.item, text: text, links: links, kind: kind})
	return out
}

// addPre adds a preformatted line to the open preformatted piece, or
// opens one. Blank lines are left out.
func addPre(out []piece, b *page.Block) []piece {
	text := strings.TrimRight(b.Text, " \t\n")
	if strings.TrimSpace(text) == "" {
		return out
	}
	if n := len(out); n > 0 && out[n-1].kind == kPre && b.Label == page.Continuation {
		out[n-1].text += "\n" + text
		return out
	}
	return append(out, piece{kind: kPre, text: text})
}
