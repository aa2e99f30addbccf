package parsertext

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sluice-project/sluice/tables"
	"golang.org/x/net/html/atom"
)

// minLinkWords is the fewest words an item of a link list keeps.
const minLinkWords = 5

// bullet matches a hand-written bullet at the start of an item: a symbol,
// or a number, letter or small roman numeral followed by ')' or '.', and
// then white space.
var bullet = regexp.MustCompile(`^(?:[*\-–—•·▪◦‣○●■□➢➤→>+]+|\(?(?:\d{1,3}|[a-zA-Z]|[ivxlc]{1,6})[).])\s+`)

// stripBullet removes a hand-written bullet from the start of s.
func stripBullet(s string) string {
	if loc := bullet.FindStringIndex(s); loc != nil {
		return strings.TrimSpace(s[loc[1]:])
	}
	return s
}

// text is one output text of emit: one or more sentences, or
// preformatted lines when pre is set.
type text struct {
	text string
	pre  bool
}

// emit turns pieces into texts. A paragraph
// or heading ending with a colon is held back as the introduction of a
// list that follows it.
func emit(pcs []piece, lang *language, removed func(string, string)) []text {
	var out []text
	add := func(s ...string) {
		for _, x := range s {
			out = append(out, text{text: x})
		}
	}
	intro := ""
	flush := func() {
		if intro != "" {
			add(terminate(intro))
			intro = ""
		}
	}
	for i := range pcs {
		pc := &pcs[i]
		if pc.kind == kPre {
			flush()
			out = append(out, text{text: pc.text, pre: true})
			continue
		}
		if pc.kind == kLines {
			flush()
			// A row's clause is split like any text: a cell holding
			// sentences gives them a line each.
			add(strings.Split(pc.text, "\n")...)
			continue
		}
		if pc.kind != kList {
			flush()
			if strings.HasSuffix(pc.text, ":") {
				intro = pc.text
				continue
			}
			add(terminate(pc.text))
			continue
		}
		items := listItems(pc, removed)
		if intro == "" || pc.nested || len(items) == 0 {
			flush()
			for _, it := range items {
				add(terminate(it))
			}
			continue
		}
		add(flatten(nil, intro, items, lang)...)
		intro = ""
	}
	flush()
	return out
}

// listItems returns the texts of the items of list pc that are kept:
// bullets stripped, the short items of a link list removed.
func listItems(pc *piece, removed func(string, string)) []string {
	linkList := true
	for _, it := range pc.items {
		linkList = linkList && it.links
	}
	out := make([]string, 0, len(pc.items))
	descs := -1 // descriptions joined to the last item, a dt; -1: not a dt
	for _, it := range pc.items {
		t := stripBullet(it.text)
		if linkList && len(strings.Fields(t)) < minLinkWords {
			if removed != nil {
				removed(it.text, ReasonLinkItem)
			}
			descs = -1
			continue
		}
		if t == "" {
			continue
		}
		if n := len(out); descs >= 0 && it.kind == atom.Dd {
			out[n-1] = describe(out[n-1], t, descs)
			descs++
			continue
		}
		out = append(out, t)
		descs = -1
		if it.kind == atom.Dt {
			descs = 0
		}
	}
	return out
}

// describe joins description desc of a definition list to its term as a
// reader takes them: "Wheel: turned by water", and a further description
// after a semicolon. A term that already ends with punctuation keeps it.
func describe(term, desc string, before int) string {
	sep, ends := ": ", ":.?!;,"
	if before > 0 {
		sep, ends = "; ", ".?!;,"
	}
	if strings.ContainsAny(term[len(term)-1:], ends) {
		sep = " "
	}
	return term + sep + desc
}

// flatten appends the sentences of a one-level list with its introduction
// intro, which ends with a colon (Kitten 3.2.3).
func flatten(out []string, intro string, items []string, lang *language) []string {
	clause := strings.TrimSpace(strings.TrimSuffix(intro, ":"))
	if lang.triggers[lastWord(clause)] {
		for _, it := range items {
			out = append(out, terminate(clause+" "+lowerFirst(it)))
		}
		return out
	}
	if !tables.Enumerable(items, intro) {
		out = append(out, terminate(intro)) // a sentence of its own, as the items are
		for _, it := range items {
			out = append(out, terminate(it))
		}
		return out
	}
	return append(out, terminate(intro+" "+tables.Enumerate(items)))
}

// lowerFirst returns item it with its first word in lower case when the
// word is capitalised only as the item's start ("Show how ..." after "The
// aims were to"): a word with one capital, followed by a word in lower
// case. Names ("New York", "Chrome OS") and acronyms keep their case.
func lowerFirst(it string) string {
	f := strings.Fields(it)
	if len(f) < 2 {
		return it
	}
	first, n := utf8.DecodeRuneInString(f[0])
	second, _ := utf8.DecodeRuneInString(f[1])
	rest := f[0][n:]
	if !unicode.IsUpper(first) || !unicode.IsLower(second) || rest == "" || strings.ToLower(rest) != rest {
		return it
	}
	return string(unicode.ToLower(first)) + it[n:]
}

// lastWord returns the last word of s, lower case, without punctuation
// around it.
func lastWord(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return strings.ToLower(strings.Trim(f[len(f)-1], `.,;:!?"'()[]«»“”`))
}
