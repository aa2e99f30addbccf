package crf

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"time"
)

// MaxLabels is the largest number of labels a model may have.
const MaxLabels = 256

// Training defaults, used where a TrainOptions field is zero.
const (
	// DefaultL2 is the default regularisation coefficient λ.
	DefaultL2 = 1.0
	// DefaultMaxIterations is the default bound on L-BFGS iterations.
	DefaultMaxIterations = 300
	// DefaultTolerance is the default relative objective improvement below
	// which training stops.
	DefaultTolerance = 1e-5
	// DefaultMinCount is the default minimum number of occurrences of a
	// feature: 1 keeps every feature seen in training.
	DefaultMinCount = 1
)

// convergenceWindow is the number of consecutive iterations whose objective
// must improve by less than Tolerance for training to stop.
const convergenceWindow = 5

// TrainOptions configures [Train]. The zero value of each field but Labels
// and Template selects a documented default.
type TrainOptions struct {
	// Labels names the labels; Sequence.Labels index it. At most MaxLabels.
	Labels []string
	// Template says which features the model has.
	Template Template
	// L2 is the coefficient λ of the regulariser: training minimises
	// −Σ log P(labels | attributes) + λ/2·‖w‖². Zero means DefaultL2; to
	// train (almost) without regularisation give a tiny positive value.
	L2 float64
	// MinCount drops features that occur fewer than MinCount times in the
	// training data, which shrinks the model. Zero means DefaultMinCount (1:
	// keep all).
	MinCount int
	// MaxIterations bounds the number of L-BFGS iterations. Zero means
	// DefaultMaxIterations.
	MaxIterations int
	// Tolerance stops training when the objective has improved by less than
	// Tolerance (relative) in each of the last 5 iterations. Zero means
	// DefaultTolerance.
	Tolerance float64
	// Workers is the number of goroutines computing the gradient. Zero means
	// runtime.GOMAXPROCS(0). The trained weights depend on Workers only
	// through floating-point rounding: for a given input and Workers they are
	// identical from run to run.
	Workers int
	// Progress, if not nil, is called after every L-BFGS iteration.
	Progress func(Progress)
	// Minimizer minimises the objective; it is required. Package
	// crf/lbfgs gives the L-BFGS minimiser Train was made for
	// (lbfgs.Minimizer{}). It is not built in, so that a program that only
	// labels does not link an optimiser.
	Minimizer Minimizer
}

// Minimizer finds a minimum of a smooth function of many variables; see
// TrainOptions.Minimizer. Minimize starts from x, calls f for the value at
// a point and its gradient (written into grad), and returns the best point
// found. It stops after maxIter iterations, when the value has improved by
// less than tol (relative) in each of the last window iterations, or with
// ctx's error; progress, when not nil, is called after each iteration.
type Minimizer interface {
	Minimize(ctx context.Context, x []float64, f func(x, grad []float64) float64,
		maxIter int, tol float64, window int, progress func(iter int, value float64, grad []float64)) ([]float64, error)
}

// add adds src to dst, element by element.
func add(dst, src []float64) {
	src = src[:len(dst)]
	for i := range dst {
		dst[i] += src[i]
	}
}

// norm is the Euclidean norm of v.
func norm(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x * x
	}
	return math.Sqrt(s)
}

// Progress reports the state of training after one L-BFGS iteration.
type Progress struct {
	// Iteration counts L-BFGS iterations from 1.
	Iteration int
	// Objective is the regularised negative conditional log-likelihood.
	Objective float64
	// GradNorm is the Euclidean norm of the objective's gradient.
	GradNorm float64
	// Evaluations counts objective and gradient evaluations so far.
	Evaluations int
	// Elapsed is the time since the optimisation started.
	Elapsed time.Duration
}

// Train fits a model to the sequences by maximising their L2-regularised
// conditional log-likelihood with L-BFGS. Sequences of length zero are
// skipped. Training is deterministic: the same data and options give the
// same weights. It stops early with ctx's error when ctx is done.
func Train(ctx context.Context, data []Sequence, opts TrainOptions) (*Model, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	L := len(o.Labels)
	b := newDictBuilder(o.Template)
	for i, seq := range data {
		if err := checkSequence(seq, L); err != nil {
			return nil, fmt.Errorf("crf: sequence %d: %w", i, err)
		}
		if err := b.count(seq.Attrs); err != nil {
			return nil, fmt.Errorf("crf: sequence %d: %w", i, err)
		}
	}
	fs := b.featureSet(o.MinCount, L)
	if fs.nFeat > math.MaxInt32/L {
		return nil, fmt.Errorf("crf: %d features × %d labels is too many weights", fs.nFeat, L)
	}
	seqs := compileAll(&fs, data, o.Workers)
	x, err := minimize(ctx, seqs, fs.nFeat, L, o.Template.Bigram, o)
	if err != nil {
		return nil, err
	}
	return finalModel(&fs, o.Labels, x), nil
}

func (opts TrainOptions) withDefaults() (TrainOptions, error) {
	o := opts
	if len(o.Labels) == 0 {
		return o, errors.New("crf: TrainOptions.Labels is empty")
	}
	if o.Minimizer == nil {
		return o, errors.New("crf: TrainOptions.Minimizer is nil (package crf/lbfgs gives one: lbfgs.Minimizer{})")
	}
	if len(o.Labels) > MaxLabels {
		return o, fmt.Errorf("crf: %d labels; the limit is %d", len(o.Labels), MaxLabels)
	}
	for i, l := range o.Labels {
		if slices.Index(o.Labels[:i], l) >= 0 {
			return o, fmt.Errorf("crf: label %q is listed twice", l)
		}
	}
	if err := o.Template.validate(); err != nil {
		return o, err
	}
	switch {
	case o.L2 < 0 || math.IsNaN(o.L2) || math.IsInf(o.L2, 0):
		return o, fmt.Errorf("crf: L2 = %v; it must be positive (or zero for the default)", o.L2)
	case o.L2 == 0:
		o.L2 = DefaultL2
	}
	if o.MinCount <= 0 {
		o.MinCount = DefaultMinCount
	}
	if o.MaxIterations <= 0 {
		o.MaxIterations = DefaultMaxIterations
	}
	if o.Tolerance <= 0 || math.IsNaN(o.Tolerance) {
		o.Tolerance = DefaultTolerance
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	return o, nil
}

func checkSequence(seq Sequence, L int) error {
	if seq.Weight < 0 || math.IsNaN(seq.Weight) || math.IsInf(seq.Weight, 0) {
		return fmt.Errorf("weight %v; it must be positive (or zero for 1)", seq.Weight)
	}
	if len(seq.Attrs) != len(seq.Labels) {
		return fmt.Errorf("%d attribute lists but %d labels", len(seq.Attrs), len(seq.Labels))
	}
	if seq.Cost != nil {
		if len(seq.Cost) != len(seq.Labels)*L {
			return fmt.Errorf("%d costs for %d positions of %d labels; want %d", len(seq.Cost), len(seq.Labels), L, len(seq.Labels)*L)
		}
		for i, c := range seq.Cost {
			if !(c >= 0) || math.IsInf(c, 0) {
				return fmt.Errorf("position %d: label %d has cost %v; costs must be finite and not negative", i/L, i%L, c)
			}
		}
	}
	for t, y := range seq.Labels {
		if y < 0 || y >= L {
			return fmt.Errorf("position %d: label %d is outside 0..%d", t, y, L-1)
		}
		if seq.Cost != nil && seq.Cost[t*L+y] != 0 {
			return fmt.Errorf("position %d: its correct label %d has cost %v; it must be 0", t, y, seq.Cost[t*L+y])
		}
		for _, a := range seq.Attrs[t] {
			if a.Name == "" {
				return fmt.Errorf("position %d: attribute with an empty name", t)
			}
			if math.IsNaN(a.Value) || math.IsInf(a.Value, 0) {
				return fmt.Errorf("position %d: attribute %q has value %v", t, a.Name, a.Value)
			}
		}
	}
	return nil
}

// dictBuilder interns attributes and counts feature occurrences.
type dictBuilder struct {
	tmpl      Template
	index     map[string]int32
	names     []string
	uniMatch  []bool   // attribute id × unigram line
	pairMatch []uint64 // per attribute id, bits as featureSet.pairMask
	uniCount  []int32  // attribute id × unigram line
	pairCount map[uint64]int32
	pairKeys  []uint64 // in order of first occurrence
	r         resolved
}

func newDictBuilder(t Template) *dictBuilder {
	b := &dictBuilder{
		tmpl:      t,
		index:     map[string]int32{},
		pairCount: map[uint64]int32{},
	}
	// The sentinels match every filter.
	for range firstAttr {
		for range t.Unigrams {
			b.uniMatch = append(b.uniMatch, true)
			b.uniCount = append(b.uniCount, 0)
		}
		b.pairMatch = append(b.pairMatch, math.MaxUint64)
	}
	return b
}

func (b *dictBuilder) intern(name string) (int32, error) {
	if id, ok := b.index[name]; ok {
		return id, nil
	}
	id := int32(len(b.names) + firstAttr)
	if int(id) >= maxAttrs {
		return 0, fmt.Errorf("more than %d distinct attributes", maxAttrs-firstAttr)
	}
	b.index[name] = id
	b.names = append(b.names, name)
	key := attrKey(name)
	for _, ut := range b.tmpl.Unigrams {
		b.uniMatch = append(b.uniMatch, ut.selects(key))
		b.uniCount = append(b.uniCount, 0)
	}
	var m uint64
	for p, pt := range b.tmpl.Pairs {
		if pt.A.selects(key) {
			m |= 1 << (2 * p)
		}
		if pt.B.selects(key) {
			m |= 1 << (2*p + 1)
		}
	}
	b.pairMatch = append(b.pairMatch, m)
	return id, nil
}

// count adds the feature occurrences of one sequence.
func (b *dictBuilder) count(seq [][]Attr) error {
	r := &b.r
	r.start = append(r.start[:0], 0)
	r.ids, r.vals = r.ids[:0], r.vals[:0]
	for _, attrs := range seq {
		for _, a := range attrs {
			id, err := b.intern(a.Name)
			if err != nil {
				return err
			}
			r.ids = append(r.ids, id)
			r.vals = append(r.vals, 1)
		}
		r.start = append(r.start, int32(len(r.ids)))
	}
	n := len(seq)
	nU := len(b.tmpl.Unigrams)
	before, after := b.tmpl.span()
	for s := -before; s < n+after; s++ {
		ids, _ := r.at(s, n)
		for _, a := range ids {
			match := b.uniMatch[int(a)*nU : int(a)*nU+nU]
			for u, ok := range match {
				if t := s - b.tmpl.Unigrams[u].Offset; ok && uint(t) < uint(n) {
					b.uniCount[int(a)*nU+u]++
				}
			}
		}
	}
	for t := range n {
		eachPair(b.tmpl.Pairs, b.pairMatch, r, n, t, func(p int, a, bb int32, _ float64) {
			k := pairKey(p, a, bb)
			c, ok := b.pairCount[k]
			if !ok {
				b.pairKeys = append(b.pairKeys, k)
			}
			b.pairCount[k] = c + 1
		})
	}
	return nil
}

// featureSet returns the features occurring at least minCount times.
func (b *dictBuilder) featureSet(minCount, L int) featureSet {
	fs := featureSet{tmpl: b.tmpl, nLabels: L, names: b.names, index: b.index}
	nU := len(b.tmpl.Unigrams)
	fs.uniStart = make([]int32, 1, len(b.names)+firstAttr+1)
	for a := range len(b.names) + firstAttr {
		for u, c := range b.uniCount[a*nU : a*nU+nU] {
			if int(c) >= minCount {
				fs.uniTmpl = append(fs.uniTmpl, uint16(u))
			}
		}
		fs.uniStart = append(fs.uniStart, int32(len(fs.uniTmpl)))
	}
	fs.pairFeats = make([][][2]int32, len(b.tmpl.Pairs))
	for _, k := range b.pairKeys {
		if int(b.pairCount[k]) >= minCount {
			p := int(k >> 58)
			a, bb := int32(k>>29&(maxAttrs-1)), int32(k&(maxAttrs-1))
			fs.pairFeats[p] = append(fs.pairFeats[p], [2]int32{a, bb})
		}
	}
	for _, list := range fs.pairFeats {
		slices.SortFunc(list, func(x, y [2]int32) int {
			if x[0] != y[0] {
				return int(x[0] - y[0])
			}
			return int(x[1] - y[1])
		})
	}
	fs.build()
	return fs
}

// compileAll compiles the non-empty sequences, in order, using workers
// goroutines.
func compileAll(fs *featureSet, data []Sequence, workers int) []cseq {
	var idx []int
	for i, s := range data {
		if len(s.Labels) > 0 {
			idx = append(idx, i)
		}
	}
	out := make([]cseq, len(idx))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			var r resolved
			for k := w; k < len(idx); k += workers {
				s := data[idx[k]]
				fs.resolve(s.Attrs, &r)
				out[k] = fs.compile(&r, s.Labels)
				out[k].w = s.Weight
				out[k].cost = s.Cost
			}
		})
	}
	wg.Wait()
	return out
}

// objective evaluates the regularised negative log-likelihood and its
// gradient. The weight vector is laid out as nFeat×L feature weights, then,
// with a bigram template, L×L transition, L start and L end weights.
type objective struct {
	seqs   []cseq
	L      int
	nFeat  int
	bigram bool
	l2     float64
	emp    []float64 // empirical feature counts
	parts  []int     // worker w handles seqs[parts[w]:parts[w+1]]
	ws     []*worker
	zeros  []float64 // stand-in transition weights without a bigram template

	x, g  []float64 // the last point evaluated and its gradient
	f     float64
	valid bool
	evals int
}

type worker struct {
	g       []float64
	f       float64
	emit, p []float64
	xi      []float64 // a weighted sequence's transition counts
	fb      fbBuf
}

func newObjective(seqs []cseq, nFeat, L int, bigram bool, l2 float64, workers int) *objective {
	dim := nFeat * L
	if bigram {
		dim += L*L + 2*L
	}
	o := &objective{seqs: seqs, L: L, nFeat: nFeat, bigram: bigram, l2: l2}
	o.emp = make([]float64, dim)
	o.zeros = make([]float64, L*L)
	o.x = make([]float64, dim)
	o.g = make([]float64, dim)
	tOff := nFeat * L
	cost := make([]int, len(seqs))
	total := 0
	for i := range seqs {
		c := &seqs[i]
		n := c.n()
		w := c.weight()
		for t := range n {
			y := int(c.labels[t])
			for k := c.start[t]; k < c.start[t+1]; k++ {
				v := w
				if c.val != nil {
					v *= float64(c.val[k])
				}
				o.emp[int(c.feat[k])*L+y] += v
			}
			if bigram && t > 0 {
				o.emp[tOff+int(c.labels[t-1])*L+y] += w
			}
		}
		if bigram {
			o.emp[tOff+L*L+int(c.labels[0])] += w
			o.emp[tOff+L*L+L+int(c.labels[n-1])] += w
		}
		cost[i] = len(c.feat) + n*L*(L+4)
		total += cost[i]
	}
	// Contiguous parts of about equal cost, fixed for the whole run.
	workers = max(1, min(workers, len(seqs)))
	o.parts = []int{0}
	acc := 0
	for i, c := range cost {
		acc += c
		if len(o.parts) < workers && acc*workers >= total*len(o.parts) {
			o.parts = append(o.parts, i+1)
		}
	}
	for len(o.parts) < workers+1 {
		o.parts = append(o.parts, len(seqs))
	}
	o.ws = make([]*worker, workers)
	for w := range o.ws {
		o.ws[w] = &worker{g: make([]float64, dim)}
	}
	return o
}

// ensure makes o.f and o.g the objective and gradient at x.
func (o *objective) ensure(x []float64) {
	if o.valid && slices.Equal(x, o.x) {
		return
	}
	copy(o.x, x)
	o.evaluate()
	o.valid = true
	o.evals++
}

func (o *objective) evaluate() {
	x := o.x
	if len(o.ws) == 1 {
		o.ws[0].run(o, o.parts[0], o.parts[1])
	} else {
		var wg sync.WaitGroup
		for w, wk := range o.ws {
			wg.Go(func() { wk.run(o, o.parts[w], o.parts[w+1]) })
		}
		wg.Wait()
	}
	f := 0.0
	for _, wk := range o.ws {
		f += wk.f
	}
	// The sum over workers runs in a fixed order, so the result does not
	// depend on which goroutine finished first.
	g := o.g
	copy(g, o.ws[0].g)
	for _, wk := range o.ws[1:] {
		add(g, wk.g)
	}
	for k, xk := range x {
		f += xk * (0.5*o.l2*xk - o.emp[k])
		g[k] += o.l2*xk - o.emp[k]
	}
	o.f = f
}

// run adds the log partition functions and expected feature counts of
// seqs[lo:hi] under weights o.x into wk.f and wk.g.
func (wk *worker) run(o *objective, lo, hi int) {
	clear(wk.g)
	wk.f = 0
	L := o.L
	x := o.x
	wf := x[:o.nFeat*L]
	trans, start, end := o.zeros, o.zeros[:L], o.zeros[:L]
	var xi, gStart, gEnd []float64
	if o.bigram {
		t0 := o.nFeat * L
		trans, start, end = x[t0:t0+L*L], x[t0+L*L:t0+L*L+L], x[t0+L*L+L:t0+L*L+2*L]
		xi, gStart, gEnd = wk.g[t0:t0+L*L], wk.g[t0+L*L:t0+L*L+L], wk.g[t0+L*L+L:t0+L*L+2*L]
	}
	for i := lo; i < hi; i++ {
		c := &o.seqs[i]
		n := c.n()
		wk.emit = grow(wk.emit, n*L)
		wk.p = grow(wk.p, n*L)
		emit, p := wk.emit, wk.p
		c.emissions(wf, L, emit)
		if c.cost != nil {
			// Softmax-margin: the costs raise the partition function's
			// scores of the labellings that make costly mistakes.
			add(emit[:n*L], c.cost)
		}
		wk.f += wk.marginals(c.weight(), n, L, emit, trans, start, end, p, xi)
		c.addExpected(wk.g, L, p)
		if o.bigram {
			add(gStart, p[:L])
			add(gEnd, p[(n-1)*L:n*L])
		}
	}
}

// emissions writes into emit[t*L+y] the sum of the weights wf of label y
// of the features of c at position t (times their values).
func (c *cseq) emissions(wf []float64, L int, emit []float64) {
	for t := range c.n() {
		es := emit[t*L : t*L+L]
		clear(es)
		for k := c.start[t]; k < c.start[t+1]; k++ {
			f := int(c.feat[k]) * L
			c.addRow(es, wf[f:f+L], k)
		}
	}
}

// marginals runs forward-backward over the lattice of a sequence of weight
// w and returns its log partition function times w. p receives the label
// marginals, and xi (unless nil) gains the expected transitions, both
// scaled by w.
func (wk *worker) marginals(w float64, n, L int, emit, trans, start, end, p, xi []float64) float64 {
	if w == 1 {
		return forwardBackward(n, L, emit, trans, start, end, &wk.fb, p, xi)
	}
	// A weighted sequence: its expected counts are scaled by w, the
	// transitions' through a buffer of their own.
	txi := xi
	if xi != nil {
		wk.xi = grow(wk.xi, L*L)
		clear(wk.xi)
		txi = wk.xi
	}
	f := w * forwardBackward(n, L, emit, trans, start, end, &wk.fb, p, txi)
	for i := range p {
		p[i] *= w
	}
	if xi != nil {
		txi = txi[:len(xi)]
		for i := range xi {
			xi[i] += w * txi[i]
		}
	}
	return f
}

// addExpected adds to the feature gradient g the expected counts of the
// features of c: at each position t, the marginals p[t*L:t*L+L] (times the
// feature's value) to each of its features' rows.
func (c *cseq) addExpected(g []float64, L int, p []float64) {
	for t := range c.n() {
		ps := p[t*L : t*L+L]
		for k := c.start[t]; k < c.start[t+1]; k++ {
			f := int(c.feat[k]) * L
			c.addRow(g[f:f+L], ps, k)
		}
	}
}

// addRow adds src, times the value of feature occurrence k of c, to dst:
// a feature's weights to an emission row, or a marginal row to a feature's
// gradient.
func (c *cseq) addRow(dst, src []float64, k int32) {
	src = src[:len(dst)]
	if c.val == nil {
		for y := range dst {
			dst[y] += src[y]
		}
		return
	}
	v := float64(c.val[k])
	for y := range dst {
		dst[y] += src[y] * v
	}
}

// minimize runs opts.Minimizer from zero weights and returns the optimum.
func minimize(ctx context.Context, seqs []cseq, nFeat, L int, bigram bool, opts TrainOptions) ([]float64, error) {
	o := newObjective(seqs, nFeat, L, bigram, opts.L2, opts.Workers)
	if len(o.x) == 0 || len(seqs) == 0 {
		return o.x, nil // nothing to learn: all weights stay zero
	}
	f := func(x, g []float64) float64 {
		o.ensure(x)
		copy(g, o.g)
		return o.f
	}
	var progress func(int, float64, []float64)
	if opts.Progress != nil {
		start := time.Now()
		progress = func(iter int, value float64, grad []float64) {
			opts.Progress(Progress{Iteration: iter, Objective: value, GradNorm: norm(grad), Evaluations: o.evals, Elapsed: time.Since(start)})
		}
	}
	x, err := opts.Minimizer.Minimize(ctx, make([]float64, len(o.x)), f, opts.MaxIterations, opts.Tolerance, convergenceWindow, progress)
	if cerr := ctx.Err(); cerr != nil {
		return nil, cerr
	}
	if err != nil {
		return nil, fmt.Errorf("crf: training: %w", err)
	}
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, errors.New("crf: training diverged (non-finite weights); check attribute values")
		}
	}
	return x, nil
}

// finalModel rounds the weights to float32, drops features whose weights
// are all zero and attributes left without features, and renumbers the
// attributes densely, keeping their order.
func finalModel(fs *featureSet, labels []string, x []float64) *Model {
	L := len(labels)
	keep := make([]bool, fs.nFeat)
	var w []float32
	for f := range fs.nFeat {
		for _, v := range x[f*L : f*L+L] {
			if float32(v) != 0 {
				keep[f] = true
				break
			}
		}
		if keep[f] {
			for _, v := range x[f*L : f*L+L] {
				w = append(w, float32(v))
			}
		}
	}
	used := make([]bool, fs.nAttrs())
	for a := range fs.nAttrs() {
		for j := fs.uniStart[a]; j < fs.uniStart[a+1]; j++ {
			used[a] = used[a] || keep[j]
		}
	}
	f := len(fs.uniTmpl)
	for _, list := range fs.pairFeats {
		for _, ab := range list {
			if keep[f] {
				used[ab[0]], used[ab[1]] = true, true
			}
			f++
		}
	}
	newID := make([]int32, fs.nAttrs())
	nf := featureSet{tmpl: fs.tmpl, nLabels: L, index: map[string]int32{}}
	nf.uniStart = []int32{0}
	for a := range int32(fs.nAttrs()) {
		if a >= firstAttr && !used[a] {
			continue
		}
		newID[a] = int32(len(nf.uniStart) - 1)
		if a >= firstAttr {
			name := fs.names[a-firstAttr]
			nf.index[name] = newID[a]
			nf.names = append(nf.names, name)
		}
		for j := fs.uniStart[a]; j < fs.uniStart[a+1]; j++ {
			if keep[j] {
				nf.uniTmpl = append(nf.uniTmpl, fs.uniTmpl[j])
			}
		}
		nf.uniStart = append(nf.uniStart, int32(len(nf.uniTmpl)))
	}
	f = len(fs.uniTmpl)
	nf.pairFeats = make([][][2]int32, len(fs.pairFeats))
	for p, list := range fs.pairFeats {
		for _, ab := range list {
			if keep[f] {
				nf.pairFeats[p] = append(nf.pairFeats[p], [2]int32{newID[ab[0]], newID[ab[1]]})
			}
			f++
		}
	}
	nf.build()
	var bw []float32
	if fs.tmpl.Bigram {
		for _, v := range x[fs.nFeat*L:] {
			bw = append(bw, float32(v))
		}
	}
	return newModel(nf, labels, w, bw)
}
