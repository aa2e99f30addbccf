package tables

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sluice-project/sluice/ingest"
	"github.com/sluice-project/sluice/segment"
)

// FuzzTables runs the whole table path on arbitrary HTML: no panic, and
// clauses only for tables classified as data, each ending as a sentence
// does (stop: a full stop added unless it ends in ".", "?", "!" or "…").
func FuzzTables(f *testing.F) {
	f.Add([]byte(dsLite))
	f.Add([]byte(`<table><tr><th colspan=0>a<th rowspan=-2>b<tr><td colspan=99999>1<td>2<tr><th>a<th>b</table>`))
	f.Add([]byte(`<table><caption>x</caption><thead><tr><td><td scope=col>h</thead><tr><td>r<td>1<tr><td colspan=2>note</table>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := ingest.Parse(data, ingest.DefaultOptions())
		if err != nil {
			return
		}
		p := segment.Segment(doc, segment.DefaultOptions())
		for i := range p.Tables {
			tb := &p.Tables[i]
			Measure(p, tb)
			MeasureCells(p, tb)
			if roles := TypeCells(p, tb); roles != nil && len(roles) != len(tb.Cells) {
				t.Fatalf("table %d: %d roles for %d cells", i, len(roles), len(tb.Cells))
			}
			for _, s := range Linearize(p, tb) {
				if r, _ := utf8.DecodeLastRuneInString(s); !strings.ContainsRune(".?!…", r) {
					t.Fatalf("clause without terminal punctuation: %q", s)
				}
			}
		}
	})
}
