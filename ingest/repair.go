package ingest

import "bytes"

// rawTextTags are the elements whose content the tokenizer reads as text up
// to their end tag; when that end tag is missing they swallow the rest of
// the page. Crawled pages lose end tags when they are cut or mangled: many
// L3S-GN1 pages have a <title> whose </title> was lost.
var rawTextTags = [...]string{"title", "textarea", "script", "style", "xmp"}

// repairUnclosed blanks (with spaces, so that byte offsets stay as they are)
// the last start tag of each raw-text element that has no end tag after it,
// so that the page after it is parsed as markup, not swallowed as text. It
// returns b itself when nothing needs repair, else a repaired copy.
func repairUnclosed(b []byte) ([]byte, bool) {
	var lastStart, lastEnd [len(rawTextTags)]int
	for i := range lastStart {
		lastStart[i], lastEnd[i] = -1, -1
	}
	for i := 0; ; {
		k := bytes.IndexByte(b[i:], '<')
		if k < 0 {
			break
		}
		i += k + 1
		end := false
		j := i
		if j < len(b) && b[j] == '/' {
			end = true
			j++
		}
		for t, name := range rawTextTags {
			if hasTagName(b[j:], name) {
				if end {
					lastEnd[t] = i - 1
				} else {
					lastStart[t] = i - 1
				}
				break
			}
		}
	}
	var out []byte
	for t := range rawTextTags {
		s := lastStart[t]
		if s < 0 || lastEnd[t] > s {
			continue
		}
		gt := bytes.IndexByte(b[s:], '>')
		if gt < 0 {
			continue
		}
		if out == nil {
			out = bytes.Clone(b)
		}
		blank(out[s : s+gt+1])
	}
	if out == nil {
		return b, false
	}
	return out, true
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
