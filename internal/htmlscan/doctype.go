package htmlscan

import "bytes"

// quirkyPublic are prefixes of the public identifiers that put a document
// in quirks mode (13.2.6.4.1, "initial" insertion mode), shortened to the
// families the spec lists: every HTML 2 and 3 DTD, the HTML 4.0
// transitional and frameset DTDs, and the vendors' own.
var quirkyPublic = []string{
	"+//silmaril//", "-//as//", "-//advasoft ltd//", "-//ietf//dtd html", "-//metrius//",
	"-//microsoft//dtd internet explorer", "-//netscape comm. corp.//", "-//o'reilly and associates//",
	"-//sq//", "-//softquad", "-//spyglass//", "-//sun microsystems corp.//", "-//w3c//dtd html 3",
	"-//w3c//dtd html 4.0 frameset//", "-//w3c//dtd html 4.0 transitional//",
	"-//w3c//dtd html experimental", "-//w3c//dtd w3 html//", "-//w3o//dtd w3 html 3.0//",
	"-//webtechs//dtd mozilla html",
}

// QuirksDoctype reports whether a doctype (the tokenizer's text of it:
// name, then PUBLIC and SYSTEM identifiers) puts the document in quirks
// mode, which matters to the tree only in that <table> then does not close
// an open <p>.
func QuirksDoctype(d []byte) bool {
	i := bytes.IndexAny(d, " \t\r\n\f")
	if i < 0 {
		i = len(d)
	}
	if string(d[:i]) != "html" {
		return true
	}
	rest := bytes.TrimLeft(d[i:], " \t\r\n\f")
	if len(rest) == 0 {
		return false
	}
	if len(rest) < 6 {
		return true
	}
	ids, ok := doctypeIDs(rest)
	if !ok {
		return true
	}
	if len(ids) > 0 && ids[0].public {
		if quirkyID(bytes.ToLower(ids[0].val), len(ids) == 1) {
			return true
		}
	}
	last := ids[len(ids)-1]
	return !last.public && bytes.EqualFold(last.val, []byte("http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd"))
}

// quirkyID reports whether a lower-case public identifier means quirks;
// alone is whether no system identifier follows it.
func quirkyID(pub []byte, alone bool) bool {
	switch string(pub) {
	case "-//w3o//dtd w3 html strict 3.0//en//", "-/w3d/dtd html 4.0 transitional/en", "html":
		return true
	}
	for _, q := range quirkyPublic {
		if bytes.HasPrefix(pub, []byte(q)) {
			return true
		}
	}
	return alone && (bytes.HasPrefix(pub, []byte("-//w3c//dtd html 4.01 frameset//")) ||
		bytes.HasPrefix(pub, []byte("-//w3c//dtd html 4.01 transitional//")))
}

// doctypeID is a PUBLIC or SYSTEM identifier of a doctype.
type doctypeID struct {
	public bool
	val    []byte
}

// doctypeIDs reads `PUBLIC "a" "b"` or `SYSTEM "b"`; ok is false when
// something else, or more, follows, or a PUBLIC identifier comes without a
// SYSTEM one (which html.Parse takes as quirks).
func doctypeIDs(s []byte) (ids []doctypeID, ok bool) {
	key := string(bytes.ToLower(s[:6]))
	s = s[6:]
	for key == "public" || key == "system" {
		s = bytes.TrimLeft(s, " \t\r\n\f")
		if len(s) == 0 || (s[0] != '"' && s[0] != '\'') {
			break
		}
		q := s[0]
		s = s[1:]
		end := bytes.IndexByte(s, q)
		var v []byte
		if end < 0 {
			v, s = s, nil
		} else {
			v, s = s[:end], s[end+1:]
		}
		ids = append(ids, doctypeID{public: key == "public", val: v})
		if key == "public" {
			key = "system"
		} else {
			key = ""
		}
	}
	return ids, key == "" && len(s) == 0
}
