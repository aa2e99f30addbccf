package ingest

import (
	"bytes"

	"golang.org/x/net/html"
)

// Wrapper is the CleanEval input wrapper, <text id="URL" title="..."
// encoding="...">, that surrounds every page of the CleanEval data sets.
type Wrapper struct {
	URL, Title, Encoding string
	// Open is the byte span of the opening <text ...> tag, Close the span
	// of the closing </text> (zero when absent).
	Open, Close [2]int
}

// FindWrapper looks for a CleanEval <text id=...> wrapper at the start of b
// (after white space or a UTF-8 byte order mark). It reports false when b
// does not start with one. The wrapper's attributes are ASCII in practice;
// they are read as UTF-8 and invalid bytes are kept as they are.
func FindWrapper(b []byte) (Wrapper, bool) {
	var w Wrapper
	i := 0
	if bytes.HasPrefix(b, []byte("\xef\xbb\xbf")) {
		i = 3
	}
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	if len(b)-i < 6 || !bytes.EqualFold(b[i:i+5], []byte("<text")) {
		return w, false
	}
	if c := b[i+5]; c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != '>' {
		return w, false
	}
	// Tokenize just the first tag; the tokenizer handles quoting and
	// entities in attribute values.
	end := bytes.IndexByte(b[i:], '>')
	if end < 0 {
		return w, false
	}
	z := html.NewTokenizer(bytes.NewReader(b[i : i+end+1]))
	if z.Next() != html.StartTagToken {
		return w, false
	}
	tok := z.Token()
	if tok.Data != "text" {
		return w, false
	}
	for _, a := range tok.Attr {
		switch a.Key {
		case "id":
			w.URL = a.Val
		case "title":
			w.Title = a.Val
		case "encoding":
			w.Encoding = a.Val
		}
	}
	w.Open = [2]int{i, i + end + 1}
	// The closing tag is the last </text> of the input, if any.
	tail := b[w.Open[1]:]
	if k := lastIndexFold(tail, []byte("</text>")); k >= 0 {
		w.Close = [2]int{w.Open[1] + k, w.Open[1] + k + len("</text>")}
	}
	return w, true
}

// lastIndexFold is bytes.LastIndex with ASCII case folding of sep, which
// must be lower case.
func lastIndexFold(s, sep []byte) int {
	for i := len(s) - len(sep); i >= 0; i-- {
		if s[i] == '<' && bytes.EqualFold(s[i:i+len(sep)], sep) {
			return i
		}
	}
	return -1
}
