// Package textpattern recognises patterns in a block's text that say what
// it is whatever its language: dates, times and phone numbers among its
// digits, e-mail addresses, copyright and "all rights reserved" notices, and
// text a page was never meant to show (an unfilled template variable, "Lorem
// ipsum"). The scanners look at digits, separators and a few fixed marks,
// not at words, and do not allocate. The labeller's Pattern feature group
// (package features) calls them behind its own cheap checks of which
// characters a block holds.
package textpattern

import "strings"

// Set is a set of the digit patterns Digits finds.
type Set uint8

// The digit patterns.
const (
	Date  Set = 1 << iota // 2024-03-12, 12.3.2024, 3/12/24, 2024年3月12日, "March 12, 2024" in a short text
	Time                  // 9:30, 23:59:59
	Phone                 // +49 30 1234567, (555) 123-4567, 030 1234567
)

// Digits returns the dates, times and phone numbers among the first
// maxRuns runs of ASCII digits of s, a text of words words (dates with a
// month name are only looked for in texts of 12 words or fewer).
func Digits(s string, words int32) Set {
	var runs [maxRuns]digitRun
	return digitPatterns(s, digitRuns(s, &runs), words)
}

// digitRun is a maximal run of ASCII digits in a text.
type digitRun struct {
	start, end int // byte offsets
	val        int // value, capped
}

// maxRuns bounds the digit runs a pattern scan looks at.
const maxRuns = 24

// Placeholder reports whether s is text a page was never meant to show:
// a template's unfilled variable ("{{price.amount}}", "${name}") or the
// typesetters' filler "Lorem ipsum".
func Placeholder(s string) bool {
	if i := strings.Index(s, "{{"); i >= 0 && strings.Contains(s[i:], "}}") {
		return true
	}
	if i := strings.Index(s, "${"); i >= 0 && strings.IndexByte(s[i:], '}') > 2 {
		return true
	}
	return indexFold(s, "lorem ipsum", 7) >= 0
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isASCIIAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// digitRuns finds the first maxRuns runs of ASCII digits of s, with their
// values (capped near a million), in runs' memory.
func digitRuns(s string, runs *[maxRuns]digitRun) []digitRun {
	nr := 0
	for i := 0; i < len(s) && nr < maxRuns; i++ {
		if !isDigit(s[i]) {
			continue
		}
		j, v := i, 0
		for j < len(s) && isDigit(s[j]) {
			if v < 1e6 {
				v = v*10 + int(s[j]-'0')
			}
			j++
		}
		runs[nr] = digitRun{i, j, v}
		nr++
		i = j
	}
	return runs[:nr]
}

// digitPatterns finds dates, times and phone numbers among the digit runs.
func digitPatterns(s string, runs []digitRun, words int32) Set {
	var set Set
	used, date := dateRuns(s, runs, words) // used: runs that are part of a date or a time
	if date {
		set |= Date
	}
	// Times: 9:30, 23:59:59.
	for k := 0; k+1 < len(runs); k++ {
		if sepAfter(s, runs, k) == ":" && runs[k].digits() <= 2 && runs[k+1].digits() == 2 && runs[k].val <= 24 && runs[k+1].val <= 59 &&
			(runs[k].start == 0 || s[runs[k].start-1] != '.') {
			set |= Time
			used |= 3 << k
		}
	}
	// Phone numbers: chains of digit groups joined by spaces, dashes,
	// dots, slashes or brackets, 7 to 15 digits in all. A chain joined by
	// spaces only must have two groups of three digits or more ("030
	// 1234567", not a row of numbers "25 29 10 9"), one joined by dots
	// only must not look like thousands ("1.234.567") or a decimal.
	for k := 0; k < len(runs); {
		if used&(1<<k) != 0 {
			k++
			continue
		}
		j, digits, groups, long := k, runs[k].digits(), 1, 0
		if runs[k].digits() >= 3 {
			long++
		}
		onlyDots, onlySpaces, thousands := true, true, true
		for j+1 < len(runs) && used&(1<<(j+1)) == 0 && phoneSep(sepAfter(s, runs, j)) {
			switch sepAfter(s, runs, j) {
			case ".":
				onlySpaces = false
			case " ":
				onlyDots = false
			default:
				onlyDots, onlySpaces = false, false
			}
			if runs[j+1].digits() != 3 {
				thousands = false
			}
			j++
			digits += runs[j].digits()
			groups++
			if runs[j].digits() >= 3 {
				long++
			}
		}
		st := runs[k].start
		plus := st > 0 && (s[st-1] == '+' || s[st-1] == '(')
		ok := digits >= 7 && digits <= 15 && groups <= 6 && (plus && digits >= 8 || groups >= 2)
		switch {
		case plus:
		case onlySpaces && long < 2:
			ok = false // a row of numbers
		case onlyDots && (groups == 2 || thousands):
			ok = false // 3.14159265, 1.234.567
		}
		if ok {
			set |= Phone
			break
		}
		k = j + 1
	}
	return set
}

// digits returns the length of the run.
func (r digitRun) digits() int { return r.end - r.start }

// sepAfter returns the text between digit run k of s and the next.
func sepAfter(s string, runs []digitRun, k int) string { return s[runs[k].end:runs[k+1].start] }

// dateRuns reports whether s, a text of words words, holds a date: a
// numeric one, a CJK one or, in a short text, one with a month name. It
// returns the bits of the three runs of the first numeric date.
func dateRuns(s string, runs []digitRun, words int32) (used uint32, ok bool) {
	// Numeric dates: 2024-03-12, 12.3.2024, 3/12/24, 12. 3. 2024.
	for k := 0; k+2 < len(runs); k++ {
		s1, s2 := sepAfter(s, runs, k), sepAfter(s, runs, k+1)
		if !dateSep(s1) || !dateSep(s2) || s1[0] != s2[0] {
			continue
		}
		a, b, c := runs[k].val, runs[k+1].val, runs[k+2].val
		la, lb, lc := runs[k].digits(), runs[k+1].digits(), runs[k+2].digits()
		iso := la == 4 && lb <= 2 && lc <= 2 && b >= 1 && b <= 12 && c >= 1 && c <= 31
		dmy := la <= 2 && lb <= 2 && (lc == 2 || lc == 4) && a >= 1 && a <= 31 && b >= 1 && b <= 31 && (a <= 12 || b <= 12)
		if iso || dmy {
			return 7 << k, true
		}
	}
	// CJK dates: 2024年3月12日.
	if strings.Contains(s, "年") && strings.Contains(s, "月") {
		return 0, true
	}
	if words > 12 {
		return 0, false
	}
	// Dates with a month name in any language: a short text with a year
	// (1900-2099) and a day number standing alone.
	year, day := false, false
	for _, r := range runs {
		alone := (r.start == 0 || !isASCIIAlnum(s[r.start-1]) && s[r.start-1] != ':' && s[r.start-1] != '.') &&
			(r.end == len(s) || !isASCIIAlnum(s[r.end]) && s[r.end] != ':')
		if !alone {
			continue
		}
		switch l := r.digits(); {
		case l == 4 && r.val >= 1900 && r.val <= 2099:
			year = true
		case l <= 2 && r.val >= 1 && r.val <= 31:
			day = true
		}
	}
	return 0, year && day
}

func dateSep(s string) bool {
	switch s {
	case ".", "/", "-", ". ":
		return true
	}
	return false
}

func phoneSep(s string) bool {
	if len(s) == 0 || len(s) > 3 {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '-', '.', '/', '(', ')':
		default:
			return false
		}
	}
	return true
}

// Email reports whether s holds something like name@host.tld.
func Email(s string) bool {
	for i := strings.IndexByte(s, '@'); i >= 0; {
		if i > 0 && (isASCIIAlnum(s[i-1]) || strings.IndexByte("._%+-", s[i-1]) >= 0) {
			j, dot, tld := i+1, -1, 0
			for j < len(s) && (isASCIIAlnum(s[j]) || s[j] == '-' || s[j] == '.') {
				if s[j] == '.' {
					dot, tld = j, 0
				} else if s[j] >= 'A' && s[j] <= 'z' && dot > 0 {
					tld++
				}
				j++
			}
			if s[j-1] == '.' { // a sentence's full stop after the address
				tld = 0
				for m := dot - 1; m > i && s[m] != '.'; m-- {
					tld++
				}
			}
			if dot > i+1 && tld >= 2 {
				return true
			}
		}
		k := strings.IndexByte(s[i+1:], '@')
		if k < 0 {
			break
		}
		i += 1 + k
	}
	return false
}

// indexFold returns the index of the ASCII-lower-case pattern p in s,
// ignoring ASCII case, or -1. It looks for p[anchor] with IndexByte first,
// so anchor should be a rare letter of p.
func indexFold(s, p string, anchor int) int {
	lo := p[anchor]
	up := lo
	if lo >= 'a' && lo <= 'z' {
		up -= 'a' - 'A'
	}
	for _, c := range [2]byte{lo, up} {
		for off := anchor; off < len(s); {
			k := strings.IndexByte(s[off:], c)
			if k < 0 {
				break
			}
			at := off + k - anchor
			if at+len(p) <= len(s) && equalFoldASCII(s[at:at+len(p)], p) {
				return at
			}
			off += k + 1
		}
		if lo == up {
			break
		}
	}
	return -1
}

func equalFoldASCII(s, lower string) bool {
	for i := 0; i < len(lower); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// RightsReserved reports whether s reads like "all rights reserved" in one
// of a few languages: the stems of "reserved" in the Romance languages and
// English next to a word for rights, German "vorbehalten", Czech
// "vyhrazena", Polish "zastrzeżone", or the Chinese and Japanese notices.
// Words are matched in lower case, capitalised or upper case.
func RightsReserved(s string) bool {
	if strings.Contains(s, "版权所有") || strings.Contains(s, "版權所有") || strings.Contains(s, "無断転載") {
		return true
	}
	if strings.Contains(s, "serv") || strings.Contains(s, "SERV") {
		for _, w := range [...]string{"right", "droit", "derech", "diritt", "direit", "rett"} {
			if indexFold(s, w, 0) >= 0 {
				return true
			}
		}
	}
	return strings.Contains(s, "orbehalt") || strings.Contains(s, "ORBEHALT") ||
		strings.Contains(s, "yhrazen") || strings.Contains(s, "YHRAZEN") ||
		strings.Contains(s, "astrze") || strings.Contains(s, "ASTRZE")
}
