package train

import (
	"fmt"
	"slices"
	"testing"
)

// A fold seed deals the groups in another order: the folds stay balanced
// and a group whole, seed 0 is AssignFolds, and two seeds give two
// partitions.
func TestAssignFoldsSeeded(t *testing.T) {
	var groups []string
	for g := range 40 {
		for range g%5 + 1 {
			groups = append(groups, fmt.Sprintf("site%d", g))
		}
	}
	base := AssignFolds(groups, 6)
	if !slices.Equal(AssignFoldsSeeded(groups, 6, 0), base) {
		t.Fatal("seed 0 is not AssignFolds")
	}
	other := AssignFoldsSeeded(groups, 6, 7)
	if slices.Equal(other, base) {
		t.Error("seed 7 gives the same partition as seed 0")
	}
	if !slices.Equal(AssignFoldsSeeded(groups, 6, 7), other) {
		t.Error("one seed gives two partitions")
	}
	for _, fold := range [][]int{base, other} {
		at := map[string]int{}
		sizes := make([]int, 6)
		for i, g := range groups {
			if f, ok := at[g]; ok && f != fold[i] {
				t.Fatalf("group %s split across folds %d and %d", g, f, fold[i])
			}
			at[g] = fold[i]
			sizes[fold[i]]++
		}
		if slices.Max(sizes)-slices.Min(sizes) > 5 {
			t.Errorf("fold sizes %v: unbalanced", sizes)
		}
	}
}
