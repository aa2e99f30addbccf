package score

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestSummary(t *testing.T) {
	var s Summary
	if r := s.Report(); r != (Report{}) {
		t.Errorf("empty summary: %+v", r)
	}
	s.Add(Counts{TP: 3, FP: 1, FN: 0}) // P .75, R 1, F 6/7
	s.Add(Counts{TP: 1, FP: 0, FN: 3}) // P 1, R .25, F .4
	s.Add(Counts{})                    // both empty: 1, 1, 1
	s.Add(Counts{FN: 4})               // empty output: 0, 0, 0
	s.Add(Counts{FP: 2})               // empty gold: 0, 0, 0
	if s.Pages() != 5 || s.Total() != (Counts{TP: 4, FP: 3, FN: 7}) {
		t.Fatalf("pages %d total %+v", s.Pages(), s.Total())
	}
	near := func(a, b float64) bool { d := a - b; return d < 1e-12 && d > -1e-12 }
	check := func(name string, got, want Scores) {
		t.Helper()
		if !near(got.Precision, want.Precision) || !near(got.Recall, want.Recall) || !near(got.F1, want.F1) {
			t.Errorf("%s = %+v, want %+v", name, got, want)
		}
	}
	check("Micro", s.Micro(), Scores{4.0 / 7, 4.0 / 11, 8.0 / 18})
	check("Macro", s.Macro(), Scores{2.75 / 5, 2.25 / 5, (6.0/7 + 0.4 + 1) / 5})
	check("Median", s.Median(), Scores{0.75, 0.25, 0.4})
	// Zyte: precision over pages with output (1, 2, 5), recall over pages
	// with gold (1, 2, 4).
	p, r := (0.75+1+0)/3, (1+0.25+0)/3.0
	check("MacroDefined", s.MacroDefined(), Scores{p, r, 2 * p * r / (p + r)})

	var u Summary
	u.Add(Counts{TP: 1})
	u.Merge(&s)
	if u.Pages() != 6 || u.Total().TP != 5 {
		t.Errorf("merge: %d %+v", u.Pages(), u.Total())
	}

	b, err := json.Marshal(&s)
	if err != nil {
		t.Fatal(err)
	}
	if byValue, _ := json.Marshal(s); string(byValue) != string(b) {
		t.Errorf("a Summary value encodes as %s, a pointer as %s", byValue, b)
	}
	var back Report
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back != s.Report() {
		t.Errorf("JSON round trip: %s", b)
	}
	for _, key := range []string{`"pages":5`, `"tp":4`, `"micro":{"precision":`, `"macro_defined":`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("JSON lacks %s: %s", key, b)
		}
	}
}

func TestSummaryIdentical(t *testing.T) {
	var s Summary
	for _, text := range []string{"a b c", "Grüße aus Köln", "東京タワー", ""} {
		s.Add(BagOfWords(text, text))
	}
	if r := s.Report(); r.Micro != (Scores{1, 1, 1}) || r.Macro != (Scores{1, 1, 1}) || r.Median != (Scores{1, 1, 1}) {
		t.Errorf("identical pages: %+v", r)
	}
}
