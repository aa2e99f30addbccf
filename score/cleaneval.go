package score

import (
	"bytes"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/sluice-project/sluice/textunit"
)

// This file reproduces the scoring of Stefan Evert's cleaneval.py v1.0
// (2008), the de-facto CleanEval scorer: both texts are normalised and split
// into whitespace-delimited words, the output words are aligned with the gold
// words by difflib.SequenceMatcher(None, output, gold) (so the output is
// SequenceMatcher's a and the gold its b: the "popular token" rule applies to
// the gold's tokens), and words in equal blocks are true positives, output
// words outside them false positives, gold words outside them false
// negatives. The segment markers <p>, <h>, <l> are words like any other, and
// separately counted in the same way for the tag scores.
//
// Evert's normalize(), applied to each file (Python 2, on raw bytes):
//
//	re_URL  = "^\s*URL.*$" (MULTILINE)  -> ""     every line starting with "URL"
//	re_CTRL = "[\x00-\x1F]+"            -> " "    (includes newlines)
//	re_TAG  = "(<[phl]>)" (IGNORECASE)  -> "\n\1 " (unlabelled: "\n<p> ")
//	re_WS   = "\s+"                     -> " "
//
// then words = re_WS.split(text). Differences from the script, all chosen:
//
//   - The script splits with re.split, which yields an empty first (last)
//     word when the normalised text starts (ends) with a space, as nearly
//     every file does after a tag or the URL line, and one empty word for a
//     text with nothing in it. Between two texts that both have words, those
//     empty words usually align with each other and add a spurious true
//     positive or two; here they are dropped. Where the gold has no words at
//     all, though, they are the whole alignment, so there they are counted
//     as the script counts them (see ceCountEmpty): an output scored against
//     an empty gold file gets a small F above 0, as in the script, and an
//     empty output 1 (or 2/3 against a gold holding only its URL line). An
//     empty output against a gold with words still scores 0, where the
//     script's empty words give TP 1 (F 2/(n+2) for n gold words): sluice
//     scores a missing output as an empty one, which the script never
//     scores, and every metric gives an empty output 0.
//   - The script reads bytes; here texts are strings, and the words are
//     their bytes between separators: a word ends only at an ASCII space or
//     control byte (0x00-0x20), as the script's [\x00-\x1F] and \s (of a
//     Python 2 byte string: [ \t\n\r\f\v]) do. A no-break space is part of
//     its word both as the Latin-1 byte 0xA0 and as UTF-8's C2 A0, and so is
//     any other non-ASCII byte. The script compares the bytes of the files as
//     they are, so a Latin-1 word and the same word in UTF-8 differ there;
//     ReadGold decodes files to UTF-8, after which they are equal. To split
//     and compare words exactly as the script does, pass the files' bytes
//     unchanged (string(b)) instead of ReadGold's text.
//   - The -a option (delete non-ASCII bytes) is not offered.
//   - TextOnly mode (tags deleted) is an addition.
//
// Kept as in the script: every line whose first non-blank characters are
// "URL" is removed, wherever it is (not only the gold's first line, and
// "URL" need not be followed by a colon); tags are recognised anywhere, also
// inside a word ("foo<p>bar" is three words); in labelled mode a tag keeps its
// case, so <P> and <p> do not match, while both count as tags.
//
// Zero denominators: cleaneval.py computes P = TP/max(TP+FP, 1) and R =
// TP/max(TP+FN, 1) (and F = 0 when P+R = 0), but since every text has at least
// one word there, an empty one included, neither denominator is ever 0 for a
// file. Here the only counts with a zero denominator are those of an empty
// output against a gold with words (TP+FP = 0), which Counts scores 0.

// CEMode selects how segment markers take part in CleanEval scoring.
type CEMode int

const (
	// Labelled: each <p>, <h>, <l> is a word, and they differ from each
	// other (cleaneval.py without options).
	Labelled CEMode = iota
	// Unlabelled: every marker is renamed to <p> (cleaneval.py -u).
	Unlabelled
	// TextOnly: markers are deleted; only the text words are scored.
	TextOnly
)

// String returns "labelled", "unlabelled" or "text-only".
func (m CEMode) String() string {
	switch m {
	case Labelled:
		return "labelled"
	case Unlabelled:
		return "unlabelled"
	case TextOnly:
		return "text-only"
	}
	return "CEMode(?)"
}

// CleanEval scores a cleaner's output against its gold standard as
// cleaneval.py does: word-level true positives, false positives and false
// negatives of the alignment of output (difflib's a) with gold (b). Both are
// CleanEval-format texts (see the comment at the top of cleaneval.go for the
// normalisation).
//
// Every Han, kana, Thai... character is a word of its own, and so is the
// text between two such characters in a white-space word (as in WordsCJK);
// CleanEvalAs with CJKRuns splits exactly as the script does.
func CleanEval(output, gold string, mode CEMode) Counts {
	words, _ := CleanEvalDetailAs(output, gold, mode, CJKChars)
	return words
}

// CleanEvalAs is CleanEval with the given tokenisation of the scripts
// written without spaces.
func CleanEvalAs(output, gold string, mode CEMode, cjk CJK) Counts {
	words, _ := CleanEvalDetailAs(output, gold, mode, cjk)
	return words
}

// CleanEvalTags returns cleaneval.py's segmentation counts in labelled mode:
// among the marker words only, output markers inside aligned blocks (TP),
// output markers outside them (FP) and gold markers outside them (FN).
func CleanEvalTags(output, gold string) Counts {
	_, tags := CleanEvalDetail(output, gold, Labelled)
	return tags
}

// CleanEvalDetail returns both counts of one alignment, as cleaneval.py's
// evaluate() does: words (all words, markers included unless mode is
// TextOnly) and tags (marker words only; zero in TextOnly mode). With
// Unlabelled the tag counts are cleaneval.py -u's unlabelled segmentation
// accuracy.
func CleanEvalDetail(output, gold string, mode CEMode) (words, tags Counts) {
	return CleanEvalDetailAs(output, gold, mode, CJKChars)
}

// CleanEvalDetailAs is CleanEvalDetail with the given tokenisation of the
// scripts written without spaces.
func CleanEvalDetailAs(output, gold string, mode CEMode, cjk CJK) (words, tags Counts) {
	m := getMatcher()
	defer putMatcher(m)
	m.a = m.ceIntern(m.a[:0], output, mode, cjk)
	m.b = m.ceIntern(m.b[:0], gold, mode, cjk)
	if len(m.b) == 0 {
		return m.ceCountEmpty(output, gold)
	}
	return m.ceCount()
}

// ceIntern appends the ids of the CleanEval words of text to dst. Tag words
// are the ids tagID(...) of ceTags, interned first by ceCount's contract.
func (m *matcher) ceIntern(dst []int32, text string, mode CEMode, cjk CJK) []int32 {
	if m.in.size() == 0 {
		// Reserve ids 0..5 for the six tag spellings' lower/upper cases so
		// that a tag test is an integer comparison.
		for _, t := range ceTagWords {
			m.in.id(t)
		}
	}
	ceWords(text, mode, func(w string) {
		if cjk == CJKRuns || !hasChar(w) {
			dst = append(dst, m.in.id(w))
			return
		}
		textunit.Pieces(w, func(p string, _ bool) bool {
			dst = append(dst, m.in.id(p))
			return true
		})
	})
	return dst
}

// ceTagWords are the spellings of the segment markers; their ids are
// 0..len(ceTagWords)-1 in a matcher used for CleanEval.
var ceTagWords = [...]string{"<p>", "<h>", "<l>", "<P>", "<H>", "<L>"}

func isTagID(id int32) bool { return id < int32(len(ceTagWords)) }

// ceCount aligns m.a with m.b and counts words and tags.
func (m *matcher) ceCount() (words, tags Counts) {
	blocks := m.matchingBlocks(m.a, m.b, m.in.size())
	tp, tagTP := 0, 0
	for _, bl := range blocks {
		tp += bl.Size
		tagTP += countTags(m.a[bl.A : bl.A+bl.Size])
	}
	aTags, bTags := countTags(m.a), countTags(m.b)
	words = Counts{TP: tp, FP: len(m.a) - tp, FN: len(m.b) - tp}
	tags = Counts{TP: tagTP, FP: aTags - tagTP, FN: bTags - tagTP}
	return words, tags
}

// ceCountEmpty counts as cleaneval.py does when a side has no words (m.a
// or m.b, the words of output and gold, is empty; CleanEvalDetail calls it
// for the gold). The script's words then align only where its split left
// empty words: ceEmptyWords(output) of them in output, and
// ceEmptyWords(gold) in gold, at the start or end of each, so that as many
// align as the smaller side has (difflib finds them all). For example an
// output "<p> Hello world\n" against an empty gold file is
// ["", "<p>", "Hello", "world", ""] against [""]: TP 1, FP 4, FN 0, so P 0.2,
// R 1 and F 0.33; against a gold holding only its URL line (["", ""]) TP 2.
func (m *matcher) ceCountEmpty(output, gold string) (words, tags Counts) {
	ea, eb := ceEmptyWords(output), ceEmptyWords(gold)
	tp := min(ea, eb)
	words = Counts{TP: tp, FP: len(m.a) + ea - tp, FN: len(m.b) + eb - tp}
	tags = Counts{FP: countTags(m.a), FN: countTags(m.b)}
	return words, tags
}

// countTags returns how many of ids are tag words.
func countTags(ids []int32) int {
	n := 0
	for _, id := range ids {
		if isTagID(id) {
			n++
		}
	}
	return n
}

// reURL is cleaneval.py's re_URL, with \s spelled as a Python 2 byte
// string's [ \t\n\r\f\v] (Go's \s lacks \v).
var reURL = regexp.MustCompile(`(?m)^[ \t\n\r\f\v]*URL.*$`)

// ceEmptyWords returns how many empty words cleaneval.py's
// re_WS.split(normalize(text)) yields: 1 for a text that is empty once its
// URL lines are removed; otherwise one for a leading and one for a trailing
// space of the normalised text, which come from white space or a control
// character at either end, or a tag there (normalize puts a line break before
// each tag and a space after it). A text of white space only is ["", ""].
// The count is the same in every mode (TextOnly deletes the tag words, not
// the empty ones).
func ceEmptyWords(text string) int {
	t := reURL.ReplaceAllString(text, "")
	if t == "" {
		return 1
	}
	n := 0
	if t[0] <= ' ' || isTagAt(t, 0) {
		n++
	}
	if t[len(t)-1] <= ' ' || isTagAt(t, len(t)-3) {
		n++
	}
	return n
}

// isTagAt reports whether a segment marker <p>, <h> or <l> (any case) starts
// at s[i].
func isTagAt(s string, i int) bool {
	return i >= 0 && i+2 < len(s) && s[i] == '<' && isTagLetter(s[i+1]) && s[i+2] == '>'
}

// CleanEvalWords returns the words of a CleanEval-format text as
// cleaneval.py's normalize() and split produce them in the given mode (without
// the empty words of the script's split).
func CleanEvalWords(text string, mode CEMode) []string {
	var out []string
	ceWords(text, mode, func(w string) { out = append(out, w) })
	return out
}

// ceWords calls emit for each CleanEval word of text, in order. Words are
// substrings of text, or "<p>" for a renamed tag.
func ceWords(text string, mode CEMode, emit func(string)) {
	// Lines are separated by '\n' only, as for Python's MULTILINE ^ and $;
	// a line's '\n' ends its last word like any space.
	for line := range strings.Lines(text) {
		// re_URL: ^\s*URL.*$ with \s = [ \t\n\r\f\v] (Python 2 bytes).
		if strings.HasPrefix(strings.TrimLeft(line, " \t\r\f\v"), "URL") {
			continue
		}
		lineWords(line, mode, emit)
	}
}

// lineWords splits one line at ASCII control characters and spaces, and
// around each <p>, <h>, <l> (any case), emitting words per mode.
func lineWords(line string, mode CEMode, emit func(string)) {
	start := -1 // start of the current word, or -1
	flush := func(end int) {
		if start >= 0 && end > start {
			emit(line[start:end])
		}
		start = -1
	}
	for i := 0; i < len(line); {
		c := line[i]
		if c <= ' ' {
			flush(i)
			i++
			continue
		}
		if c == '<' && isTagAt(line, i) {
			flush(i)
			switch mode {
			case Labelled:
				emit(line[i : i+3])
			case Unlabelled:
				emit("<p>")
			}
			i += 3
			continue
		}
		if start < 0 {
			start = i
		}
		i++
	}
	flush(len(line))
}

func isTagLetter(c byte) bool {
	switch c {
	case 'p', 'h', 'l', 'P', 'H', 'L':
		return true
	}
	return false
}

// ReadGold decodes a CleanEval gold-standard (or output) file into a string:
// a leading UTF-8 byte order mark is removed, the bytes are read as UTF-8
// except that each byte that is not part of a valid UTF-8 sequence is read as
// ISO-8859-1 (so a wholly Latin-1 file decodes as Latin-1, and a UTF-8 file
// with a few stray Latin-1 bytes, as several CleanEval gold files are, keeps
// its UTF-8 text), and CRLF and lone CR line ends become LF.
func ReadGold(b []byte) string {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	var sb strings.Builder
	sb.Grow(len(b))
	for len(b) > 0 {
		c := b[0]
		switch {
		case c == '\r':
			sb.WriteByte('\n')
			if len(b) > 1 && b[1] == '\n' {
				b = b[2:]
			} else {
				b = b[1:]
			}
			continue
		case c < utf8.RuneSelf:
			sb.WriteByte(c)
			b = b[1:]
			continue
		}
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			sb.WriteRune(rune(c)) // ISO-8859-1: byte value = code point
		} else {
			sb.Write(b[:size])
		}
		b = b[size:]
	}
	return sb.String()
}
