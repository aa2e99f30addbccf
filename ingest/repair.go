package ingest

import (
	"bytes"
	"fmt"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

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
// blanked with its text up to where markup clearly resumes (see resumeAt),
// or to the end when it does not, and the rest is parsed. repairUnclosed
// returns b itself when nothing needs repair, else a repaired copy.
func repairUnclosed(b []byte) ([]byte, []rawFix) {
	if !mayBeUnclosed(b) {
		return b, nil
	}
	var fixes []rawFix
	out, cloned := b, false
	for pos := 0; pos < len(out); {
		at, tag, content := unclosedRaw(out[pos:])
		if at < 0 {
			break
		}
		f := rawFix{tag: tag, at: pos + at, resume: pos + content}
		if tag != "title" && tag != "xmp" {
			f.resume = resumeAt(out, tag, f.resume)
		}
		fixes = append(fixes, f)
		if !cloned {
			out, cloned = bytes.Clone(b), true
		}
		pos = f.resume
		if pos < 0 {
			pos = len(out)
		}
		blank(out[f.at:pos])
	}
	return out, fixes
}

// mayBeUnclosed reports whether the last start tag of one of
// rawTextElements in b has no end tag after it: a quick scan, without tokenizing, that tells
// whether unclosedRaw needs to run.
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
// returns the offset of the start tag of the element of rawTextElements whose
// text runs to the end of b, its name and the offset of its text; at is -1
// when there is none.
func unclosedRaw(b []byte) (at int, tag string, content int) {
	z := html.NewTokenizer(bytes.NewReader(b))
	for pos := 0; ; {
		tt := z.Next()
		n := len(z.Raw())
		switch tt {
		case html.ErrorToken:
			return -1, "", 0
		case html.StartTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			if atom.Lookup(name) == atom.Noscript {
				z.NextIsNotRawText()
			}
			if isRawText(name) {
				tag := string(name)
				start := pos
				pos += n
				if tt = z.Next(); tt == html.TextToken {
					pos += len(z.Raw())
					tt = z.Next()
				}
				if tt == html.ErrorToken {
					return start, tag, start + n
				}
				n = len(z.Raw()) // the end tag
			}
		}
		pos += n
	}
}

// resumeAt returns the offset in b, at or after the start i of the text of
// an unclosed element tag, where markup clearly resumes, or -1. It is i
// itself when the start tag is self-closing (<script src=... />, a common
// mistake: HTML ignores the slash) and where the text opens with a tag (a
// <script src=...> that lost its end tag). Otherwise, in a script, whose
// code holds '<' in comparisons and HTML in strings, it is the first tag of
// the page's structure (<body>, </head>, </body>, </html>); in the others,
// the first start or end tag.
func resumeAt(b []byte, tag string, i int) int {
	if i >= 2 && b[i-2] == '/' {
		return i
	}
	if j := i + len(b[i:]) - len(bytes.TrimLeft(b[i:], " \t\r\n\f")); isTag(b[j:]) {
		return j
	}
	for j := i; ; j++ {
		k := bytes.IndexByte(b[j:], '<')
		if k < 0 {
			return -1
		}
		j += k
		if tag != "script" && isTag(b[j:]) || tag == "script" && structureTag(b[j+1:]) {
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
