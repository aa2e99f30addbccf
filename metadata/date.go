package metadata

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Dates are written YYYY-MM-DD. Meta values are mostly ISO 8601; the
// other forms read are year/month/day with any of - / . as separator,
// day.month.year, and English month names (RFC 1123, "September 4,
// 2025", "4 Sep 2025").

var (
	ymd = regexp.MustCompile(`\b((?:19|20)\d\d)[-/.](\d{1,2})[-/.](\d{1,2})(?:[^0-9]|$)`)
	dmy = regexp.MustCompile(`\b(\d{1,2})\.(\d{1,2})\.((?:19|20)\d\d)\b`)
	// ordinal is a day's English ordinal suffix: "4th".
	ordinal = regexp.MustCompile(`\b(\d{1,2})(?:st|nd|rd|th)\b`)
	// compact is 20250904 alone.
	compact = regexp.MustCompile(`^((?:19|20)\d\d)(\d\d)(\d\d)$`)
)

// monthLayouts are the layouts with month names tried, on the value with
// commas removed and white space collapsed.
var monthLayouts = []string{
	"Mon 02 Jan 2006", "Monday 02 Jan 2006", "02 Jan 2006", "2 Jan 2006", "2 January 2006",
	"January 2 2006", "Jan 2 2006", "January 02 2006", "Jan 02 2006",
}

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
	words := strings.Fields(ordinal.ReplaceAllString(strings.ReplaceAll(s, ",", " "), "$1"))
	// Try the first 3 and 4 words (a weekday may lead), then any 3 in a row.
	for n := 4; n >= 3; n-- {
		for i := 0; i+n <= len(words) && i < 4; i++ {
			cand := strings.Join(words[i:i+n], " ")
			for _, l := range monthLayouts {
				if t, err := time.Parse(l, cand); err == nil && t.Year() >= 1900 && t.Year() <= 2100 {
					return t.Format("2006-01-02")
				}
			}
		}
	}
	return ""
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
