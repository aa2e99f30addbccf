package crf

import (
	"fmt"
	"iter"
)

// Resolved is a window of a sequence's attributes already looked up in a
// model's dictionary (see Attrs), for EmitResolved: position Lo+i has the
// attributes IDs[Start[i]:Start[i+1]], with the values Vals (1 for an
// attribute without one, as Attr.Value 0 stands for). A caller that looks
// up its attributes for other purposes too resolves them once this way.
type Resolved struct {
	Start []int32 // one more than the positions; Start[0] is 0
	IDs   []int32
	Vals  []float64
	Lo    int
}

// Attrs yields the name and dictionary id of each attribute the model
// knows, for Resolved.
func (m *Model) Attrs() iter.Seq2[string, int32] {
	return func(yield func(string, int32) bool) {
		for i, name := range m.fs.names {
			if !yield(name, int32(i)+firstAttr) {
				return
			}
		}
	}
}

// EmitResolved is EmitWindow over attributes looked up already: r holds
// positions r.Lo to r.Lo+len(r.Start)-2. The rows are the same, to the
// bit, as EmitWindow computes from the attributes r was resolved from.
func (m *Model) EmitResolved(r *Resolved, n, from, to int, emit []float64) {
	if len(r.Start) == 0 || int(r.Start[len(r.Start)-1]) > min(len(r.IDs), len(r.Vals)) {
		panic(fmt.Sprintf("crf: EmitResolved: %d positions' starts for %d ids and %d values", len(r.Start)-1, len(r.IDs), len(r.Vals)))
	}
	m.emitResolved(&resolved{start: r.Start, ids: r.IDs, vals: r.Vals, lo: r.Lo}, n, from, to, emit)
}

// emitResolved writes the emission rows of positions from to to-1 of an
// n-position sequence into emit (n rows) from the resolved window r; see
// EmitWindow.
func (m *Model) emitResolved(r *resolved, n, from, to int, emit []float64) {
	L := len(m.labels)
	lo, hi := r.lo, r.lo+len(r.start)-1
	if from < 0 || to > n || from > to || lo > max(from-m.fs.before, 0) || hi < min(to+m.fs.after, n) || len(emit) != n*L {
		panic(fmt.Sprintf("crf: EmitWindow: window [%d,%d) does not cover positions [%d,%d) of %d with their span, or %d emission values", lo, hi, from, to, n, len(emit)))
	}
	m.fs.emitRows(r, n, from, to, m.w, emit[from*L:to*L])
}
