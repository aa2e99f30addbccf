package metadata

import (
	"strings"
	"testing"
)

// namesByWords is what scanNames computes, written as the substring tests
// on the lower-cased value it replaced: the reference it must agree with.
func namesByWords(v string) int {
	v = strings.ToLower(v)
	named := 0
	if strings.Contains(v, "date") && !strings.Contains(v, "candidate") || strings.Contains(v, "publish") || strings.Contains(v, "posted") || strings.Contains(v, "timestamp") {
		named |= namedDate
	}
	if strings.Contains(v, "byline") || strings.Contains(v, "author") && !strings.Contains(v, "authori") {
		named |= namedByline
	}
	return named
}

// scanValue is what marks.scan gives for one value.
func scanValue(v string) int {
	m := marks{class: v}
	m.scan()
	return m.named &^ scanned
}

func TestScanNamesAgrees(t *testing.T) {
	parts := []string{"", " ", "-", "_", "DATE", "Date", "date", "candidate", "Candidate-", "update", "publish", "PUBLISHED",
		"posted", "Posted-On", "timestamp", "TimeStamp", "byline", "ByLine", "author", "AUTHOR", "authorization", "Authori",
		"dat", "publis", "autho", "bylin", "timestam", "cand", "İ", "é", "K"}
	n := 0
	for _, a := range parts {
		for _, b := range parts {
			for _, c := range parts[:6] {
				v := a + c + b
				n++
				if got, want := scanValue(v), namesByWords(v); got != want {
					t.Errorf("scan(%q) = %b, the word tests say %b", v, got, want)
				}
			}
		}
	}
	if n < 5000 {
		t.Fatalf("only %d values", n)
	}
}

func FuzzScanNames(f *testing.F) {
	for _, s := range []string{"post-date", "entry-author", "authorization-box", "candidate-date", "TimeStamp", "AUTHORİ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		if got, want := scanValue(v), namesByWords(v); got != want {
			t.Errorf("scan(%q) = %b, the word tests say %b", v, got, want)
		}
	})
}
