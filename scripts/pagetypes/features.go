package main

import (
	"slices"
	"strings"

	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/tables"
)

// blockFeatures are the observable facts the kinds and rules read.
type blockFeatures struct {
	words    int     // white-space words
	linkDens float64 // LinkChars / Chars
	// cue is the class and id attributes of the block's nearest ancestors
	// (at most cueDepth, the body left out), lower-cased.
	cue string
	// tags are the tag names of the same ancestors.
	tags []string
	// rep is the number of siblings (itself included) sharing the
	// signature (tag and class, digits removed) of the nearest ancestor,
	// at most repDepth levels up, that has at least two elements and at
	// least minRep such siblings; 0 when none has. itemWords and
	// itemBlocks are that ancestor's words and blocks, repLevel how far up
	// it is.
	rep, itemWords, itemBlocks, repLevel int
	// repGroup is the parent of the repeated ancestor (-1 when rep is 0),
	// mainGroup (set by analyse) whether that group holds the most kept
	// words of the page's repeated groups.
	repGroup  int32
	mainGroup bool
	// outside80 and outside60 (set by analyse): the block lies outside the
	// deepest element holding at least 80% (60%) of the page's kept words.
	outside80, outside60 bool
	// dataTable and layoutTable: the block is in a cell of a leaf table
	// that tables.Classify calls data or layout.
	dataTable, layoutTable bool
	// modal: an ancestor at any depth has a class or id naming a dialog
	// (modal, dialog, popup, drawer, lightbox, overlay, takeover).
	modal bool
	// dialog: the same with only "modal" or "dialog".
	dialog bool
	// dialogNode is the innermost such ancestor (-1 when none), and
	// dialogShare (set by analyse) the share of the page's kept words
	// inside it.
	dialogNode  int32
	dialogShare float64
	// alt: the block is an image's alt text alone (its container is the img).
	alt bool
	// pre: a line of preformatted text, or inside pre or code.
	pre bool
}

const (
	cueDepth = 8
	repDepth = 8
	minRep   = 3
)

// pageContext holds what the features need of the whole page.
type pageContext struct {
	p        *page.Page
	children [][]int32
	sig      []string
	table    []int8 // per block: 0 none, 1 layout, 2 data
}

func newPageContext(p *page.Page) *pageContext {
	pc := &pageContext{p: p, children: make([][]int32, len(p.Nodes)), sig: make([]string, len(p.Nodes)),
		table: make([]int8, len(p.Blocks))}
	for i := range p.Nodes {
		nd := &p.Nodes[i]
		if nd.Parent >= 0 {
			pc.children[nd.Parent] = append(pc.children[nd.Parent], int32(i))
		}
		pc.sig[i] = nd.Tag + "." + strings.Map(noDigits, nd.Class)
	}
	for ti := range p.Tables {
		t := &p.Tables[ti]
		k := int8(1)
		if tables.Classify(p, t) == tables.Data {
			k = 2
		}
		for _, c := range t.Cells {
			for b := max(c.First, 0); b < c.End && int(b) < len(p.Blocks); b++ {
				pc.table[b] = k
			}
		}
	}
	return pc
}

func noDigits(r rune) rune {
	if r >= '0' && r <= '9' {
		return -1
	}
	return r
}

func (pc *pageContext) features(i int) blockFeatures {
	p := pc.p
	b := &p.Blocks[i]
	f := blockFeatures{repGroup: -1, dialogNode: -1, words: int(b.Words), dataTable: pc.table[i] == 2, layoutTable: pc.table[i] == 1}
	if b.Chars > 0 {
		f.linkDens = float64(b.LinkChars) / float64(b.Chars)
	}
	f.alt = b.Node >= 0 && int(b.Node) < len(p.Nodes) && p.Nodes[b.Node].Tag == "img"
	var cue strings.Builder
	level := 0
	p.Ancestors(b.Node, func(n int32, nd *page.Node) bool {
		if n == p.Body {
			return false
		}
		if cueModal.MatchString(strings.ToLower(nd.ID + " " + nd.Class)) {
			f.modal = true
			if !f.dialog && cueDialog.MatchString(strings.ToLower(nd.ID+" "+nd.Class)) {
				f.dialog, f.dialogNode = true, n
			}
		}
		if level >= max(cueDepth, repDepth) {
			level++
			return true
		}
		if level < cueDepth {
			cue.WriteString(nd.ID + " " + nd.Class + " ")
			f.tags = append(f.tags, nd.Tag)
		}
		if f.rep == 0 && nd.Elements >= 2 && nd.Parent >= 0 {
			if k := pc.sameSiblings(n); k >= minRep {
				f.rep, f.repLevel, f.repGroup = k, level, nd.Parent
				f.itemBlocks = int(nd.End - nd.First)
				for j := nd.First; j < nd.End; j++ {
					f.itemWords += int(p.Blocks[j].Words)
				}
			}
		}
		level++
		return true
	})
	f.cue = strings.ToLower(cue.String())
	f.pre = b.Pre || slices.Contains(f.tags, "pre") || slices.Contains(f.tags, "code")
	return f
}

// sameSiblings counts the children of n's parent with n's signature.
func (pc *pageContext) sameSiblings(n int32) int {
	k := 0
	for _, c := range pc.children[pc.p.Nodes[n].Parent] {
		if pc.sig[c] == pc.sig[n] {
			k++
		}
	}
	return k
}
