package render

import (
	"strings"
	"testing"

	"github.com/sluice-project/sluice/internal/pagetest"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/structure"
)

// dsLite is the table of Kitten's Figures 4 and 6 (the fixture of package
// tables' tests), with a paragraph before and after it.
const dsLite = `<html><body><p>Nintendo handhelds.</p><table border=1>
<tr><td colspan=4>Dimensions Comparison</td></tr>
<tr><td></td><td><u>DS Lite</u></td><td>Original DS</td><td>PSP</td></tr>
<tr><td>Length</td><td>133.0mm</td><td>148.7mm</td><td>170.0mm</td></tr>
<tr><td>Width</td><td>73.9mm</td><td>84.7mm</td><td>74.0mm</td></tr>
<tr><td>Depth</td><td>21.5mm</td><td>28.8mm</td><td>23.0mm</td></tr>
<tr><td>Weight</td><td>218g</td><td>275g</td><td>260g</td></tr>
</table><p>The DS Lite is the smallest.</p></body></html>`

// keepAll parses src and keeps every block, labelled by structure, so
// that the tests do not depend on a model's choices.
func keepAll(tb testing.TB, src string) *page.Page {
	tb.Helper()
	p := pagetest.Parse(tb, src)
	for i := range p.Blocks {
		p.Blocks[i].Score = 1
	}
	structure.Label(p, structure.Threshold)
	return p
}

// renderString renders p in format f with table mode m.
func renderString(tb testing.TB, f string, m Tables, p *page.Page) string {
	tb.Helper()
	r, err := Lookup(f, Options{Tables: m})
	if err != nil {
		tb.Fatal(err)
	}
	var sb strings.Builder
	if err := r.Render(&sb, p); err != nil {
		tb.Fatal(err)
	}
	return sb.String()
}

func TestDumpDSLite(t *testing.T) {
	p := keepAll(t, dsLite)
	for _, f := range Formats() {
		t.Logf("%s:\n%s", f, renderString(t, f, TablesDefault, p))
	}
	t.Logf("text linear:\n%s", renderString(t, "text", TablesLinear, p))
}

func TestDumpSpans(t *testing.T) {
	p := keepAll(t, spansPage)
	for _, f := range Formats() {
		t.Logf("%s:\n%s", f, renderString(t, f, TablesDefault, p))
	}
}

const spansPage = `<html><body><table><caption>Tea prices</caption>
<tr><th>Tea</th><th>Size</th><th>Price</th></tr>
<tr><th rowspan=2>Green</th><td>small</td><td>2.00</td></tr>
<tr><td>large</td><td>3.50</td></tr>
<tr><td>Black</td><td colspan=2>sold out | back soon</td></tr>
</table></body></html>`
