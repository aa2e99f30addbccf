package gbdt

import (
	"context"
	"math"
	"strings"
	"testing"
)

// nodeMargin is Margin walking the nodes as trained, the reference for the
// heap layout.
func nodeMargin(m *Model, row []float32) float64 {
	s := m.base
	for _, i := range m.roots {
		for m.nodes[i].feature >= 0 {
			n := &m.nodes[i]
			v := float32(math.NaN())
			if int(n.feature) < len(row) {
				v = row[n.feature]
			}
			left := v <= n.threshold
			if v != v {
				left = n.defLeft
			}
			if left {
				i = n.left
			} else {
				i = n.right
			}
		}
		s += m.nodes[i].value
	}
	return s
}

// TestHeapEqualsNodes: the heap layout gives the trees' walks over their
// nodes to the bit, for trees of every depth up to MaxDepth (unbalanced
// ones among them), missing values and short rows.
func TestHeapEqualsNodes(t *testing.T) {
	d := noisyData(3000, 8, 9)
	for _, depth := range []int{1, 3, 6, MaxDepth} {
		m, err := Train(context.Background(), d.x, d.cols, d.y, nil, Options{Trees: 20, Depth: depth, MinLeaf: 20})
		if err != nil {
			t.Fatal(err)
		}
		for r := range 300 {
			row := append([]float32(nil), d.row(r)...)
			for j := range row {
				if r%3 == 1 && (r+j)%2 == 0 || r%5 == 3 {
					row[j] = float32(math.NaN())
				}
			}
			if r%7 == 2 {
				row = row[:r%d.cols]
			}
			if got, want := m.Margin(row), nodeMargin(m, row); got != want {
				t.Fatalf("depth %d, row %d %v: Margin %v, over the nodes %v", depth, r, row, got, want)
			}
		}
	}
}

// TestUnmarshalRefusesDeepTrees: a tree deeper than MaxDepth, which Train
// never grows, is refused rather than laid out in 2^depth leaves.
func TestUnmarshalRefusesDeepTrees(t *testing.T) {
	// Split i, at 2i, has a leaf at 2i+1 and split i+1 (or the last leaf)
	// at 2i+2.
	var chain []node
	for i := range int32(MaxDepth + 1) {
		chain = append(chain, node{feature: 0, left: 2*i + 1, right: 2*i + 2}, node{feature: -1})
	}
	chain = append(chain, node{feature: -1})
	_, err := Unmarshal(mustMarshal(t, modelOf(1, 0, chain)))
	if err == nil || !strings.Contains(err.Error(), "deep") {
		t.Errorf("Unmarshal of a tree %d deep: %v", MaxDepth+1, err)
	}
}
