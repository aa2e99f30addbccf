package ingest

import (
	"bytes"

	"github.com/sluice-project/sluice/charsetguess"
)

// detectStatistically guesses the encoding of b, which is neither valid
// UTF-8 nor declared believably, from its text (package charsetguess). It
// fails when the text holds too few letters to tell.
func detectStatistically(b []byte) (Charset, bool) {
	sample := textSample(b, maxSample)
	if charsetguess.FirstNonASCII(sample) == len(sample) {
		// Non-ASCII bytes only in markup: look at the raw bytes.
		sample = b[:min(len(b), maxSample)]
	}
	name, ok := charsetguess.Guess(sample)
	if !ok {
		return Charset{}, false
	}
	return lookupLabel(name)
}

// textSample strips markup crudely from b: tags, comments, and the contents
// of script and style elements are replaced by a line break, so that
// statistics see the page's text rather than ASCII markup (and spaces
// only where the text has them). It returns at most max bytes.
func textSample(b []byte, max int) []byte {
	out := make([]byte, 0, min(len(b), max))
	brk := func() {
		if len(out) > 0 && out[len(out)-1] != '\n' {
			out = append(out, '\n')
		}
	}
	for i := 0; i < len(b) && len(out) < max; {
		j := bytes.IndexByte(b[i:], '<')
		if j < 0 {
			j = len(b) - i
		}
		out = append(out, b[i:i+min(j, max-len(out))]...)
		i += j
		if i >= len(b) {
			break
		}
		rest := b[i:]
		switch {
		case bytes.HasPrefix(rest, []byte("<!--")):
			k := bytes.Index(rest[4:], []byte("-->"))
			if k < 0 {
				return out
			}
			i += 4 + k + 3
			brk()
		case len(rest) >= 2 && (isASCIILetter(rest[1]) || rest[1] == '/' || rest[1] == '!' || rest[1] == '?'):
			k := bytes.IndexByte(rest, '>')
			if k < 0 {
				return out
			}
			n := 1
			for n < k && isASCIILetter(rest[n]) {
				n++
			}
			name := rest[1:n]
			i += k + 1
			if equalFold(name, "script") || equalFold(name, "style") {
				i = skipRawText(b, i, name)
			}
			brk()
		default:
			out = append(out, '<')
			i++
		}
	}
	return out
}
