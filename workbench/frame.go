package workbench

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/sluice-project/sluice/ingest"
	"github.com/sluice-project/sluice/page"
)

// frameHead opens the document the Inspect view shows in its sandboxed
// frame: a policy that loads nothing but inline styles and data: images
// (no scripts, no requests to the page's servers), and the look of the
// kept (sl-k) and dropped (sl-d) blocks.
const frameHead = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:">` +
	`<style>.sl-k{background:rgba(255,214,10,.45)!important;outline:1px solid rgba(180,130,0,.7)}` +
	`.sl-d{opacity:.35;filter:grayscale(1);text-decoration:line-through rgba(0,0,0,.25)}` +
	`[data-b]:hover{outline:2px solid #0b57d0!important;opacity:1}</style>`

// dropElements are removed with their content from the framed page:
// they run code, load other documents or change where the frame goes.
var dropElements = map[atom.Atom]bool{
	atom.Script: true, atom.Iframe: true, atom.Frame: true, atom.Base: true,
	atom.Link: true, atom.Embed: true, atom.Applet: true,
}

// rawElements hold text that is not markup: their text is not wrapped.
var rawElements = map[atom.Atom]bool{
	atom.Title: true, atom.Textarea: true, atom.Style: true, atom.Xmp: true,
	atom.Noscript: true, atom.Noembed: true, atom.Noframes: true, atom.Plaintext: true,
}

// blockTitle is what a block's mark in the frame says on hover, and the
// Inspect view's script writes the same when the threshold moves.
func blockTitle(role string, score float64, kept bool) string {
	state := "dropped"
	if kept {
		state = "kept"
	}
	return fmt.Sprintf("%s · %.3f · %s", role, score, state)
}

// frameWriter rewrites a page for the frame.
type frameWriter struct {
	out    strings.Builder
	text   []byte            // the page decoded to UTF-8
	orig   *ingest.OffsetMap // decoded offsets to input offsets; nil: the same
	blocks []page.Block
	order  []int // block indices by source start, those with a span
	next   int   // first of order that may still overlap the text to come
	roles  []string
}

// frameDoc rewrites the page src (in any charset, as given to the cleaner
// with contentType) for the Inspect view's frame: in UTF-8, without
// scripts, frames, links, base and meta http-equiv elements, event
// handler attributes or link targets, and with each run of text inside a
// block's source span wrapped in a span marking it kept (sl-k) or dropped
// (sl-d), titled with its role and score. Text tokens never cross tags,
// so the wrapping keeps the tree as it was.
func frameDoc(src []byte, contentType string, p *page.Page, roles []string) string {
	w, _ := ingest.FindWrapper(src)
	text, m := ingest.DetectCharset(src, contentType, w.Encoding).Decode(src)
	f := &frameWriter{text: text, orig: m, blocks: p.Blocks, roles: roles}
	for i, b := range p.Blocks {
		if b.Source.End > b.Source.Start {
			f.order = append(f.order, i)
		}
	}
	sort.SliceStable(f.order, func(a, b int) bool {
		return p.Blocks[f.order[a]].Source.Start < p.Blocks[f.order[b]].Source.Start
	})
	f.out.Grow(len(text) + len(frameHead) + 80*len(f.order))
	f.rewrite()
	return f.out.String()
}

// rewrite copies the page token by token.
func (f *frameWriter) rewrite() {
	z := html.NewTokenizer(bytes.NewReader(f.text))
	z.SetMaxBuf(0)
	pos, headDone := 0, false
	var skip, raw atom.Atom // inside a dropped element / a raw text element
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			if z.Err() != io.EOF {
				f.out.Write(z.Raw())
			}
			break
		}
		rawTok := z.Raw()
		start := pos
		pos += len(rawTok)
		if !headDone && tt != html.DoctypeToken && tt != html.CommentToken &&
			!(tt == html.TextToken && len(bytes.TrimSpace(rawTok)) == 0) {
			f.out.WriteString(frameHead)
			headDone = true
		}
		if skip != 0 {
			if tt == html.EndTagToken && tagAtom(z) == skip {
				skip = 0
			}
			continue
		}
		switch tt {
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			raw = 0
			if dropElements[tok.DataAtom] || tok.DataAtom == atom.Meta && hasAttr(tok, "http-equiv") {
				if tt == html.StartTagToken && (tok.DataAtom == atom.Script || tok.DataAtom == atom.Iframe) {
					skip = tok.DataAtom
				}
				continue
			}
			if rawElements[tok.DataAtom] && tt == html.StartTagToken {
				raw = tok.DataAtom
			}
			f.startTag(tok, rawTok)
		case html.TextToken:
			if raw != 0 {
				f.out.Write(rawTok)
			} else {
				f.textRun(start, pos)
			}
		default:
			if tt == html.EndTagToken {
				raw = 0
			}
			f.out.Write(rawTok)
		}
	}
	if !headDone {
		f.out.WriteString(frameHead)
	}
}

// tagAtom is the atom of the tag z is at.
func tagAtom(z *html.Tokenizer) atom.Atom {
	name, _ := z.TagName()
	return atom.Lookup(name)
}

func hasAttr(tok html.Token, key string) bool {
	for _, a := range tok.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}

// startTag writes a start tag, rebuilt without the attributes that run
// code or navigate when it has any, else as it was.
func (f *frameWriter) startTag(tok html.Token, rawTok []byte) {
	kept := tok.Attr[:0:0]
	for _, a := range tok.Attr {
		k := a.Key
		switch {
		case strings.HasPrefix(k, "on"), k == "href", k == "xlink:href", k == "action",
			k == "formaction", k == "srcdoc", k == "ping", k == "target":
			continue
		}
		kept = append(kept, a)
	}
	if len(kept) == len(tok.Attr) {
		f.out.Write(rawTok)
		return
	}
	tok.Attr = kept
	f.out.WriteString(tok.String())
}

// textRun writes the text token at [a, b) of the decoded text, its parts
// inside blocks' spans wrapped in marks.
func (f *frameWriter) textRun(a, b int) {
	oa, ob := f.orig.Original(a), f.orig.Original(b)
	for f.next < len(f.order) && f.blocks[f.order[f.next]].Source.End <= oa {
		f.next++
	}
	cur := a
	for j := f.next; j < len(f.order); j++ {
		bi := f.order[j]
		s := f.blocks[bi].Source
		if s.Start >= ob {
			break
		}
		da, db := f.decoded(max(s.Start, oa), a, b), f.decoded(min(s.End, ob), a, b)
		if da < cur || db <= da || len(bytes.TrimSpace(f.text[da:db])) == 0 {
			continue
		}
		f.out.Write(f.text[cur:da])
		bl := &f.blocks[bi]
		kept := bl.Label != page.Other
		class := "sl-d"
		if kept {
			class = "sl-k"
		}
		fmt.Fprintf(&f.out, `<span class="%s" data-b="%d" title="%s">`, class, bi, html.EscapeString(blockTitle(f.roles[bi], bl.Score, kept)))
		f.out.Write(f.text[da:db])
		f.out.WriteString("</span>")
		cur = db
	}
	f.out.Write(f.text[cur:b])
}

// decoded returns the first offset in [a, b] of the decoded text whose
// input offset is at least off.
func (f *frameWriter) decoded(off, a, b int) int {
	return a + sort.Search(b-a, func(i int) bool { return f.orig.Original(a+i) >= off })
}
