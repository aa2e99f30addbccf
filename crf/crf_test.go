package crf

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestParseTemplate(t *testing.T) {
	tmpl, err := ParseTemplate(`
# comment
U[0]
U[-2..-1]:tag,lq   # range and keys
U[-1]:split & U[0]:tag
B
`)
	if err != nil {
		t.Fatal(err)
	}
	want := "U[0]\nU[-2]:tag,lq\nU[-1]:tag,lq\nU[-1]:split & U[0]:tag\nB\n"
	if got := tmpl.String(); got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	again, err := ParseTemplate(tmpl.String())
	if err != nil || again.String() != want {
		t.Errorf("round trip: %v, %q", err, again.String())
	}
	for _, bad := range []string{
		"", "# only a comment", "X", "U[", "U[1", "U[a]", "U[2..1]", "U[-9]", "U[0]:", "U[0]:a,,b",
		"U[0]:tag=p", "U[0]x", "U[0] & U[1] & U[2]", "U[0..1] & U[1]", "U[0]\nU[0]",
	} {
		if _, err := ParseTemplate(bad); err == nil {
			t.Errorf("ParseTemplate(%q): no error", bad)
		} else if bad != "" && !strings.Contains(err.Error(), "line") && !strings.Contains(err.Error(), "no features") {
			t.Errorf("ParseTemplate(%q): error %q does not name the line", bad, err)
		}
	}
}

// TestGradient compares the analytic gradient with central finite
// differences on a small random problem using every kind of feature.
func TestGradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const L = 3
	data := pageLike(rng, 6, 7, 4, 5, L)
	for i := range data {
		data[i].Weight = []float64{0, 1, 0.3, 2.5}[i%4] // 0 is 1
		if i%3 != 0 {
			// Softmax-margin costs on two sequences of three.
			data[i].Cost = make([]float64, len(data[i].Labels)*L)
			for t, y := range data[i].Labels {
				for z := range L {
					if z != y {
						data[i].Cost[t*L+z] = rng.Float64() * 2
					}
				}
			}
		}
	}
	tmpl := mustParse("U[-1..1]\nU[-1]:k2 & U[0]:k3\nB")
	b := newDictBuilder(tmpl)
	for _, s := range data {
		if err := b.count(s.Attrs); err != nil {
			t.Fatal(err)
		}
	}
	fs := b.featureSet(1, L)
	if len(fs.pairFeats[0]) == 0 {
		t.Fatal("no conjunction features")
	}
	seqs := compileAll(&fs, data, 2)
	o := newObjective(seqs, fs.nFeat, L, true, 0.7, 2)
	x := make([]float64, len(o.x))
	for i := range x {
		x[i] = rng.NormFloat64() * 0.5
	}
	o.ensure(x)
	g := slices.Clone(o.g)
	const h = 1e-5
	worst := 0.0
	for k := range x {
		xp := slices.Clone(x)
		xp[k] += h
		o.ensure(xp)
		fp := o.f
		xp[k] -= 2 * h
		o.ensure(xp)
		fm := o.f
		fd := (fp - fm) / (2 * h)
		if d := math.Abs(fd-g[k]) / math.Max(1, math.Abs(g[k])); d > worst {
			worst = d
		}
		if math.Abs(fd-g[k]) > 1e-5*math.Max(1, math.Abs(g[k])) {
			t.Errorf("weight %d: gradient %g, finite difference %g", k, g[k], fd)
		}
	}
	t.Logf("%d weights, worst relative error %.2g", len(x), worst)
}

// enumerate returns every label sequence of length n over L labels.
func enumerate(n, L int) [][]int {
	if n == 0 {
		return [][]int{{}}
	}
	var out [][]int
	for _, p := range enumerate(n-1, L) {
		for y := range L {
			out = append(out, append(slices.Clone(p), y))
		}
	}
	return out
}

func TestInferenceBruteForce(t *testing.T) {
	for _, bigram := range []bool{true, false} {
		rng := rand.New(rand.NewPCG(3, 4))
		const L = 3
		data := pageLike(rng, 20, 5, 5, 6, L)
		tmpl := mustParse("U[-1..1]\nU[-2]:k0\nU[0]:k1 & U[1]:k2")
		tmpl.Bigram = bigram
		m := randomModel(rng, data, tmpl, L, 1)
		for _, s := range data {
			for n := 0; n <= 5; n++ {
				seq := s.Attrs[:n]
				lat := m.Score(seq)
				paths := enumerate(n, L)
				scores := make([]float64, len(paths))
				best := math.Inf(-1)
				for i, p := range paths {
					scores[i] = pathScore(L, lat.emit, m.trans, m.start, m.end, p)
					best = max(best, scores[i])
				}
				lz := math.Inf(-1)
				for _, sc := range scores {
					lz = logAdd(lz, sc)
				}
				path, score := lat.Viterbi()
				if n > 0 && (math.Abs(score-best) > 1e-9 || math.Abs(pathScore(L, lat.emit, m.trans, m.start, m.end, path)-best) > 1e-9) {
					t.Errorf("n=%d: Viterbi score %g, path %v, best %g", n, score, path, best)
				}
				if n > 0 && math.Abs(lat.logZ()-lz) > 1e-9 {
					t.Errorf("n=%d: logZ %g, brute force %g", n, lat.logZ(), lz)
				}
				marg := lat.Marginals()
				if len(marg) != n {
					t.Fatalf("n=%d: %d marginal rows", n, len(marg))
				}
				for pos := range n {
					sum := 0.0
					for y := range L {
						want := 0.0
						for i, p := range paths {
							if p[pos] == y {
								want += math.Exp(scores[i] - lz)
							}
						}
						if math.Abs(marg[pos][y]-want) > 1e-9 {
							t.Errorf("n=%d: P(y%d=%d) = %g, brute force %g", n, pos, y, marg[pos][y], want)
						}
						sum += marg[pos][y]
					}
					if math.Abs(sum-1) > 1e-12 {
						t.Errorf("n=%d: marginals at %d sum to %g", n, pos, sum)
					}
				}
			}
		}
	}
}

func logAdd(a, b float64) float64 {
	if math.IsInf(a, -1) {
		return b
	}
	if a < b {
		a, b = b, a
	}
	return a + math.Log1p(math.Exp(b-a))
}

// TestEmissionMatchesCompile checks that the decoding path (scatter into
// the lattice) and the training path (compiled feature lists) see the same
// features.
func TestEmissionMatchesCompile(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const L = 4
	data := pageLike(rng, 10, 40, 12, 30, L)
	m := randomModel(rng, data, pageTemplate, L, 1)
	for _, s := range data {
		var r resolved
		m.fs.resolve(s.Attrs, &r)
		c := m.fs.compile(&r, s.Labels)
		lat := m.Score(s.Attrs)
		for pos := range c.n() {
			for y := range L {
				want := 0.0
				for k := c.start[pos]; k < c.start[pos+1]; k++ {
					v := 1.0
					if c.val != nil {
						v = float64(c.val[k])
					}
					want += float64(m.w[int(c.feat[k])*L+y]) * v
				}
				if got := lat.emit[pos*L+y]; math.Abs(got-want) > 1e-5*math.Max(1, math.Abs(want)) {
					t.Fatalf("position %d label %d: lattice %g, compiled %g", pos, y, got, want)
				}
			}
		}
	}
}

// TestLongSequence checks that forward-backward stays finite and
// normalised on a long sequence with large scores.
func TestLongSequence(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const L = 5
	data := pageLike(rng, 1, 3000, 20, 40, L)
	m := randomModel(rng, data, pageTemplate, L, 20)
	lat := m.Score(data[0].Attrs)
	if lz := lat.logZ(); math.IsNaN(lz) || math.IsInf(lz, 0) {
		t.Fatalf("logZ = %g", lz)
	}
	for pos, row := range lat.Marginals() {
		sum := 0.0
		for _, p := range row {
			if math.IsNaN(p) || p < 0 || p > 1+1e-12 {
				t.Fatalf("position %d: marginals %v", pos, row)
			}
			sum += p
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Fatalf("position %d: marginals sum to %g", pos, sum)
		}
	}
}

func accuracy(m *Model, data []Sequence) float64 {
	right, all := 0, 0
	for _, s := range data {
		for i, y := range m.Viterbi(s.Attrs) {
			if y == s.Labels[i] {
				right++
			}
			all++
		}
	}
	return float64(right) / float64(all)
}

func trainChain(t testing.TB, workers int, progress func(Progress)) (*Model, []Sequence) {
	rng := rand.New(rand.NewPCG(9, 10))
	const L = 4
	train := chainTask(rng, 200, 30, L)
	test := chainTask(rng, 50, 30, L)
	m, err := trainLBFGS(context.Background(), train, TrainOptions{
		Labels:   labelNames(L),
		Template: chainTemplate,
		Workers:  workers,
		Progress: progress,
	})
	if err != nil {
		t.Fatal(err)
	}
	return m, test
}

func TestTrainLearns(t *testing.T) {
	var last Progress
	calls := 0
	m, test := trainChain(t, 2, func(p Progress) {
		calls++
		if p.Iteration != calls {
			t.Errorf("progress iteration %d, call %d", p.Iteration, calls)
		}
		if calls > 1 && p.Objective > last.Objective+1e-9 {
			t.Errorf("objective rose from %g to %g", last.Objective, p.Objective)
		}
		last = p
	})
	acc := accuracy(m, test)
	t.Logf("%d iterations, %d evaluations, objective %.4g, |g| %.3g, %d features, accuracy %.4f",
		last.Iteration, last.Evaluations, last.Objective, last.GradNorm, m.NumFeatures(), acc)
	if acc < 0.95 {
		t.Errorf("held-out accuracy %.3f, want ≥ 0.95", acc)
	}
	if calls == 0 {
		t.Error("Progress never called")
	}
	// The learned rule: "c=2" at t-1 pulls the label at t to 2.
	for name, w := range m.Features() {
		if name == "U[-1]:c=2" && slices.Index(w, slices.Max(w)) != 2 {
			t.Errorf("%s: weights %v favour the wrong label", name, w)
		}
	}
}

func TestSaveLoad(t *testing.T) {
	m, test := trainChain(t, 1, nil)
	var buf bytes.Buffer
	if err := m.Save(&buf); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	m2, err := Load(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("model: %d features, %d bytes", m.NumFeatures(), len(data))
	for _, s := range test {
		if !slices.Equal(m.Viterbi(s.Attrs), m2.Viterbi(s.Attrs)) {
			t.Fatal("Viterbi differs after a round trip")
		}
		a, b := m.Marginals(s.Attrs), m2.Marginals(s.Attrs)
		for i := range a {
			if !slices.Equal(a[i], b[i]) {
				t.Fatal("marginals differ after a round trip")
			}
		}
	}
	again, err := m2.MarshalBinary()
	if err != nil || !bytes.Equal(again, data) {
		t.Errorf("re-encoding the loaded model differs (err %v)", err)
	}
	if m2.Template().String() != m.Template().String() || !slices.Equal(m2.Labels(), m.Labels()) {
		t.Error("template or labels differ")
	}
	// Every proper prefix is an error, never a panic.
	for n := range len(data) {
		if _, err := Unmarshal(data[:n]); err == nil {
			t.Fatalf("prefix of %d bytes loaded without error", n)
		}
	}
}

func TestDeterminism(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	data := pageLike(rng, 40, 50, 10, 30, 5)
	train := func() []byte {
		m, err := trainLBFGS(context.Background(), data, TrainOptions{
			Labels: labelNames(5), Template: pageTemplate, Workers: 3, MaxIterations: 40,
		})
		if err != nil {
			t.Fatal(err)
		}
		b, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if a, b := train(), train(); !bytes.Equal(a, b) {
		t.Error("two trainings on the same input gave different models")
	}
}

func TestMinCountPrunes(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	data := pageLike(rng, 20, 40, 10, 200, 3)
	count := func(min int) int {
		m, err := trainLBFGS(context.Background(), data, TrainOptions{
			Labels: labelNames(3), Template: pageTemplate, MinCount: min, MaxIterations: 5,
		})
		if err != nil {
			t.Fatal(err)
		}
		return m.NumFeatures()
	}
	all, pruned := count(1), count(5)
	t.Logf("features: %d with MinCount 1, %d with MinCount 5", all, pruned)
	if pruned >= all {
		t.Errorf("MinCount 5 kept %d of %d features", pruned, all)
	}
}

func TestTrainErrors(t *testing.T) {
	ok := []Sequence{{Attrs: [][]Attr{{{Name: "a"}}}, Labels: []int{0}}}
	ctx := context.Background()
	cases := map[string]struct {
		data []Sequence
		opts TrainOptions
	}{
		"no labels":       {ok, TrainOptions{Template: chainTemplate}},
		"no template":     {ok, TrainOptions{Labels: []string{"a"}}},
		"dup label":       {ok, TrainOptions{Labels: []string{"a", "a"}, Template: chainTemplate}},
		"length":          {[]Sequence{{Attrs: [][]Attr{{}}, Labels: []int{0, 0}}}, TrainOptions{Labels: []string{"a"}, Template: chainTemplate}},
		"label range":     {[]Sequence{{Attrs: [][]Attr{{}}, Labels: []int{1}}}, TrainOptions{Labels: []string{"a"}, Template: chainTemplate}},
		"empty name":      {[]Sequence{{Attrs: [][]Attr{{{}}}, Labels: []int{0}}}, TrainOptions{Labels: []string{"a"}, Template: chainTemplate}},
		"negative weight": {[]Sequence{{Attrs: [][]Attr{{{Name: "a"}}}, Labels: []int{0}, Weight: -1}}, TrainOptions{Labels: []string{"a"}, Template: chainTemplate}},
		"NaN weight":      {[]Sequence{{Attrs: [][]Attr{{{Name: "a"}}}, Labels: []int{0}, Weight: math.NaN()}}, TrainOptions{Labels: []string{"a"}, Template: chainTemplate}},
		"cost length":     {[]Sequence{{Attrs: [][]Attr{{{Name: "a"}}}, Labels: []int{0}, Cost: []float64{0}}}, TrainOptions{Labels: []string{"a", "b"}, Template: chainTemplate}},
		"negative cost":   {[]Sequence{{Attrs: [][]Attr{{{Name: "a"}}}, Labels: []int{0}, Cost: []float64{0, -1}}}, TrainOptions{Labels: []string{"a", "b"}, Template: chainTemplate}},
		"gold cost":       {[]Sequence{{Attrs: [][]Attr{{{Name: "a"}}}, Labels: []int{0}, Cost: []float64{1, 1}}}, TrainOptions{Labels: []string{"a", "b"}, Template: chainTemplate}},
		"NaN cost":        {[]Sequence{{Attrs: [][]Attr{{{Name: "a"}}}, Labels: []int{0}, Cost: []float64{0, math.NaN()}}}, TrainOptions{Labels: []string{"a", "b"}, Template: chainTemplate}},
		"NaN value":       {[]Sequence{{Attrs: [][]Attr{{{Name: "a", Value: math.NaN()}}}, Labels: []int{0}}}, TrainOptions{Labels: []string{"a"}, Template: chainTemplate}},
		"negative L2":     {ok, TrainOptions{Labels: []string{"a"}, Template: chainTemplate, L2: -1}},
		"bad template":    {ok, TrainOptions{Labels: []string{"a"}, Template: Template{Unigrams: []Unigram{{Offset: 99}}}}},
		"too many pairs":  {ok, TrainOptions{Labels: []string{"a"}, Template: Template{Pairs: make([]Pair, 33)}}},
		"duplicate line":  {ok, TrainOptions{Labels: []string{"a"}, Template: Template{Unigrams: []Unigram{{}, {}}}}},
	}
	for name, c := range cases {
		if _, err := trainLBFGS(ctx, c.data, c.opts); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := trainLBFGS(cctx, ok, TrainOptions{Labels: []string{"a", "b"}, Template: chainTemplate}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled training: %v", err)
	}
}

func TestTrainNoData(t *testing.T) {
	m, err := trainLBFGS(context.Background(), []Sequence{{}}, TrainOptions{Labels: []string{"a", "b"}, Template: chainTemplate})
	if err != nil {
		t.Fatal(err)
	}
	if p := m.Viterbi([][]Attr{{{Name: "x"}}}); len(p) != 1 {
		t.Errorf("Viterbi = %v", p)
	}
}

func TestDecodeEdgeCases(t *testing.T) {
	m, _ := trainChain(t, 0, nil)
	if p := m.Viterbi(nil); len(p) != 0 {
		t.Errorf("Viterbi(nil) = %v", p)
	}
	if p := m.Marginals(nil); len(p) != 0 {
		t.Errorf("Marginals(nil) = %v", p)
	}
	// Unknown attributes are ignored.
	seq := [][]Attr{{{Name: "never seen"}}, {{Name: "c=1"}}, {}}
	if p := m.Viterbi(seq); len(p) != 3 {
		t.Errorf("Viterbi = %v", p)
	}
}

func TestConcurrentDecode(t *testing.T) {
	m, test := trainChain(t, 0, nil)
	want := make([][]int, len(test))
	for i, s := range test {
		want[i] = m.Viterbi(s.Attrs)
	}
	done := make(chan bool)
	for range 4 {
		go func() {
			ok := true
			for i, s := range test {
				ok = ok && slices.Equal(m.Viterbi(s.Attrs), want[i])
				m.Marginals(s.Attrs)
			}
			done <- ok
		}()
	}
	for range 4 {
		if !<-done {
			t.Error("concurrent decoding disagrees with sequential decoding")
		}
	}
}

// A sequence of weight 2 trains the same model as the sequence given twice.
func TestWeightIsRepetition(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	data := pageLike(rng, 12, 20, 6, 12, 3)
	opts := TrainOptions{Labels: labelNames(3), Template: pageTemplate, Workers: 1, MaxIterations: 60}
	weighted := slices.Clone(data)
	weighted[0].Weight, weighted[5].Weight = 2, 2
	repeated := append(slices.Clone(data), data[0], data[5])
	a, err := trainLBFGS(context.Background(), weighted, opts)
	if err != nil {
		t.Fatal(err)
	}
	b, err := trainLBFGS(context.Background(), repeated, opts)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := trainLBFGS(context.Background(), data, opts)
	if err != nil {
		t.Fatal(err)
	}
	differs := false
	for _, s := range data {
		ma, mb, mp := a.Marginals(s.Attrs), b.Marginals(s.Attrs), plain.Marginals(s.Attrs)
		for i := range ma {
			for y := range ma[i] {
				if d := math.Abs(ma[i][y] - mb[i][y]); d > 1e-4 {
					t.Fatalf("position %d label %d: weighted %g, repeated %g", i, y, ma[i][y], mb[i][y])
				}
				if math.Abs(ma[i][y]-mp[i][y]) > 1e-3 {
					differs = true
				}
			}
		}
	}
	if !differs {
		t.Error("the weights changed nothing")
	}
}

// Costly mistakes are avoided more: with a cost on mislabelling the
// positions of label 1, the trained model gives them more probability of
// label 1 than a model trained without costs.
func TestCostMovesMargins(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	const L = 3
	data := pageLike(rng, 12, 20, 6, 12, L)
	opts := TrainOptions{Labels: labelNames(L), Template: pageTemplate, Workers: 1, MaxIterations: 60}
	costly := slices.Clone(data)
	for i := range costly {
		costly[i].Cost = make([]float64, len(data[i].Labels)*L)
		for t, y := range data[i].Labels {
			if y != 1 {
				continue
			}
			for z := range L {
				if z != y {
					costly[i].Cost[t*L+z] = 3
				}
			}
		}
	}
	plain, err := trainLBFGS(context.Background(), data, opts)
	if err != nil {
		t.Fatal(err)
	}
	margin, err := trainLBFGS(context.Background(), costly, opts)
	if err != nil {
		t.Fatal(err)
	}
	var sumP, sumM float64
	n := 0
	for _, s := range data {
		mp, mm := plain.Marginals(s.Attrs), margin.Marginals(s.Attrs)
		for t, y := range s.Labels {
			if y == 1 {
				sumP += mp[t][1]
				sumM += mm[t][1]
				n++
			}
		}
	}
	if n == 0 {
		t.Fatal("no positions of label 1")
	}
	t.Logf("mean probability of label 1 where it is correct: %.3f without costs, %.3f with", sumP/float64(n), sumM/float64(n))
	if sumM <= sumP {
		t.Errorf("costs did not raise label 1 where it is correct: %.3f against %.3f", sumM/float64(n), sumP/float64(n))
	}
}
