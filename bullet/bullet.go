// Package bullet recognises the hand-written list markers and section
// numbers a text can start with ("•", "- ", "1.", "2.3", "(a)", "iv."), for
// the labeller's bullet features.
package bullet

import (
	"strings"
	"unicode/utf8"
)

// digit reports whether c is an ASCII digit.
func digit(c byte) bool { return c >= '0' && c <= '9' }

// Kind is a kind of list marker or section number.
type Kind uint8

// The kinds of marker, None for a text that starts with none.
const (
	None Kind = iota
	Dot
	Dash
	Star
	Arrow
	Num
	Section
	Alpha
	Roman
)

// Names are the kinds' attribute names, in the order of the constants.
var Names = [...]string{"", "bullet=dot", "bullet=dash", "bullet=star", "bullet=arrow",
	"bullet=num", "bullet=section", "bullet=alpha", "bullet=roman"}

// Of returns the kind of list marker or section number s starts with.
func Of(s string) Kind {
	if s == "" {
		return None
	}
	r, size := utf8.DecodeRuneInString(s)
	rest := s[size:]
	spaced := rest == "" || rest[0] == ' '
	switch r {
	case '•', '·', '●', '∙', '◦', '▪', '■', '□', '▫', '►', '▸', '▶', '◆', '◇', '○', '‣', '⁃', '✓', '✔':
		return Dot
	case '–', '—':
		return Dash
	case '→', '⇒', '➔', '➜':
		return Arrow
	case '-', '+':
		if spaced {
			return Dash
		}
	case '*':
		if spaced {
			return Star
		}
	case '>', '»', '›':
		if spaced {
			return Arrow
		}
	}
	// "(1)", "(a)"
	paren := r == '('
	if paren {
		s = rest
	}
	i := 0
	for i < len(s) && i < 4 && digit(s[i]) {
		i++
	}
	if i > 0 && i < 4 {
		j := i
		dots := 0
		for j+1 < len(s) && s[j] == '.' && digit(s[j+1]) { // 1.2, 1.2.3
			j++
			for j < len(s) && digit(s[j]) {
				j++
			}
			dots++
		}
		if j < len(s) && (s[j] == '.' || s[j] == ')') {
			if j+1 == len(s) || s[j+1] == ' ' {
				if dots > 0 {
					return Section
				}
				return Num
			}
		}
		if dots > 0 && j < len(s) && s[j] == ' ' && !paren {
			return Section
		}
		return None
	}
	// "a)", "b.", "iv." and "IV)"
	j := 0
	for j < len(s) && j < 5 && (s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z') {
		j++
	}
	if j == 0 || j == 5 || j >= len(s) || s[j] != ')' && s[j] != '.' || j+1 < len(s) && s[j+1] != ' ' {
		return None
	}
	if s[j] == '.' && j+1 == len(s) {
		return None // "Inc." or "etc." alone
	}
	if j == 1 {
		return Alpha
	}
	if isRoman(s[:j]) {
		return Roman
	}
	return None
}

// isRoman reports whether s is written in the letters of roman numerals.
func isRoman(s string) bool {
	lower := s[0] >= 'a'
	for i := 0; i < len(s); i++ {
		c := s[i]
		if lower {
			c -= 'a' - 'A'
		}
		if strings.IndexByte("IVXLC", c) < 0 {
			return false
		}
	}
	return true
}
