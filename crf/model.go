package crf

import (
	"iter"
	"slices"

	"github.com/sluice-project/sluice/internal/freelist"
)

// Model is a trained linear-chain CRF. It is immutable and safe for
// concurrent use by multiple goroutines. Get one from [Train], [Load] or
// [Unmarshal].
type Model struct {
	fs     featureSet
	labels []string
	w      []float32 // feature weights, nFeat × L
	// Transition, start and end weights; zeros without a bigram template.
	trans, start, end []float64
	bw                []float32 // the same as stored: L*L+2L, or nil
	scratch           *freelist.List[scratch]
}

// scratch is per-call working memory, pooled by the model.
type scratch struct {
	r    resolved
	fb   fbBuf
	back []uint8
}

func (m *Model) getScratch() *scratch { return m.scratch.Get() }

// maxKept bounds the working memory of one call that the model keeps for
// the next (entries of the resolved attributes): the scratch of a huge
// sequence is left to the garbage collector.
const maxKept = 1 << 18

func (m *Model) putScratch(s *scratch) {
	if cap(s.r.ids) > maxKept || cap(s.back) > maxKept || cap(s.fb.alpha) > maxKept {
		return
	}
	m.scratch.Put(s)
}

// Labels returns the label names; label i of a decoded sequence is
// Labels()[i]. The caller must not modify the slice.
func (m *Model) Labels() []string { return m.labels }

// Template returns the feature template the model was trained with.
func (m *Model) Template() Template { return m.fs.tmpl }

// NumFeatures returns the number of features (attribute-at-offset and
// conjunction combinations, each with one weight per label) in the model.
func (m *Model) NumFeatures() int { return m.fs.nFeat }

// Features yields each feature of the model as its expanded name, such as
// "U[-1]:tag=p" or "U[-1]:split=br & U[0]:tag=li", with its weights, one per
// label. Positions before the start and after the end of a sequence appear
// as the attributes "_B" and "_E". The weight slice must not be modified.
func (m *Model) Features() iter.Seq2[string, []float32] {
	return func(yield func(string, []float32) bool) {
		L := len(m.labels)
		f := 0
		name := func(a int32) string {
			switch a {
			case attrBegin:
				return "_B"
			case attrEnd:
				return "_E"
			}
			return m.fs.names[a-firstAttr]
		}
		for a := range int32(m.fs.nAttrs()) {
			for ; f < int(m.fs.uniStart[a+1]); f++ {
				u := Unigram{Offset: m.fs.tmpl.Unigrams[m.fs.uniTmpl[f]].Offset}
				if !yield(u.String()+":"+name(a), m.w[f*L:f*L+L:f*L+L]) {
					return
				}
			}
		}
		for p, list := range m.fs.pairFeats {
			pt := m.fs.tmpl.Pairs[p]
			pa := Unigram{Offset: pt.A.Offset}.String()
			pb := Unigram{Offset: pt.B.Offset}.String()
			for _, ab := range list {
				if !yield(pa+":"+name(ab[0])+" & "+pb+":"+name(ab[1]), m.w[f*L:f*L+L:f*L+L]) {
					return
				}
				f++
			}
		}
	}
}

// Transition returns the weight of label to following label from, or 0 if
// the model has no bigram template. It panics if from or to is not a label
// index.
func (m *Model) Transition(from, to int) float64 {
	return m.trans[from*len(m.labels)+to]
}

// Lattice holds the per-position label scores of one sequence under a model:
// everything decoding needs, computed once so that Viterbi and Marginals can
// both run on it. A Lattice is not safe for concurrent use.
type Lattice struct {
	m    *Model
	n    int
	emit []float64 // n × L
}

// Score computes the lattice of a sequence given as the attributes of each
// position. Attribute names the model does not know are ignored.
func (m *Model) Score(seq [][]Attr) *Lattice {
	sc := m.getScratch()
	m.fs.resolve(seq, &sc.r)
	n := len(seq)
	l := &Lattice{m: m, n: n, emit: make([]float64, n*len(m.labels))}
	m.fs.emission(&sc.r, n, m.w, l.emit)
	m.putScratch(sc)
	return l
}

// Span returns how far the model's template reaches: a position's
// emission reads the attributes of the before positions before it and the
// after positions after it.
func (m *Model) Span() (before, after int) { return m.fs.before, m.fs.after }

// EmitWindow computes part of a sequence's lattice from part of its
// attributes, so that a long sequence is scored with memory for a window
// of attributes only: win holds the attributes of positions lo to
// lo+len(win)-1 of a sequence of n positions, and EmitWindow writes the
// emission rows of positions from to to-1 into emit, which holds the rows
// of all n positions (n × len(Labels()) values; see LatticeOf). win must
// hold every position of [from-before, to+after) that is in [0, n), where
// before and after are the model's Span; EmitWindow panics otherwise. The
// rows are the same, to the bit, as Score computes for the whole sequence.
func (m *Model) EmitWindow(win [][]Attr, lo, n, from, to int, emit []float64) {
	sc := m.getScratch()
	m.fs.resolve(win, &sc.r)
	sc.r.lo = lo
	m.emitResolved(&sc.r, n, from, to, emit)
	m.putScratch(sc)
}

// LatticeOf returns the lattice whose emission rows are emit, as
// EmitWindow wrote them (n × len(Labels()) values); it keeps emit.
func (m *Model) LatticeOf(emit []float64) *Lattice {
	L := len(m.labels)
	return &Lattice{m: m, n: len(emit) / L, emit: emit[:len(emit)/L*L]}
}

// Viterbi returns the most probable label of each position of seq. It is
// shorthand for m.Score(seq).Viterbi().
func (m *Model) Viterbi(seq [][]Attr) []int {
	path, _ := m.Score(seq).Viterbi()
	return path
}

// Marginals returns, for each position t of seq and label y, the probability
// P(y_t = y | seq). It is shorthand for m.Score(seq).Marginals().
func (m *Model) Marginals(seq [][]Attr) [][]float64 {
	return m.Score(seq).Marginals()
}

// Len returns the number of positions.
func (l *Lattice) Len() int { return l.n }

// Viterbi returns the most probable label sequence and its unnormalised log
// score (the sum of the weights of the features it fires). Ties go to the
// lower label index.
func (l *Lattice) Viterbi() ([]int, float64) {
	L := len(l.m.labels)
	path := make([]int, l.n)
	sc := l.m.getScratch()
	if cap(sc.back) < l.n*L {
		sc.back = make([]uint8, l.n*L)
	}
	sc.fb.tmp = grow(sc.fb.tmp, 2*L)
	score := viterbi(l.n, L, l.emit, l.m.trans, l.m.start, l.m.end, sc.back[:l.n*L], sc.fb.tmp[:L], sc.fb.tmp[L:], path)
	l.m.putScratch(sc)
	return path, score
}

// Marginals returns, for each position t and label y, the probability
// P(y_t = y | sequence), computed by forward-backward. Each row sums to 1.
// The rows share one backing array.
func (l *Lattice) Marginals() [][]float64 {
	L := len(l.m.labels)
	p := make([]float64, l.n*L)
	sc := l.m.getScratch()
	forwardBackward(l.n, L, l.emit, l.m.trans, l.m.start, l.m.end, &sc.fb, p, nil)
	l.m.putScratch(sc)
	rows := make([][]float64, l.n)
	for t := range rows {
		rows[t] = p[t*L : t*L+L : t*L+L]
	}
	return rows
}

// Consume returns the same marginals as Marginals, computed in the
// lattice's own memory where it can (the emission rows become the
// marginals), so that labelling a long sequence needs half the memory; the
// lattice must not be used after.
func (l *Lattice) Consume() [][]float64 {
	L := len(l.m.labels)
	sc := l.m.getScratch()
	b := &sc.fb
	// The emissions are exponentiated in place, and the marginals written
	// over them once the backward pass is done with them.
	p := l.emit[:l.n*L]
	b.phi = p
	forwardBackward(l.n, L, p, l.m.trans, l.m.start, l.m.end, b, p, nil)
	b.phi = nil
	l.m.putScratch(sc)
	l.emit = nil
	rows := make([][]float64, l.n)
	for t := range rows {
		rows[t] = p[t*L : t*L+L : t*L+L]
	}
	return rows
}

// logZ returns the log partition function of the lattice.
func (l *Lattice) logZ() float64 {
	L := len(l.m.labels)
	var b fbBuf
	return forwardBackward(l.n, L, l.emit, l.m.trans, l.m.start, l.m.end, &b, make([]float64, l.n*L), nil)
}

// newModel assembles a model from a built feature set and weights; w has
// nFeat*L entries and bigram, if not nil, L*L+2L (transitions, start, end).
func newModel(fs featureSet, labels []string, w []float32, bigram []float32) *Model {
	L := len(labels)
	m := &Model{fs: fs, labels: slices.Clone(labels), w: w, bw: bigram, scratch: freelist.New[scratch](0)}
	m.trans = make([]float64, L*L)
	m.start = make([]float64, L)
	m.end = make([]float64, L)
	if bigram != nil {
		for i, v := range bigram[:L*L] {
			m.trans[i] = float64(v)
		}
		for y := range L {
			m.start[y] = float64(bigram[L*L+y])
			m.end[y] = float64(bigram[L*L+L+y])
		}
	}
	return m
}
