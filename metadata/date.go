package metadata

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Dates are written YYYY-MM-DD. Meta values are mostly ISO 8601; the
// other forms read are year/month/day with any of - / . as separator,
// day.month.year, and English month names (RFC 1123, "September 4,
// 2025", "4 Sep 2025").

var (
	ymd = regexp.MustCompile(`\b((?:19|20)\d\d)[-/.](\d{1,2})[-/.](\d{1,2})(?:[^0-9]|$)`)
	dmy = regexp.MustCompile(`\b(\d{1,2})\.(\d{1,2})\.((?:19|20)\d\d)\b`)
	// compact is 20250904 alone.
	compact = regexp.MustCompile(`^((?:19|20)\d\d)(\d\d)(\d\d)$`)
)

// normDate returns the date in s as YYYY-MM-DD, or "" when s holds none.
func normDate(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	if m := ymd.FindStringSubmatch(s); m != nil {
		return date(m[1], m[2], m[3])
	}
	if m := compact.FindStringSubmatch(s); m != nil {
		return date(m[1], m[2], m[3])
	}
	if m := dmy.FindStringSubmatch(s); m != nil {
		return date(m[3], m[2], m[1])
	}
	return monthDate(s)
}

// months are the English month names' first three letters.
var months = [...]string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}

// monthDate reads a date written with an English month name: the month,
// a day of one or two digits (an ordinal suffix allowed) next to it, and
// a year of four digits within two words of it ("Tue, 05 Mar 2024",
// "March 5th, 2024", "5 March 2024").
func monthDate(s string) string {
	words := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' || r == '\n' })
	for k, w := range words {
		m := monthOf(w)
		if m == 0 {
			continue
		}
		day, year := 0, 0
		for _, j := range [...]int{k + 1, k - 1, k + 2, k - 2} {
			if j < 0 || j >= len(words) {
				continue
			}
			if n, digits := leadingNumber(words[j]); digits == 4 && year == 0 && n >= 1900 && n <= 2100 {
				year = n
			} else if (digits == 1 || digits == 2) && day == 0 && (j == k-1 || j == k+1) {
				day = n
			}
		}
		if day > 0 && year > 0 {
			return date(strconv.Itoa(year), strconv.Itoa(m), strconv.Itoa(day))
		}
	}
	return ""
}

// monthOf returns the month (1 to 12) a word names, or 0: its first three
// letters are a month's and the rest are letters ("Sep", "September",
// "Sept.").
func monthOf(w string) int {
	w = strings.TrimSuffix(w, ".")
	if len(w) < 3 || len(w) > 9 {
		return 0
	}
	for i := 0; i < len(w); i++ {
		if c := w[i] | 0x20; c < 'a' || c > 'z' {
			return 0
		}
	}
	for i, m := range months {
		if strings.EqualFold(w[:3], m) {
			return i + 1
		}
	}
	return 0
}

// leadingNumber returns the number a word opens with and its count of
// digits, the rest allowed only as an English ordinal suffix ("5th").
func leadingNumber(w string) (n, digits int) {
	for digits < len(w) && w[digits] >= '0' && w[digits] <= '9' {
		n = n*10 + int(w[digits]-'0')
		digits++
	}
	switch rest := strings.ToLower(w[digits:]); rest {
	case "", "st", "nd", "rd", "th":
		return n, digits
	}
	return 0, 0
}

func date(y, m, d string) string {
	yi, _ := strconv.Atoi(y)
	mi, _ := strconv.Atoi(m)
	di, _ := strconv.Atoi(d)
	if mi < 1 || mi > 12 || di < 1 || di > 31 {
		return ""
	}
	return fmt.Sprintf("%04d-%02d-%02d", yi, mi, di)
}
