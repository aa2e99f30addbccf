package htmltree

import (
	"bytes"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/sluice-project/sluice/internal/htmlscan"
)

// The text of a <script> or <style> element is raw: it ends at the first
// "</script" or "</style" followed by white space, '/' or '>', and nothing
// in it is a tag or a character reference. The tokenizer finds that end a
// byte at a time, through a state machine; on today's pages, whose scripts
// and styles are often most of the bytes, that walk was about 5% of Clean.
// The builder finds the end itself, with bytes.Index, and hands the
// tokenizer the input from there on, as if the text had been read.
//
// To do that the tokenizer must not have read past the start tag, which
// the reader it reads from (htmlscan.Reader) sees to: it hands over the
// input in pieces that end just after a '>'. Where anything is not as
// expected
// (the tokenizer holds bytes past the tag; the element is in foreign
// content, where its text is not raw; the text holds "<!--", where the
// end of a script's text follows the HTML standard's escape states; no end
// tag), the tokenizer reads the text itself, as before.

// skipRaw takes, after a start tag of type tt, its element's raw text as
// the next token, when it can (see above), and tells the reader where the
// tokenizer has got to.
func (b *Builder) skipRaw(tt html.TokenType) {
	if (tt == html.StartTagToken || tt == html.SelfClosingTagToken) && b.rawNext && !b.noRawSkip && b.rd.Pos == b.pos {
		name := ""
		switch b.tok.atom {
		case atom.Script:
			name = "script"
		case atom.Style:
			name = "style"
		}
		if name != "" {
			// (Only then: RawTextEnd with no name would search the rest
			// of the page after every tag.)
			if end, ok := htmlscan.RawTextEnd(b.tree.src, b.pos, name); ok && end > b.pos {
				b.rd.Pos = end
				b.rawTextToken(end)
				b.process()
				b.pos = end
			}
		}
	}
	b.rd.Passed(b.pos)
}

// rawTextToken makes the raw text from b.pos to end the current token, as
// the tokenizer's Text gives a script's or a style's: carriage returns
// (alone or before a line feed) as line feeds and NUL as U+FFFD, nothing
// else decoded.
func (b *Builder) rawTextToken(end int) {
	raw := b.tree.src[b.pos:end]
	b.tok = token{typ: html.TextToken, raw: Span{int32(b.pos), int32(end)}}
	if bytes.IndexByte(raw, '\r') < 0 && bytes.IndexByte(raw, 0) < 0 {
		b.tok.data = str{off: uint32(b.pos), n: uint32(len(raw))}
		return
	}
	d := htmlscan.AppendRawText(make([]byte, 0, len(raw)), raw)
	b.tok.data = b.textStr(d)
}

// notRawText tells the tokenizer that the start tag just read does not
// open raw text (as in foreign content, or a <noscript> read with
// scripting off), and the builder not to take the text as raw.
func (b *Builder) notRawText() {
	b.z.NextIsNotRawText()
	b.rawNext = false
}
