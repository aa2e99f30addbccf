package crf

import "slices"

// Attribute ids. Ids 0 and 1 are sentinels standing for the positions before
// the start and after the end of a sequence, so that "U[-1]" at the first
// position is a feature of its own ("there is no previous position"). They
// match every key filter. Attributes named by callers start at firstAttr.
const (
	attrBegin int32 = 0
	attrEnd   int32 = 1
	firstAttr       = 2
)

// maxAttrs bounds attribute ids so that a pair key fits in 64 bits.
const maxAttrs = 1 << 29

var (
	beginIDs = []int32{attrBegin}
	endIDs   = []int32{attrEnd}
	oneVal   = []float64{1}
)

// featureSet is the feature dictionary: which (unigram line, attribute) and
// (conjunction line, attribute, attribute) combinations are features, and
// their ids. Feature f owns weights [f*L, f*L+L) of the weight vector.
//
// Unigram features are numbered attribute-major: those of attribute 0 by
// ascending template line, then those of attribute 1, and so on, so the
// weights an attribute occurrence adds (one row per template line that sees
// it) are adjacent in memory; decoding then costs about one cache miss per
// attribute rather than one per feature. Conjunction features follow, line
// by line, by ascending (first, second) attribute id.
type featureSet struct {
	tmpl    Template
	nLabels int
	names   []string         // names[id-firstAttr] is the name of attribute id
	index   map[string]int32 // name -> attribute id

	uniStart  []int32      // attribute id -> its unigram features [uniStart[a], uniStart[a+1]); len nAttrs()+1
	uniTmpl   []uint16     // unigram feature -> template line
	pairFeats [][][2]int32 // per conjunction line: attribute ids, ascending
	nFeat     int

	// Lookup structures derived by build.
	uniOff        []int8   // unigram feature -> offset of its template line
	pairMask      []uint64 // per attribute id: bit 2p (2p+1) if it is side A (B) of a feature of conjunction p
	pairIndex     map[uint64]int32
	before, after int // template span
}

func (fs *featureSet) nAttrs() int { return len(fs.names) + firstAttr }

func pairKey(p int, a, b int32) uint64 {
	return uint64(p)<<58 | uint64(a)<<29 | uint64(b)
}

// build derives the lookup structures from the feature lists.
func (fs *featureSet) build() {
	na := fs.nAttrs()
	fs.before, fs.after = fs.tmpl.span()
	fs.uniOff = make([]int8, len(fs.uniTmpl))
	for j, u := range fs.uniTmpl {
		fs.uniOff[j] = int8(fs.tmpl.Unigrams[u].Offset)
	}
	f := int32(len(fs.uniTmpl))
	fs.pairMask = make([]uint64, na)
	fs.pairIndex = nil
	if len(fs.pairFeats) > 0 {
		n := 0
		for _, list := range fs.pairFeats {
			n += len(list)
		}
		fs.pairIndex = make(map[uint64]int32, n)
	}
	for p, list := range fs.pairFeats {
		for _, ab := range list {
			fs.pairMask[ab[0]] |= 1 << (2 * p)
			fs.pairMask[ab[1]] |= 1 << (2*p + 1)
			fs.pairIndex[pairKey(p, ab[0], ab[1])] = f
			f++
		}
	}
	fs.nFeat = int(f)
}

// resolved holds a sequence's attributes as dictionary ids: those of
// positions lo to lo+len(start)-1 (lo is 0 unless a window of a longer
// sequence was resolved, see Model.EmitWindow).
type resolved struct {
	start []int32 // per position, into ids/vals; one more than the positions
	ids   []int32
	vals  []float64
	lo    int
}

// at returns the attributes of position s of an n-position sequence, with a
// sentinel outside the sequence.
func (r *resolved) at(s, n int) ([]int32, []float64) {
	if s < 0 {
		return beginIDs, oneVal
	}
	if s >= n {
		return endIDs, oneVal
	}
	s -= r.lo
	a, b := r.start[s], r.start[s+1]
	return r.ids[a:b], r.vals[a:b]
}

// resolve looks up the attributes of seq. Names that are not in the
// dictionary are dropped: they have no features.
func (fs *featureSet) resolve(seq [][]Attr, r *resolved) {
	r.start = append(r.start[:0], 0)
	r.lo = 0
	r.ids = r.ids[:0]
	r.vals = r.vals[:0]
	for _, attrs := range seq {
		for _, a := range attrs {
			if id, ok := fs.index[a.Name]; ok {
				r.ids = append(r.ids, id)
				r.vals = append(r.vals, a.value())
			}
		}
		r.start = append(r.start, int32(len(r.ids)))
	}
}

// emission sets e[t*L+y] to the sum of the weights of the features that fire
// at position t with label y. It is the decoding hot path: no strings, no
// maps for unigrams; each attribute occurrence is scattered to the positions
// whose templates see it.
func (fs *featureSet) emission(r *resolved, n int, w []float32, e []float64) {
	fs.emitRows(r, n, 0, n, w, e[:n*fs.nLabels])
}

// emitRows sets row t-from of e to the emission of position t, for the
// positions t in [from, to) of an n-position sequence: r must hold the
// positions from-before to to+after-1 that exist. Each row gets its terms
// in the same order whatever from and to are, so that a sequence scored
// window by window gets the same emissions, to the bit, as scored whole.
func (fs *featureSet) emitRows(r *resolved, n, from, to int, w []float32, e []float64) {
	L := fs.nLabels
	e = e[:(to-from)*L]
	clear(e)
	uniStart, uniOff := fs.uniStart, fs.uniOff
	rows := to - from
	for s := from - fs.before; s < to+fs.after; s++ {
		ids, vals := r.at(s, n)
		if L == 5 { // addRows5 called here, without addRows' test each time
			for k, a := range ids {
				lo, hi := uniStart[a], uniStart[a+1]
				addRows5(e, rows, s-from, uniOff[lo:hi], w[int(lo)*5:int(hi)*5], vals[k])
			}
			continue
		}
		for k, a := range ids {
			lo, hi := uniStart[a], uniStart[a+1]
			addRows(e, L, rows, s-from, uniOff[lo:hi], w[int(lo)*L:int(hi)*L], vals[k])
		}
	}
	if len(fs.pairFeats) == 0 {
		return
	}
	for t := from; t < to; t++ {
		es := e[(t-from)*L : (t-from)*L+L]
		fs.pairsAt(r, n, t, func(f int32, v float64) {
			ws := w[int(f)*L : int(f)*L+L]
			for y := range es {
				es[y] += float64(ws[y]) * v
			}
		})
	}
}

// addRows adds v times row i of ws to row s-offs[i] of e (n rows of L),
// for the rows of e that exist. It is the hot loop of decoding: rows of
// five labels (the labeller's) are added unrolled, and v = 1 (an
// attribute without a value) without the multiplication, which leaves
// every sum as it was.
func addRows(e []float64, L, n, s int, offs []int8, ws []float32, v float64) {
	if L == 5 {
		addRows5(e, n, s, offs, ws, v)
		return
	}
	for i, o := range offs {
		t := s - int(o)
		if uint(t) >= uint(n) {
			continue
		}
		row := ws[i*L : i*L+L]
		es := e[t*L : t*L+L]
		es = es[:len(row)]
		for y, wv := range row {
			es[y] += float64(wv) * v
		}
	}
}

// addRows5 is addRows for rows of five labels.
func addRows5(e []float64, n, s int, offs []int8, ws []float32, v float64) {
	for i, o := range offs {
		t := s - int(o)
		if uint(t) >= uint(n) {
			continue
		}
		w := ws[i*5 : i*5+5 : i*5+5]
		es := e[t*5 : t*5+5 : t*5+5]
		if v == 1 {
			es[0] += float64(w[0])
			es[1] += float64(w[1])
			es[2] += float64(w[2])
			es[3] += float64(w[3])
			es[4] += float64(w[4])
			continue
		}
		es[0] += float64(w[0]) * v
		es[1] += float64(w[1]) * v
		es[2] += float64(w[2]) * v
		es[3] += float64(w[3]) * v
		es[4] += float64(w[4]) * v
	}
}

// pairsAt calls fn for each conjunction feature firing at position t.
func (fs *featureSet) pairsAt(r *resolved, n, t int, fn func(f int32, v float64)) {
	eachPair(fs.tmpl.Pairs, fs.pairMask, r, n, t, func(p int, a, b int32, v float64) {
		if f, ok := fs.pairIndex[pairKey(p, a, b)]; ok {
			fn(f, v)
		}
	})
}

// eachPair calls fn for each combination, at position t, of an attribute
// on side A and one on side B of a conjunction line p whose mask bits
// (bit 2p for side A, 2p+1 for side B) admit them, with the product of
// their values.
func eachPair(pairs []Pair, mask []uint64, r *resolved, n, t int, fn func(p int, a, b int32, v float64)) {
	var onB [16]int32 // indices into idsB admitted on side B
	for p, pt := range pairs {
		ma, mb := uint64(1)<<(2*p), uint64(1)<<(2*p+1)
		idsB, valsB := r.at(t+pt.B.Offset, n)
		// Side B first: a conjunction with a rare attribute (such as a
		// page's style) most often has none at t, and then side A, every
		// attribute of the position, need not be walked.
		admitted := onB[:0]
		for j, b := range idsB {
			if mask[b]&mb != 0 {
				admitted = append(admitted, int32(j))
			}
		}
		if len(admitted) == 0 {
			continue
		}
		idsA, valsA := r.at(t+pt.A.Offset, n)
		for i, a := range idsA {
			if mask[a]&ma == 0 {
				continue
			}
			for _, j := range admitted {
				fn(p, a, idsB[j], valsA[i]*valsB[j])
			}
		}
	}
}

// cseq is a compiled training sequence: for each position, the features
// firing there (CSR), with their values.
type cseq struct {
	labels []uint8
	start  []int32 // len n+1
	feat   []int32
	val    []float32 // nil when every value is 1
	w      float64   // Sequence.Weight; see weight
	cost   []float64 // Sequence.Cost, or nil
}

func (c *cseq) n() int { return len(c.labels) }

// weight is the sequence's weight in the objective (1 unless set).
func (c *cseq) weight() float64 {
	if c.w > 0 {
		return c.w
	}
	return 1
}

// compile lists the features firing at each position of a resolved
// sequence. It finds exactly the features emission sums.
func (fs *featureSet) compile(r *resolved, labels []int) cseq {
	n := len(labels)
	type occ struct {
		t int32
		f int32
		v float64
	}
	var occs []occ
	for s := -fs.before; s < n+fs.after; s++ {
		ids, vals := r.at(s, n)
		for k, a := range ids {
			for j := fs.uniStart[a]; j < fs.uniStart[a+1]; j++ {
				t := s - int(fs.uniOff[j])
				if uint(t) < uint(n) {
					occs = append(occs, occ{int32(t), j, vals[k]})
				}
			}
		}
	}
	for t := 0; t < n; t++ {
		fs.pairsAt(r, n, t, func(f int32, v float64) {
			occs = append(occs, occ{int32(t), f, v})
		})
	}
	c := cseq{
		labels: make([]uint8, n),
		start:  make([]int32, n+1),
		feat:   make([]int32, len(occs)),
	}
	for t, y := range labels {
		c.labels[t] = uint8(y)
	}
	allOne := true
	for _, o := range occs {
		c.start[o.t+1]++
		if o.v != 1 {
			allOne = false
		}
	}
	for t := 1; t <= n; t++ {
		c.start[t] += c.start[t-1]
	}
	if !allOne {
		c.val = make([]float32, len(occs))
	}
	next := slices.Clone(c.start[:n])
	for _, o := range occs {
		j := next[o.t]
		next[o.t]++
		c.feat[j] = o.f
		if c.val != nil {
			c.val[j] = float32(o.v)
		}
	}
	return c
}
