package ingest

import (
	"bytes"
	"fmt"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// maxRawFixes is the most unclosed elements repairUnclosed repairs in a
// page; beyond them, the parser reads the page as it is.
const maxRawFixes = 8

// rawFix is the repair of one element that reads raw text and runs to the
// end of the input.
type rawFix struct {
	tag    string
	at     int // the offset of its start tag
	resume int // where markup resumes, after the blanked part; -1: nowhere
}

// warning describes the fix for Document.Warnings; original maps an offset
// of the repaired text to the input.
func (f rawFix) warning(original func(int) int) string {
	switch {
	case f.tag == "title" || f.tag == "xmp":
		return fmt.Sprintf("<%s> at byte %d was not closed: its start tag was ignored and its text read as the page's", f.tag, original(f.at))
	case f.resume < 0:
		return fmt.Sprintf("<%s> at byte %d was not closed: its text to the end of the page was dropped", f.tag, original(f.at))
	}
	return fmt.Sprintf("<%s> at byte %d was not closed: its text was dropped up to the markup at byte %d", f.tag, original(f.at), original(f.resume))
}

// repairUnclosed repairs the elements that read raw text (rawTextElements)
// and are not closed before the end of b, which would swallow the rest of
// the page: crawled pages lose end tags when they are cut or mangled (many
// L3S-GN1 pages have a <title> whose </title> was lost; a page cut at
// Options.MaxBytes or by a crawler often ends inside an inline script or
// stylesheet). Bytes are blanked with spaces, so that offsets stay as they
// are. A title or xmp, whose text is shown, loses its start tag, so that
// its text and the page after it are read as markup. An element whose text
// is not the page's (script, style, textarea, iframe, noembed, noframes) is
// blanked with its text up to where markup clearly resumes (see
// unclosedRaw), or to the end when it does not, and the rest is parsed.
// repairUnclosed returns b itself when nothing needs repair, else a
// repaired copy.
func repairUnclosed(b []byte) ([]byte, []rawFix) {
	// Each repair tokenizes the rest of the page: maxRawFixes bounds the
	// cost on a page of a thousand unclosed <style> tags.
	if !mayBeUnclosed(b) {
		return b, nil
	}
	var fixes []rawFix
	out, cloned := b, false
	for pos := 0; pos < len(out) && len(fixes) < maxRawFixes; {
		f, ok := unclosedRaw(out[pos:])
		if !ok {
			break
		}
		f.at += pos
		end := len(out)
		if f.resume >= 0 {
			f.resume += pos
			end = f.resume
		}
		fixes = append(fixes, f)
		if !cloned {
			out, cloned = bytes.Clone(b), true
		}
		blank(out[f.at:end])
		pos = end
	}
	return out, fixes
}

// rawTextInitial marks the first letters of rawTextElements (lower
// case), so that mayBeUnclosed compares the names only after a tag that
// may be one of them.
var rawTextInitial = func() (t [256]bool) {
	for _, name := range rawTextElements {
		t[name[0]] = true
	}
	return t
}()

// mayBeUnclosed reports whether the last start tag of one of
// rawTextElements in b has no end tag after it: a quick scan, without
// tokenizing, that tells whether unclosedRaw needs to run.
func mayBeUnclosed(b []byte) bool {
	var lastStart, lastEnd [len(rawTextElements)]int
	for i := 0; ; {
		k := bytes.IndexByte(b[i:], '<')
		if k < 0 {
			break
		}
		i += k + 1
		end := i < len(b) && b[i] == '/'
		j := i
		if end {
			j++
		}
		if j >= len(b) || !rawTextInitial[b[j]|0x20] {
			continue
		}
		for t, name := range rawTextElements {
			if hasTagName(b[j:], name) {
				if end {
					lastEnd[t] = i
				} else {
					lastStart[t] = i
				}
				break
			}
		}
	}
	for t := range rawTextElements {
		if lastStart[t] > lastEnd[t] {
			return true
		}
	}
	return false
}

// unclosedRaw tokenizes b as the parser does (with scripting disabled) and
// returns the repair of the element of rawTextElements whose text runs to
// the end of b, if there is one. Its resume is the start of its text for a
// title or xmp; for the others, it is where markup clearly resumes in that
// text, or -1. That is at once when the start tag is self-closing
// (<script src=... />, a common mistake: HTML ignores the slash); in a
// script with no src attribute, whose code holds '<' in comparisons and
// HTML in strings, at the first tag of the page's structure (<body>,
// </head>, </body>, </html>); in the others, at the first start or end tag.
func unclosedRaw(b []byte) (rawFix, bool) {
	z := html.NewTokenizer(bytes.NewReader(b))
	for pos := 0; ; {
		tt := z.Next()
		n := len(z.Raw())
		switch tt {
		case html.ErrorToken:
			return rawFix{}, false
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			if atom.Lookup(name) == atom.Noscript {
				z.NextIsNotRawText()
			}
			if !isRawText(name) {
				break
			}
			f := rawFix{tag: string(name), at: pos, resume: pos + n}
			code := f.tag == "script" && !hasAttribute(z, hasAttr, "src")
			pos += n
			if tt2 := z.Next(); tt2 == html.TextToken {
				pos += len(z.Raw())
			} else if tt2 != html.ErrorToken {
				pos += len(z.Raw())
				continue // closed at once
			}
			if z.Err() == nil && z.Next() != html.ErrorToken {
				n = len(z.Raw()) // the end tag
				break
			}
			if f.tag != "title" && f.tag != "xmp" && tt != html.SelfClosingTagToken {
				f.resume = resumeAt(b, f.resume, code)
			}
			return f, true
		}
		pos += n
	}
}

// hasAttribute reports whether the current start tag of z has the
// attribute key; hasAttr is what z.TagName returned.
func hasAttribute(z *html.Tokenizer, hasAttr bool, key string) bool {
	for hasAttr {
		var k []byte
		k, _, hasAttr = z.TagAttr()
		if string(k) == key {
			return true
		}
	}
	return false
}

// resumeAt returns the offset of the first tag in b at or after i, or, when
// code is set, of the first tag of the page's structure; -1 when there is
// none.
func resumeAt(b []byte, i int, code bool) int {
	for j := i; ; j++ {
		k := bytes.IndexByte(b[j:], '<')
		if k < 0 {
			return -1
		}
		j += k
		if !code && isTag(b[j:]) || code && structureTag(b[j+1:]) {
			return j
		}
	}
}

// isTag reports whether b opens with a start or end tag: '<' or "</" and a
// letter.
func isTag(b []byte) bool {
	if len(b) < 2 || b[0] != '<' {
		return false
	}
	c := b[1]
	if c == '/' && len(b) > 2 {
		c = b[2]
	}
	return c|0x20 >= 'a' && c|0x20 <= 'z'
}

// structureTag reports whether b, after a '<', is <body>, </head>, </body>
// or </html>.
func structureTag(b []byte) bool {
	if hasTagName(b, "body") {
		return true
	}
	if len(b) == 0 || b[0] != '/' {
		return false
	}
	return hasTagName(b[1:], "head") || hasTagName(b[1:], "body") || hasTagName(b[1:], "html")
}

// hasTagName reports whether b starts with the tag name name (ASCII case
// insensitive) followed by a character that ends a tag name.
func hasTagName(b []byte, name string) bool {
	if len(b) <= len(name) {
		return false
	}
	for i := 0; i < len(name); i++ {
		if b[i]|0x20 != name[i] {
			return false
		}
	}
	switch b[len(name)] {
	case '>', ' ', '\t', '\n', '\r', '\f', '/':
		return true
	}
	return false
}
