package label

import (
	"math"
	"testing"

	"github.com/sluice-project/sluice/internal/pagetest"
)

// TestContextRows checks the context columns of a small page against
// values worked out by hand.
func TestContextRows(t *testing.T) {
	p := pagetest.Parse(t, `<body><ul class="nav"><li><a href="/a">Home page</a></li><li><a href="/b">News</a></li><li><a href="/c">About us</a></li></ul>
<div><p>The river rose by two metres overnight and the bridge was closed.</p><p>Residents were told to leave.</p></div></body>`)
	n := len(p.Blocks)
	if n != 5 {
		t.Fatalf("%d blocks, want 5: %v", n, p.Blocks)
	}
	words := 0.0
	for _, b := range p.Blocks {
		words += float64(b.Words)
	}
	other, para := 0, 2
	marg := make([][]float64, n)
	crfP := []float64{0.1, 0.2, 0.1, 0.9, 0.8}
	for i, c := range crfP {
		marg[i] = []float64{1 - c, 0, c, 0, 0}
	}
	tp := []float64{0.2, 0.2, 0.3, 0.95, 0.6}
	cfg := DefaultFeatureConfig()
	cfg.Styles = []string{CleanEvalStyle}
	var cs contextScratch
	contextVerdicts(p, marg, tp, other, para, &cfg, &cs)
	if marg[0][other] != 0.9 {
		t.Fatal("contextVerdicts changed the marginals it was given")
	}
	x := contextRows(p, styleIndex(cfg.Styles, CleanEvalStyle), &cs)
	if len(x) != n*ContextColumns {
		t.Fatalf("%d values, want %d", len(x), n*ContextColumns)
	}
	row := func(i int) []float32 { return x[i*ContextColumns : (i+1)*ContextColumns] }
	near := func(got float32, want float64) bool { return math.Abs(float64(got)-want) < 1e-6 }
	if !math.IsNaN(float64(row(0)[cxCRFPrev])) || !math.IsNaN(float64(row(4)[cxTreeNext])) || !math.IsNaN(float64(row(1)[cxTreePrev2])) {
		t.Error("a neighbour beyond the page is not NaN")
	}
	if !near(row(1)[cxCRFPrev], 0.1) || !near(row(3)[cxTreeNext], 0.6) || !near(row(2)[cxTreeNext2], 0.6) {
		t.Errorf("neighbour columns wrong: %v, %v", row(1), row(3))
	}
	// The three menu items share one element path; the paragraphs another.
	if !near(row(0)[cxPathCount], 3) || !near(row(1)[cxPathMean], (0.2+0.2+0.3)/3) || !near(row(3)[cxPathCount], 2) {
		t.Errorf("path columns wrong: %v / %v", row(0), row(3))
	}
	// Blocks above: nothing above the best, the best's words above the
	// second; the two tied menu items have the same share.
	w := func(i int) float64 { return float64(p.Blocks[i].Words) }
	if !near(row(3)[cxAbove], 0) || !near(row(4)[cxAbove], w(3)/words) || row(0)[cxAbove] != row(1)[cxAbove] ||
		!near(row(0)[cxAbove], (w(3)+w(4)+w(2))/words) {
		t.Errorf("above shares: %v %v %v %v", row(0)[cxAbove], row(1)[cxAbove], row(3)[cxAbove], row(4)[cxAbove])
	}
	if !near(row(2)[cxPageSure], (w(3)+w(4))/words) || !near(row(2)[cxPageMax], 0.95) {
		t.Errorf("page columns wrong: %v", row(2))
	}
	if row(0)[cxStyle] != 1 || styleIndex(cfg.Styles, "") != 0 || styleIndex(cfg.Styles, MainStyle) != 0 {
		t.Errorf("style column %v", row(0)[cxStyle])
	}
	if !(row(0)[cxOwnLink] > 0.9) || row(3)[cxOwnLink] != 0 {
		t.Errorf("link ratios %v, %v", row(0)[cxOwnLink], row(3)[cxOwnLink])
	}
	// The final verdict is the blend, smoothed and focused: between the
	// CRF's and the trees' for a block outside any path of three.
	if f := row(3)[cxFinal]; !(f > 0 && f <= 0.95) {
		t.Errorf("final verdict %v", f)
	}
}
