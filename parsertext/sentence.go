package parsertext

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sluice-project/sluice/tables"
	"github.com/sluice-project/sluice/textunit"
)

// The sentence splitter is deliberately simple (Kitten 3.3 asks only that
// a parser gets one sentence at a time):
//
//   - a sentence ends after '.', '!', '?' or '…' (with any closing quotes
//     and brackets, and citation marks such as "[18]", after it) when
//     white space and then an upper-case letter, a digit or an opening
//     quote or bracket follow;
//   - except after '.' that ends a known abbreviation of the page's
//     language (lang/abbreviations) or a single letter ("J. Smith");
//   - so does an emoticon (":)", ";-)", ":-P") followed by a capital;
//   - a CJK full stop, exclamation or question mark ('。', '！', '？',
//     '．') ends a sentence whatever follows;
//   - a sentence of more than longWords words is cut after each of its
//     semicolons and at the separators of a row of items (" | ", " // ",
//     " • ", " · "), each piece ending with a full stop (cutLong);
//   - a shorter sentence with such item separators ("Home | News |
//     Sport", "32.3 km/h | 20.1 mph") is a list written on one line, and
//     is read as Kitten reads a list (3.2.3): an enumeration with commas,
//     or one sentence an item when the items are long (itemRow).

// closers may follow terminal punctuation inside its sentence.
const closers = `"')]}»”’」』）`

// openers may start a sentence before its first letter (">" and ">>"
// mark a quoted line or a "see also" link: ">> See Also: ...").
const openers = `"'([{«“‘「『（¿¡>`

// cjkStop reports whether r ends a sentence with nothing after it.
func cjkStop(r rune) bool { return r == '。' || r == '！' || r == '？' || r == '．' }

// latinStop reports whether r may end a sentence before a space.
func latinStop(r rune) bool { return r == '.' || r == '!' || r == '?' || r == '…' }

// endsSentence reports whether s ends with terminal punctuation, closing
// quotes and brackets aside.
func endsSentence(s string) bool {
	if emoticon(strings.TrimRight(s, " \t\n")) {
		return true
	}
	s = strings.TrimRight(s, " \t\n"+closers)
	r, _ := utf8.DecodeLastRuneInString(s)
	return latinStop(r) || cjkStop(r)
}

// terminate returns s ending in terminal punctuation: s itself when it
// has some, else s with a trailing ',', ';' or ':' replaced by a full
// stop, else s with a full stop added. Brackets and dashes are kept.
func terminate(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || endsSentence(s) {
		return s
	}
	if emoticon(s) {
		return s
	}
	s = strings.TrimRight(s, ",;: ")
	if s == "" {
		return s
	}
	return s + "."
}

// emoticon reports whether s ends with an emoticon such as ":)", ";-)"
// or ":(", which ends its sentence as a full stop would.
func emoticon(s string) bool {
	face := strings.TrimRight(s, ")(DPp")
	if mouth := len(s) - len(face); mouth == 0 || mouth > 3 {
		return false
	}
	face = strings.TrimSuffix(face, "-")
	return strings.HasSuffix(face, ":") || strings.HasSuffix(face, ";") || strings.HasSuffix(face, "=")
}

// closesSentence reports whether s ends with an emoticon that ends a
// sentence when a capital follows: one with a bracket for a mouth
// ("great :)", "ok;-("), or one with a letter (":P", ";-D") that stands
// as a word of its own, so that "Note:P" or "HTTP:D" are left alone.
func closesSentence(s string) bool {
	if !emoticon(s) {
		return false
	}
	if strings.HasSuffix(s, ")") || strings.HasSuffix(s, "(") {
		return true
	}
	w := s[strings.LastIndexAny(s, " \t\n")+1:]
	return strings.ContainsAny(w[:1], ":;=")
}

// longWords is the most words a sentence of the parser format keeps
// before cutLong cuts it at its clause and item separators. Link Grammar
// finds a complete linkage for about two thirds of the sentences of under
// 30 words of the kept text of the shared pages, a third of those of 60
// to 79 words and none above 80 (docs/parsing.md); a sentence that long
// is nearly always a run of clauses joined by semicolons (terms of
// service, bibliographic records) or a row of links, not prose.
const longWords = 60

// itemSeparators separate the items of a list written on one line, each
// standing as a word of its own.
var itemSeparators = []string{"|", "//", "•", "·"}

// separators cut a long sentence: "; " only after a word, so that the
// " ; " and " ;; " of a data table's row clauses are left alone, and the
// item separators between spaces.
var separators = append([]string{"; "}, spaced(itemSeparators)...)

// spaced returns each of seps with a space before and after.
func spaced(seps []string) []string {
	out := make([]string, len(seps))
	for i, s := range seps {
		out[i] = " " + s + " "
	}
	return out
}

// cutLong appends s to out, cut into pieces at its separators when it has
// more than longWords words; each piece but the last ends with a full stop
// in place of its separator. Such a sentence is also cut after terminal
// punctuation followed by a lower-case word (not after an abbreviation):
// text written all in lower case ("... takes ~0.5s. the hack brings ...")
// runs its sentences together for the splitter, which wants a capital.
func cutLong(out []string, s string, lang *language) []string {
	if len(strings.Fields(s)) <= longWords {
		return itemRow(out, s)
	}
	start := 0
	for i := 0; i < len(s); i++ {
		if lowerStop(s, start, i, lang) {
			out = append(out, strings.TrimSpace(s[start:i+1]))
			start = i + 1
			continue
		}
		n := separatorAt(s, i)
		if n == 0 {
			continue
		}
		if p := terminate(s[start : i+1]); p != "" && p != "." {
			out = append(out, p)
		}
		start = i + n
		i = start - 1
	}
	if p := strings.TrimSpace(s[start:]); p != "" {
		out = append(out, p)
	}
	return out
}

// itemSeparator reports whether word w is one of itemSeparators.
func itemSeparator(w string) bool { return slices.Contains(itemSeparators, w) }

// itemRow appends sentence s to out, read as a list when item separators
// (itemSeparator) cut it into items: the items as one enumeration
// (tables.Enumerate) when they are short enough, else one sentence each.
// A parser reads no separator but the comma between the items of a list.
func itemRow(out []string, s string) []string {
	words := strings.Fields(s)
	if !slices.ContainsFunc(words, itemSeparator) {
		return append(out, s)
	}
	var items []string
	start := 0
	for i := 0; i <= len(words); i++ {
		if i < len(words) && !itemSeparator(words[i]) {
			continue
		}
		if i > start {
			items = append(items, strings.Join(words[start:i], " "))
		}
		start = i + 1
	}
	if tables.Enumerable(items) {
		return append(out, terminate(tables.Enumerate(items)))
	}
	for _, it := range items {
		if it = terminate(it); textunit.HasWord(it) {
			out = append(out, it)
		}
	}
	return out
}

// lowerStop reports whether s[i] is terminal punctuation that ends a
// sentence begun at s[start] although a lower-case word follows it: the
// punctuation ends a word that is not an abbreviation, and a space and a
// lower-case letter follow.
func lowerStop(s string, start, i int, lang *language) bool {
	if !latinStop(rune(s[i])) || i == start || i+2 >= len(s) || s[i+1] != ' ' {
		return false
	}
	if before, _ := utf8.DecodeLastRuneInString(s[:i]); !unicode.IsLetter(before) && before != ')' {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[i+2:])
	return unicode.IsLower(r) && !abbreviation(s[start:i+1], lang)
}

// separatorAt returns the length of the separator at s[i:], or 0.
func separatorAt(s string, i int) int {
	for _, sep := range separators {
		if !strings.HasPrefix(s[i:], sep) {
			continue
		}
		if sep[0] == ';' && (i == 0 || s[i-1] == ' ') {
			continue
		}
		return len(sep)
	}
	return 0
}

// splitSentences appends the sentences of text to out.
func splitSentences(out []string, text string, lang *language) []string {
	start := 0
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		i += n
		if strings.ContainsRune(")(DPp", r) && closesSentence(text[start:i]) && nextStarts(text[i:]) {
			out = append(out, strings.TrimSpace(text[start:i])) // "great :) I mean"
			start = i
			continue
		}
		if !latinStop(r) && !cjkStop(r) {
			continue
		}
		end := i
		for end < len(text) {
			c, m := utf8.DecodeRuneInString(text[end:])
			if !strings.ContainsRune(closers, c) && !latinStop(c) && !cjkStop(c) {
				break
			}
			end += m
		}
		end = skipCitations(text, end)
		if cjkStop(r) || (nextStarts(text[end:]) && !(r == '.' && abbreviation(text[start:i], lang))) {
			if s := strings.TrimSpace(text[start:end]); s != "" {
				out = append(out, s)
			}
			start, i = end, end
		}
	}
	if s := strings.TrimSpace(text[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

// skipCitations returns the end of the citation marks that follow
// terminal punctuation at text[i:] ("[18]", "[a][b]", "[citation
// needed]": short bracketed marks on one line), or i when there is none;
// they belong to the sentence they follow.
func skipCitations(text string, i int) int {
	for strings.HasPrefix(text[i:], "[") {
		j := strings.IndexByte(text[i:], ']')
		if j < 2 || j > 24 || strings.ContainsAny(text[i+1:i+j], "[\n") {
			break
		}
		i += j + 1
	}
	return i
}

// nextStarts reports whether rest (what follows terminal punctuation)
// is white space and then the start of a sentence.
func nextStarts(rest string) bool {
	t := strings.TrimLeft(rest, " \t\n")
	if len(t) == len(rest) || t == "" {
		return false
	}
	t = strings.TrimLeft(t, openers+" ")
	r, _ := utf8.DecodeRuneInString(t)
	return unicode.IsUpper(r) || unicode.IsDigit(r) || unicode.Is(unicode.Han, r)
}

// abbreviation reports whether s, which ends in '.', ends with an
// abbreviation or an initial.
func abbreviation(s string, lang *language) bool {
	w := s[strings.LastIndexAny(s, " \t\n(")+1:]
	if lang.abbrevs[strings.ToLower(w)] {
		return true
	}
	if strings.TrimSpace(s) == w && strings.Trim(w[:len(w)-1], "0123456789") == "" {
		return true // a step number opening the text: "1. Heat the oil"
	}
	r, n := utf8.DecodeRuneInString(w)
	return n+1 == len(w) && unicode.IsUpper(r)
}
