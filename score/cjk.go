package score

import (
	"unicode/utf8"

	"github.com/sluice-project/sluice/textunit"
)

// CJK says how the scorers cut text in the scripts written without spaces
// between words (textunit.IsChar: Han, Hiragana, Katakana, Thai, Lao, Khmer,
// Myanmar). The published scorers' tokens (\w+ runs, white-space words)
// make a whole unspaced clause of them one token, so that a figure over
// Chinese or Japanese text counts clauses rather than words; characters are
// the unit the multilingual benchmarks use there.
type CJK uint8

const (
	// CJKChars cuts out every character of those scripts as a token of
	// its own (with its combining marks, where the tokeniser keeps marks),
	// and cuts the rest of the text as the published scorer does: on text
	// without those scripts it is the published scorer exactly. The
	// default.
	CJKChars CJK = iota
	// CJKRuns is the published scorers' tokenisation unchanged, for
	// comparisons with published figures (sluice eval and bench
	// --cjk-words).
	CJKRuns
)

// String returns "cjk-chars" or "cjk-words".
func (c CJK) String() string {
	if c == CJKRuns {
		return "cjk-words"
	}
	return "cjk-chars"
}

// cut returns toks with each character of textunit.IsChar cut out as a
// token of its own (textunit.Pieces), the pieces between such characters
// kept as tokens; toks itself when c is CJKRuns or no token has such a
// character.
func (c CJK) cut(toks []string) []string {
	if c == CJKRuns {
		return toks
	}
	var out []string
	for i, w := range toks {
		if !hasChar(w) {
			if out != nil {
				out = append(out, w)
			}
			continue
		}
		if out == nil {
			out = append(make([]string, 0, len(toks)+len(w)/3), toks[:i]...)
		}
		textunit.Pieces(w, func(p string, _ bool) bool {
			out = append(out, p)
			return true
		})
	}
	if out == nil {
		return toks
	}
	return out
}

// hasChar reports whether w holds a character of textunit.IsChar.
func hasChar(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] >= utf8.RuneSelf {
			for _, r := range w[i:] {
				if textunit.IsChar(r) {
					return true
				}
			}
			return false
		}
	}
	return false
}
