package tables_test

import (
	"fmt"

	"github.com/sluice-project/sluice/ingest"
	"github.com/sluice-project/sluice/segment"
	"github.com/sluice-project/sluice/tables"
)

// Each data row of a table becomes one clause with its headers (Kitten's
// Figure 6, cut to two rows).
func ExampleLinearize() {
	src := `<table><caption>Dimensions Comparison</caption>
<tr><th></th><th>DS Lite</th><th>PSP</th></tr>
<tr><th>Length</th><td>133.0mm</td><td>170.0mm</td></tr>
<tr><th>Weight</th><td>218g</td><td>260g</td></tr></table>`
	doc, _ := ingest.Parse([]byte(src), ingest.DefaultOptions())
	p := segment.Segment(doc, segment.DefaultOptions())
	for i := range p.Tables {
		fmt.Println(tables.Classify(p, &p.Tables[i]))
		for _, clause := range tables.Linearize(p, &p.Tables[i]) {
			fmt.Println(clause)
		}
	}
	// Output:
	// data
	// Dimensions Comparison ;; DS Lite ; Length: 133.0mm / PSP ; Length: 170.0mm.
	// Dimensions Comparison ;; DS Lite ; Weight: 218g / PSP ; Weight: 260g.
}
