package crf

import (
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestEmitWindowMatchesScore checks that a sequence scored window by
// window, each window holding only the attributes its positions' span
// reaches, gets the same emissions to the bit as scored whole, for windows
// of every size from one position up; and so do windows whose attributes
// the caller looked up in the model's dictionary (EmitResolved).
func TestEmitWindowMatchesScore(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	const L = 5
	data := pageLike(rng, 3, 57, 12, 30, L)
	m := randomModel(rng, data, pageTemplate, L, 1)
	before, after := m.Span()
	if before != 2 || after != 2 {
		t.Fatalf("Span = %d, %d; the template reaches 2 and 2", before, after)
	}
	ids := maps.Collect(m.Attrs())
	for _, s := range data {
		n := len(s.Attrs)
		s.Attrs[n/2] = append(s.Attrs[n/2], Attr{Name: "no such attribute"})
		want := m.Score(s.Attrs).emit
		for _, size := range []int{1, 2, 5, 16, n} {
			emit, resolved := make([]float64, n*L), make([]float64, n*L)
			for from := 0; from < n; from += size {
				to := min(from+size, n)
				lo, hi := max(from-before, 0), min(to+after, n)
				m.EmitWindow(s.Attrs[lo:hi], lo, n, from, to, emit)
				m.EmitResolved(resolve(ids, s.Attrs[lo:hi], lo), n, from, to, resolved)
			}
			if !slices.Equal(emit, want) || !slices.Equal(resolved, want) {
				t.Fatalf("windows of %d: emissions differ from Score's (EmitWindow %v, EmitResolved %v)", size, slices.Equal(emit, want), slices.Equal(resolved, want))
			}
			got, wantM := m.LatticeOf(emit).Marginals(), m.Score(s.Attrs).Marginals()
			for i := range got {
				if !slices.Equal(got[i], wantM[i]) {
					t.Fatalf("windows of %d: position %d: marginals %v, want %v", size, i, got[i], wantM[i])
				}
			}
		}
	}
}

// resolve looks the attributes of positions lo to lo+len(win)-1 up in ids,
// a model's dictionary, as a caller of EmitResolved does.
func resolve(ids map[string]int32, win [][]Attr, lo int) *Resolved {
	r := &Resolved{Start: []int32{0}, Lo: lo}
	for _, attrs := range win {
		for _, a := range attrs {
			if id, ok := ids[a.Name]; ok {
				r.IDs, r.Vals = append(r.IDs, id), append(r.Vals, a.value())
			}
		}
		r.Start = append(r.Start, int32(len(r.IDs)))
	}
	return r
}

// TestEmitWindowChecksCover checks that a window short of its positions'
// span is refused rather than scored wrong.
func TestEmitWindowChecksCover(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	data := pageLike(rng, 1, 20, 8, 20, 3)
	m := randomModel(rng, data, pageTemplate, 3, 1)
	defer func() {
		if recover() == nil {
			t.Fatal("a window missing a position two after the last was accepted")
		}
	}()
	m.EmitWindow(data[0].Attrs[4:11], 4, 20, 6, 10, make([]float64, 20*3))
}

// TestConsumeMatchesMarginals checks that marginals computed in the
// lattice's memory are Marginals' to the bit.
func TestConsumeMatchesMarginals(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	data := pageLike(rng, 4, 80, 10, 30, 5)
	m := randomModel(rng, data, pageTemplate, 5, 2)
	for _, s := range data {
		want := m.Score(s.Attrs).Marginals()
		got := m.Score(s.Attrs).Consume()
		for i := range want {
			if !slices.Equal(got[i], want[i]) {
				t.Fatalf("position %d: %v, want %v", i, got[i], want[i])
			}
		}
	}
}
