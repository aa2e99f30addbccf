package pipeline

import (
	"slices"
	"testing"
)

// TestNearDuplicatesOf: in output order, a page is a near duplicate when
// it resembles a page before it that is not one, as corpus decides: of
// a chain A~B~C where C does not resemble A, A and C are kept.
func TestNearDuplicatesOf(t *testing.T) {
	a, b, c, d := order{File: "f", At: 1}, order{File: "f", At: 2}, order{File: "f", At: 3}, order{File: "g", At: 0}
	edges := []edge{{Later: c, Earlier: b}, {Later: b, Earlier: a}, {Later: d, Earlier: c}, {Later: d, Earlier: b}}
	var got []string
	nearDuplicatesOf(0, func(e *edge) bool {
		if len(edges) == 0 {
			return false
		}
		*e, edges = edges[0], edges[1:]
		return true
	}, func(k string, _ bool) { got = append(got, k) })
	slices.Sort(got)
	if want := []string{b.key(), d.key()}; !slices.Equal(got, want) {
		t.Errorf("near duplicates %q, want %q (B and D)", got, want)
	}
}
