package ingest

import "bytes"

// scanText finds the text tokens of an HTML document: the byte spans that
// the HTML5 tokenizer (https://html.spec.whatwg.org/#tokenization) reports
// as character data, including the content of raw-text elements. It is a
// fast, allocation-light subset of the tokenizer, used only to locate the
// parsed tree's text in the input: where it disagrees with the real
// tokenizer (script escapes, malformed markup), a text node goes without a
// span, nothing worse.
func scanText(b []byte, toks []textToken) []textToken {
	text := 0 // start of the current text run
	emit := func(end int) {
		if end > text {
			raw := b[text:end]
			esc := bytes.IndexByte(raw, '&') >= 0 || bytes.IndexByte(raw, '\r') >= 0 || bytes.IndexByte(raw, 0) >= 0
			toks = append(toks, textToken{text, end, esc})
		}
	}
	i := 0
	for {
		k := bytes.IndexByte(b[i:], '<')
		if k < 0 {
			emit(len(b))
			return toks
		}
		lt := i + k
		if lt+1 >= len(b) {
			emit(len(b))
			return toks
		}
		c := b[lt+1]
		var end int // end of the markup that starts at lt, or -1 if lt is text
		switch {
		case isASCIILetter(c):
			name, e := tagEnd(b, lt+1)
			end = e
			if rawTextElement(name) {
				emit(lt)
				text = end
				close := findEndTag(b, end, name)
				emit(close)
				text, i = close, close
				continue
			}
		case c == '/' && lt+2 < len(b) && isASCIILetter(b[lt+2]):
			_, end = tagEnd(b, lt+2)
		case c == '/' && lt+2 < len(b) && b[lt+2] == '>':
			end = lt + 3 // "</>" is dropped
		case c == '!' && bytes.HasPrefix(b[lt+2:], []byte("--")):
			end = commentEnd(b, lt+4)
		case c == '!' || c == '?' || c == '/':
			end = indexFrom(b, lt+1, '>')
		default:
			end = -1
		}
		if end < 0 {
			i = lt + 1
			continue
		}
		emit(lt)
		text, i = end, end
	}
}

// tagEnd returns the lower-cased-comparable name of the tag whose name
// starts at i and the offset just past its closing '>' (or len(b)).
func tagEnd(b []byte, i int) (name []byte, end int) {
	j := i
	for j < len(b) && b[j] != ' ' && b[j] != '\t' && b[j] != '\n' && b[j] != '\r' && b[j] != '\f' && b[j] != '/' && b[j] != '>' {
		j++
	}
	name = b[i:j]
	// Attributes: quotes matter only in values, after '='.
	for j < len(b) {
		switch b[j] {
		case '>':
			return name, j + 1
		case '=':
			j++
			for j < len(b) && (b[j] == ' ' || b[j] == '\t' || b[j] == '\n' || b[j] == '\r' || b[j] == '\f') {
				j++
			}
			if j < len(b) && (b[j] == '"' || b[j] == '\'') {
				q := indexFrom(b, j+1, b[j])
				if q < 0 {
					return name, len(b)
				}
				j = q
				continue
			}
			continue
		}
		j++
	}
	return name, len(b)
}

// rawTextElement reports whether the tokenizer reads the content of the
// element as text up to its end tag (noscript is not one: sluice parses with
// scripting disabled).
func rawTextElement(name []byte) bool {
	switch len(name) {
	case 3:
		return bytes.EqualFold(name, []byte("xmp"))
	case 5:
		return bytes.EqualFold(name, []byte("style")) || bytes.EqualFold(name, []byte("title"))
	case 6:
		return bytes.EqualFold(name, []byte("script")) || bytes.EqualFold(name, []byte("iframe"))
	case 7:
		return bytes.EqualFold(name, []byte("noembed"))
	case 8:
		return bytes.EqualFold(name, []byte("textarea")) || bytes.EqualFold(name, []byte("noframes"))
	case 9:
		return bytes.EqualFold(name, []byte("plaintext"))
	}
	return false
}

// findEndTag returns the offset of the end tag </name> at or after i that
// ends a raw-text element, or len(b).
func findEndTag(b []byte, i int, name []byte) int {
	if bytes.EqualFold(name, []byte("plaintext")) {
		return len(b)
	}
	for {
		k := bytes.Index(b[i:], []byte("</"))
		if k < 0 {
			return len(b)
		}
		j := i + k + 2
		if j+len(name) <= len(b) && bytes.EqualFold(b[j:j+len(name)], name) {
			if e := j + len(name); e == len(b) || b[e] == '>' || b[e] == '/' || b[e] == ' ' || b[e] == '\t' || b[e] == '\n' || b[e] == '\r' || b[e] == '\f' {
				return i + k
			}
		}
		i = j
	}
}

// commentEnd returns the offset just past the comment whose body starts at
// i ("-->", "--!>", or the "<!-->" and "<!--->" abrupt endings), or len(b).
func commentEnd(b []byte, i int) int {
	if i < len(b) && b[i] == '>' {
		return i + 1
	}
	if i+1 < len(b) && b[i] == '-' && b[i+1] == '>' {
		return i + 2
	}
	for j := i; j < len(b); {
		k := bytes.Index(b[j:], []byte("--"))
		if k < 0 {
			return len(b)
		}
		e := j + k + 2
		for e < len(b) && b[e] == '-' {
			e++
		}
		if e < len(b) && b[e] == '>' {
			return e + 1
		}
		if e+1 < len(b) && b[e] == '!' && b[e+1] == '>' {
			return e + 2
		}
		j = e
	}
	return len(b)
}

func indexFrom(b []byte, i int, c byte) int {
	if i >= len(b) {
		return -1
	}
	if k := bytes.IndexByte(b[i:], c); k >= 0 {
		return i + k + 1
	}
	return -1
}
