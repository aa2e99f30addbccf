package gbdt

import (
	"bytes"
	"context"
	"errors"
	"math"
	"testing"
)

// mustTrain trains on d or fails the test.
func mustTrain(t testing.TB, d dataset, w []float64, opt Options) *Model {
	t.Helper()
	m, err := Train(context.Background(), d.x, d.cols, d.y, w, opt)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// mustMarshal encodes m or fails the test.
func mustMarshal(t testing.TB, m *Model) []byte {
	t.Helper()
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// meanLoss returns the mean weighted log loss of m on d.
func meanLoss(m *Model, d dataset, w []float64) float64 {
	var sum, sw float64
	for r := range d.y {
		wr := 1.0
		if w != nil {
			wr = w[r]
		}
		sum += wr * logLoss(m.Margin(d.row(r)), d.y[r])
		sw += wr
	}
	return sum / sw
}

func TestLossFallsTreeByTree(t *testing.T) {
	d := noisyData(3000, 6, 1)
	var losses []float64
	m := mustTrain(t, d, nil, Options{Trees: 40, Progress: func(tree int, loss float64) {
		if tree != len(losses)+1 {
			t.Errorf("Progress called for tree %d after %d calls", tree, len(losses))
		}
		losses = append(losses, loss)
	}})
	if len(losses) != 40 || m.NumTrees() != 40 {
		t.Fatalf("%d Progress calls, %d trees, want 40", len(losses), m.NumTrees())
	}
	p := 0.0
	for _, y := range d.y {
		p += y
	}
	p /= float64(len(d.y))
	prev := -p*math.Log(p) - (1-p)*math.Log(1-p) // loss of the base score
	for i, l := range losses {
		if !(l < prev) {
			t.Errorf("loss after tree %d is %v, not below %v", i+1, l, prev)
		}
		prev = l
	}
	if last := losses[len(losses)-1]; last > 0.9*losses[0] {
		t.Errorf("loss fell only from %v to %v", losses[0], last)
	}
}

func TestTrainingScoresMatchMargin(t *testing.T) {
	// The loss Progress reports comes from the scores kept in training,
	// found from bins; it must be that of Margin, found from thresholds.
	d := noisyData(3000, 6, 16)
	w := make([]float64, len(d.y))
	r := splitMix{s: 17}
	for i := range w {
		w[i] = 2 * r.float64()
	}
	for _, tc := range []struct {
		name string
		w    []float64
		opt  Options
	}{
		{"all rows", nil, Options{Trees: 20}},
		{"subsample", nil, Options{Trees: 20, Subsample: 0.5, Seed: 1}},
		{"weights", w, Options{Trees: 20, Depth: 6, Bins: 16}},
		{"weights and subsample", w, Options{Trees: 20, Subsample: 0.3, Seed: 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var last float64
			tc.opt.Progress = func(_ int, loss float64) { last = loss }
			m := mustTrain(t, d, tc.w, tc.opt)
			if got := meanLoss(m, d, tc.w); math.Abs(got-last) > 1e-12 {
				t.Errorf("loss of Margin on the training rows %v, Progress said %v", got, last)
			}
		})
	}
}

func TestLearnsXOR(t *testing.T) {
	train, test := xorData(4000, 4, 2), xorData(2000, 4, 3)
	m := mustTrain(t, train, nil, Options{Trees: 50, Depth: 3, LearningRate: 0.3})
	right := 0
	for r := range test.y {
		if (m.Prob(test.row(r)) > 0.5) == (test.y[r] == 1) {
			right++
		}
	}
	if acc := float64(right) / float64(len(test.y)); acc <= 0.95 {
		t.Errorf("held-out accuracy on XOR %.3f, want above 0.95", acc)
	}
}

func TestDeterministic(t *testing.T) {
	d := noisyData(5000, 9, 4)
	opt := Options{Trees: 15, Depth: 5, Subsample: 0.7, Seed: 7, Bins: 32}
	var first []byte
	for _, workers := range []int{1, 2, 3, 8} {
		opt.Workers = workers
		b := mustMarshal(t, mustTrain(t, d, nil, opt))
		if first == nil {
			first = b
		} else if !bytes.Equal(b, first) {
			t.Errorf("model with %d workers differs from that with 1", workers)
		}
	}
	opt.Seed = 8
	if bytes.Equal(mustMarshal(t, mustTrain(t, d, nil, opt)), first) {
		t.Errorf("a different Seed gave the same model")
	}
}

func TestMissingValuesLearnt(t *testing.T) {
	// Feature 0 is missing exactly when the label is 1; feature 1 is noise.
	r := splitMix{s: 5}
	d := dataset{x: make([]float32, 2000*2), cols: 2, y: make([]float64, 2000)}
	for i := range d.y {
		row := d.row(i)
		row[0], row[1] = r.uniform(), r.uniform()
		if r.float64() < 0.3 {
			d.y[i] = 1
			row[0] = float32(math.NaN())
		}
	}
	m := mustTrain(t, d, nil, Options{Trees: 30, Depth: 2})
	nan := float32(math.NaN())
	for _, v := range []float32{-1, -0.5, 0, 0.3, 0.99, 5, float32(math.Inf(-1))} {
		if p := m.Prob([]float32{v, 0.2}); p > 0.1 {
			t.Errorf("P(y=1 | x0=%v) = %.3f, want below 0.1", v, p)
		}
	}
	if p := m.Prob([]float32{nan, 0.2}); p < 0.9 {
		t.Errorf("P(y=1 | x0 missing) = %.3f, want above 0.9", p)
	}
	// A short row has its missing features taken as NaN; extra values are
	// ignored.
	if a, b := m.Margin(nil), m.Margin([]float32{nan, nan}); a != b {
		t.Errorf("Margin(nil) = %v, Margin(NaN, NaN) = %v", a, b)
	}
	if a, b := m.Margin([]float32{0.5, 0.2, 9, 9}), m.Margin([]float32{0.5, 0.2}); a != b {
		t.Errorf("Margin of a long row %v, of its first 2 values %v", a, b)
	}
}

func TestMissingNeverSeen(t *testing.T) {
	// No value is missing in training; a missing one at prediction time
	// must still give a usable probability.
	d := xorData(1000, 2, 6)
	m := mustTrain(t, d, nil, Options{Trees: 10})
	nan := float32(math.NaN())
	for _, row := range [][]float32{{nan, 0.5}, {0.5, nan}, {nan, nan}} {
		if p := m.Prob(row); !(p > 0 && p < 1) {
			t.Errorf("Prob(%v) = %v", row, p)
		}
	}
}

func TestZeroWeightRowsIgnored(t *testing.T) {
	a := noisyData(2000, 5, 8)
	b := xorData(700, 5, 9) // rows of another target, weighted 0
	both := dataset{x: append(append([]float32(nil), a.x...), b.x...), cols: 5, y: append(append([]float64(nil), a.y...), b.y...)}
	w := make([]float64, len(both.y))
	for i := range a.y {
		w[i] = 1
	}
	opt := Options{Trees: 20, Subsample: 0.8, Seed: 3}
	if !bytes.Equal(mustMarshal(t, mustTrain(t, both, w, opt)), mustMarshal(t, mustTrain(t, a, nil, opt))) {
		t.Errorf("training with zero-weight rows added gave another model than without them")
	}
}

func TestWeightsMatter(t *testing.T) {
	d := noisyData(3000, 5, 10)
	w := make([]float64, len(d.y))
	for i, y := range d.y {
		w[i] = 1 + 9*y // positives count ten times
	}
	plain := mustTrain(t, d, nil, Options{Trees: 20})
	heavy := mustTrain(t, d, w, Options{Trees: 20})
	var pp, ph float64
	for r := range d.y {
		pp += plain.Prob(d.row(r))
		ph += heavy.Prob(d.row(r))
	}
	if ph <= pp+0.1*float64(len(d.y)) {
		t.Errorf("mean probability %.3f with positives weighted 10, %.3f unweighted; want clearly higher", ph/3000, pp/3000)
	}
	if meanLoss(heavy, d, w) >= meanLoss(plain, d, w) {
		t.Errorf("the weighted model does not fit the weighted loss better than the unweighted one")
	}
}

func TestConstantAndEmptyFeatures(t *testing.T) {
	// One feature constant, one all missing, one useful.
	d := xorData(500, 3, 11)
	for r := range d.y {
		row := d.row(r)
		row[1], row[2] = 3, float32(math.NaN())
		if row[0] > 0 {
			d.y[r] = 1
		} else {
			d.y[r] = 0
		}
	}
	m := mustTrain(t, d, nil, Options{Trees: 20})
	if p := m.Prob([]float32{0.5, 3, 0}); p < 0.8 {
		t.Errorf("P(y=1 | x0=0.5) = %.3f, want above 0.8", p)
	}
	if p := m.Prob([]float32{-0.5, 3, 0}); p > 0.2 {
		t.Errorf("P(y=1 | x0=-0.5) = %.3f, want below 0.2", p)
	}
}

func TestOneClass(t *testing.T) {
	d := xorData(100, 2, 12)
	for i := range d.y {
		d.y[i] = 1
	}
	m := mustTrain(t, d, nil, Options{Trees: 5})
	if p := m.Prob(d.row(0)); !(p > 0.99 && p <= 1) {
		t.Errorf("Prob = %v with every target 1", p)
	}
}

func TestTrainBadInput(t *testing.T) {
	d := xorData(10, 2, 13)
	with := func(f func(x []float32, y, w []float64)) ([]float32, []float64, []float64) {
		x, y := append([]float32(nil), d.x...), append([]float64(nil), d.y...)
		w := make([]float64, len(y))
		for i := range w {
			w[i] = 1
		}
		f(x, y, w)
		return x, y, w
	}
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		name string
		x    []float32
		cols int
		y, w []float64
		opt  Options
	}{
		{name: "cols 0", x: d.x, cols: 0, y: d.y},
		{name: "cols negative", x: d.x, cols: -2, y: d.y},
		{name: "no rows", x: nil, cols: 2, y: nil},
		{name: "x too short", x: d.x[:19], cols: 2, y: d.y},
		{name: "x too long", x: append(append([]float32(nil), d.x...), 1, 2), cols: 2, y: d.y},
		{name: "w too short", x: d.x, cols: 2, y: d.y, w: []float64{1, 2}},
		{name: "target NaN", cols: 2, opt: Options{}},
		{name: "target above 1", cols: 2},
		{name: "target below 0", cols: 2},
		{name: "weight negative", cols: 2},
		{name: "weight NaN", cols: 2},
		{name: "weight Inf", cols: 2},
		{name: "weights all 0", cols: 2},
		{name: "weights sum to Inf", cols: 2},
		{name: "Trees negative", x: d.x, cols: 2, y: d.y, opt: Options{Trees: -1}},
		{name: "Depth negative", x: d.x, cols: 2, y: d.y, opt: Options{Depth: -1}},
		{name: "Depth 11", x: d.x, cols: 2, y: d.y, opt: Options{Depth: 11}},
		{name: "LearningRate negative", x: d.x, cols: 2, y: d.y, opt: Options{LearningRate: -0.1}},
		{name: "LearningRate NaN", x: d.x, cols: 2, y: d.y, opt: Options{LearningRate: nan}},
		{name: "LearningRate 2", x: d.x, cols: 2, y: d.y, opt: Options{LearningRate: 2}},
		{name: "Bins 1", x: d.x, cols: 2, y: d.y, opt: Options{Bins: 1}},
		{name: "Bins 256", x: d.x, cols: 2, y: d.y, opt: Options{Bins: 256}},
		{name: "MinLeaf negative", x: d.x, cols: 2, y: d.y, opt: Options{MinLeaf: -1}},
		{name: "MinLeaf Inf", x: d.x, cols: 2, y: d.y, opt: Options{MinLeaf: inf}},
		{name: "L2 negative", x: d.x, cols: 2, y: d.y, opt: Options{L2: -1}},
		{name: "L2 NaN", x: d.x, cols: 2, y: d.y, opt: Options{L2: nan}},
		{name: "Subsample above 1", x: d.x, cols: 2, y: d.y, opt: Options{Subsample: 1.5}},
		{name: "Subsample negative", x: d.x, cols: 2, y: d.y, opt: Options{Subsample: -0.5}},
		{name: "Workers negative", x: d.x, cols: 2, y: d.y, opt: Options{Workers: -1}},
	}
	// The cases with data to spoil.
	spoil := map[string]func(x []float32, y, w []float64){
		"target NaN":         func(x []float32, y, w []float64) { y[3] = nan },
		"target above 1":     func(x []float32, y, w []float64) { y[3] = 1.5 },
		"target below 0":     func(x []float32, y, w []float64) { y[3] = -0.5 },
		"weight negative":    func(x []float32, y, w []float64) { w[3] = -1 },
		"weight NaN":         func(x []float32, y, w []float64) { w[3] = nan },
		"weight Inf":         func(x []float32, y, w []float64) { w[3] = inf },
		"weights all 0":      func(x []float32, y, w []float64) { clear(w) },
		"weights sum to Inf": func(x []float32, y, w []float64) { w[3], w[4] = math.MaxFloat64, math.MaxFloat64 },
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			x, y, w := tc.x, tc.y, tc.w
			if f := spoil[tc.name]; f != nil {
				x, y, w = with(f)
			}
			m, err := Train(context.Background(), x, tc.cols, y, w, tc.opt)
			if err == nil || m != nil {
				t.Fatalf("Train = %v, %v; want an error", m, err)
			}
			t.Log(err)
		})
	}
}

func TestCancelled(t *testing.T) {
	d := xorData(500, 3, 14)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if m, err := Train(ctx, d.x, d.cols, d.y, nil, Options{}); m != nil || !errors.Is(err, context.Canceled) {
		t.Errorf("Train with a cancelled context = %v, %v; want context.Canceled", m, err)
	}

	// Cancelled after the third tree: no fourth is built.
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	calls := 0
	m, err := Train(ctx, d.x, d.cols, d.y, nil, Options{Trees: 10, Progress: func(tree int, _ float64) {
		calls++
		if tree == 3 {
			cancel()
		}
	}})
	if m != nil || !errors.Is(err, context.Canceled) || calls != 3 {
		t.Errorf("Train cancelled after tree 3 = %v, %v after %d trees; want context.Canceled after 3", m, err, calls)
	}
}

func TestMarginDoesNotAllocate(t *testing.T) {
	d := noisyData(1000, 5, 15)
	m := mustTrain(t, d, nil, Options{Trees: 10})
	row := d.row(3)
	var sink float64
	if n := testing.AllocsPerRun(100, func() { sink += m.Margin(row) + m.Margin(nil) }); n != 0 {
		t.Errorf("Margin allocates %v times a call", n)
	}
	if p, s := m.Prob(row), m.Margin(row); p != 1/(1+math.Exp(-s)) {
		t.Errorf("Prob = %v, sigmoid(Margin) = %v", p, 1/(1+math.Exp(-s)))
	}
	if m.NumFeatures() != 5 || m.NumTrees() != 10 {
		t.Errorf("NumFeatures, NumTrees = %d, %d; want 5, 10", m.NumFeatures(), m.NumTrees())
	}
}

// TestMarginsEqualMargin: Margins, walking tree by tree over four rows at
// a time, gives each row's Margin to the bit, missing values included.
func TestMarginsEqualMargin(t *testing.T) {
	d := noisyData(3000, 12, 5)
	m, err := Train(context.Background(), d.x, d.cols, d.y, nil, Options{Trees: 40, Depth: 5})
	if err != nil {
		t.Fatal(err)
	}
	for _, rows := range []int{0, 1, 3, 4, 7, 64} {
		x := make([]float32, 0, rows*d.cols)
		for r := range rows {
			row := append([]float32(nil), d.row(r)...)
			if r%3 == 1 {
				row[r%d.cols] = float32(math.NaN())
			}
			x = append(x, row...)
		}
		out := make([]float64, rows)
		m.Margins(x, d.cols, out)
		probs := make([]float64, rows)
		m.Probs(x, d.cols, probs)
		for r := range rows {
			row := x[r*d.cols : (r+1)*d.cols]
			if want := m.Margin(row); out[r] != want || probs[r] != m.Prob(row) {
				t.Fatalf("%d rows, row %d: Margins %v Probs %v, Margin %v Prob %v", rows, r, out[r], probs[r], want, m.Prob(row))
			}
		}
	}
}
