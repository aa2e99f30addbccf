package expectf1

import (
	"math"
	"testing"
)

// TestCut: the cut keeps the prefix of the likeliest blocks whose expected
// F1 is highest, and nothing of a page no block of which is sure.
func TestCut(t *testing.T) {
	// E[F1] is 0.667 with the first block alone, 0.649 with the second.
	if got := Cut([]Block{{0.9, 100}, {0.3, 100}, {0.05, 1000}}, 0.5); got != 0.9 {
		t.Errorf("sure page: cut %g, want 0.9", got)
	}
	if got := Cut([]Block{{0.45, 100}, {0.4, 100}}, 0.5); got != None {
		t.Errorf("no sure block: cut %g, want None", got)
	}
	if got := Cut([]Block{{0.9, 0}}, 0.5); got != None {
		t.Errorf("no words: cut %g, want None", got)
	}
}

// TestCutUnsure: a page whose highest probability lies between unsure and
// sure is cut on its scaled probabilities, and the cut is given on the
// blocks' own scale; below unsure nothing is kept; a page with a sure
// block is cut as Cut cuts it.
func TestCutUnsure(t *testing.T) {
	// Scaled by 0.9/0.45: 0.9, 0.8, 0.1, expected gold words 220. The
	// first two give E[F1] 2·170/(200+220) = 0.810, the first alone 0.563,
	// all three 0.478.
	bs := []Block{{0.05, 500}, {0.45, 100}, {0.4, 100}}
	got := CutUnsure(bs, 0.5, 0.3, 0.9)
	if math.Abs(got-0.4) > 1e-12 {
		t.Errorf("unsure page: cut %g, want 0.4 (the second block's own probability)", got)
	}
	if got := CutUnsure([]Block{{0.25, 100}, {0.2, 100}}, 0.5, 0.3, 0.9); got != None {
		t.Errorf("page under unsure: cut %g, want None", got)
	}
	sure := []Block{{0.9, 100}, {0.3, 100}, {0.05, 1000}}
	if got, want := CutUnsure(append([]Block(nil), sure...), 0.5, 0.3, 0.9), Cut(sure, 0.5); got != want {
		t.Errorf("sure page: cut %g, want Cut's %g", got, want)
	}
	if got := CutUnsure(nil, 0.5, 0.3, 0.9); got != None {
		t.Errorf("no blocks: cut %g, want None", got)
	}
	if got := CutUnsure([]Block{{0.4, 0}}, 0.5, 0.3, 0.9); got != None {
		t.Errorf("no words: cut %g, want None", got)
	}
}
