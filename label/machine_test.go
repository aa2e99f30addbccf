package label

import (
	"testing"

	"github.com/sluice-project/sluice/page"
)

// TestDropMachineText: a block that is mostly UUIDs goes to other, a
// block with one UUID among its words keeps its verdict.
func TestDropMachineText(t *testing.T) {
	p := &page.Page{Blocks: []page.Block{
		{Text: "The kettle boils a litre in three minutes and keeps it warm for an hour."},
		{Text: "S19aea247-2e76-4905-9b83-15a5a5664cfaG661bd3c3-576f-4713-baee-9dc0dd7c3568 Sponsored"},
		{Text: "Your order f47ac10b-58cc-4372-a567-0e02b2c3d479 left our workshop on Monday morning by courier."},
	}}
	marg := make([][]float64, len(p.Blocks))
	for i := range marg {
		marg[i] = []float64{0.1, 0, 0.9, 0, 0}
	}
	DropMachineText(p, marg, 0)
	for i, want := range []float64{0.1, 1, 0.1} {
		if marg[i][0] != want {
			t.Errorf("block %d: other %v, want %v", i, marg[i][0], want)
		}
	}
	DropMachineText(p, marg[:1], 0) // marginals of another page: nothing
}
