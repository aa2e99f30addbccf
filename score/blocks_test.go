package score

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/page"
)

func TestCompareLabels(t *testing.T) {
	const (
		o = page.Other
		h = page.Heading
		p = page.Paragraph
		l = page.ListItem
		c = page.Continuation
	)
	gold := []page.Label{o, h, p, c, p, l, l, o, o, o}
	pred := []page.Label{o, p, p, c, o, l, p, o, p, o}
	m, err := CompareLabels(pred, gold)
	if err != nil {
		t.Fatal(err)
	}
	// Right: o, p, c, l, o, o = 6 of 10. Content vs noise wrong: the
	// paragraph dropped (gold p, pred o) and the noise kept (gold o, pred p).
	if m.Total() != 10 || m.Correct() != 6 || m.Accuracy() != 0.6 || m.ContentAccuracy() != 0.8 {
		t.Errorf("total %d correct %d accuracy %v content %v", m.Total(), m.Correct(), m.Accuracy(), m.ContentAccuracy())
	}
	if got := m.Count(h, p); got != 1 {
		t.Errorf("Count(heading, paragraph) = %d", got)
	}
	if got := m.ContentCounts(); got != (Counts{TP: 5, FP: 1, FN: 1}) {
		t.Errorf("ContentCounts = %+v", got)
	}
	if got := m.LabelCounts(p); got != (Counts{TP: 1, FP: 3, FN: 1}) {
		t.Errorf("LabelCounts(paragraph) = %+v", got)
	}

	want := `gold \ predicted  other  heading  paragraph  list  continuation  total
other                 3        0          1     0             0      4
heading               0        0          1     0             0      1
paragraph             1        0          1     0             0      2
list                  0        0          1     1             0      2
continuation          0        0          0     0             1      1
total                 4        0          4     1             1     10
accuracy 60.00% (full label set), 80.00% (content vs noise), 10 blocks
`
	if got := m.String(); got != want {
		t.Errorf("String:\n%s\nwant:\n%s", got, want)
	}

	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"labels":["other","heading","paragraph","list","continuation"]`) ||
		!strings.Contains(string(b), `"matrix":[[3,0,1,0,0],`) || !strings.Contains(string(b), `"accuracy":0.6`) {
		t.Errorf("JSON: %s", b)
	}

	// Raw uint8 labels work too, and pooling adds up.
	m2, err := CompareLabels([]uint8{0, 2}, []uint8{0, 2})
	if err != nil {
		t.Fatal(err)
	}
	m2.Merge(m)
	if m2.Total() != 12 || m2.Correct() != 8 {
		t.Errorf("merged: total %d correct %d", m2.Total(), m2.Correct())
	}
}

func TestConfusionEdges(t *testing.T) {
	if _, err := CompareLabels([]page.Label{0}, nil); err == nil {
		t.Error("length mismatch accepted")
	}
	var z Confusion
	if z.Total() != 0 || z.Accuracy() != 1 || z.ContentAccuracy() != 1 {
		t.Errorf("empty: %d %v %v", z.Total(), z.Accuracy(), z.ContentAccuracy())
	}
	if !strings.Contains(z.String(), "continuation") {
		t.Errorf("empty matrix should still list the labels:\n%s", z.String())
	}
	// A label beyond page's grows the matrix and prints as a number.
	z.Add(7, page.Other)
	if z.Count(7, page.Other) != 1 || z.Accuracy() != 0 || z.ContentAccuracy() != 0 {
		t.Errorf("label 7: %v", z.String())
	}
	if !strings.Contains(z.String(), "\n7 ") {
		t.Errorf("label 7 row missing:\n%s", z.String())
	}
	all := []page.Label{0, 1, 2, 3, 4}
	m, _ := CompareLabels(all, all)
	if m.Accuracy() != 1 || m.ContentAccuracy() != 1 {
		t.Errorf("identical labels: %v %v", m.Accuracy(), m.ContentAccuracy())
	}
}
