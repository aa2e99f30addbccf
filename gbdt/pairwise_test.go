package gbdt

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"
)

// groupedData returns groups of size rows with two features: column 0 is
// the group's level, the same for all its rows, which sets how many of
// them are positive (most in a group of level above 0, few below);
// column 1 orders the rows within their group, the positives above, from
// an offset of the group's own, so that it hardly tells a positive row
// from a negative one across groups.
func groupedData(groups, size int, seed uint64) (dataset, []int32) {
	r := splitMix{s: seed}
	d := dataset{x: make([]float32, groups*size*2), cols: 2, y: make([]float64, groups*size)}
	g := make([]int32, groups*size)
	for k := range groups {
		level := r.uniform()
		pos := size / 10
		if level > 0 {
			pos = size - size/10
		}
		offset := 4 * r.uniform()
		for i := range size {
			row := k*size + i
			g[row] = int32(k)
			d.x[2*row], d.x[2*row+1] = level, offset+0.1*r.uniform()
			if i < pos {
				d.x[2*row+1] += 0.5 // above every negative of the group
				d.y[row] = 1
			}
		}
	}
	return d, g
}

// pairsInOrder returns the share of the pairs of one group's positive and
// negative rows that m scores in that order (ties count a half).
func pairsInOrder(m *Model, d dataset, groups []int32) float64 {
	var right, all float64
	for i := range d.y {
		for j := range d.y {
			if groups[i] != groups[j] || d.y[i] <= d.y[j] {
				continue
			}
			si, sj := m.Margin(d.row(i)), m.Margin(d.row(j))
			switch {
			case si > sj:
				right++
			case si == sj:
				right += 0.5
			}
			all++
		}
	}
	return right / all
}

func TestPairwiseOrdersWithinGroups(t *testing.T) {
	d, groups := groupedData(40, 20, 7)
	// One stump: the log loss alone splits on the groups' level, which
	// leaves every group's rows tied; a strong pairwise term splits on
	// the column that orders them.
	opt := Options{Trees: 1, Depth: 1, LearningRate: 1}
	point := mustTrain(t, d, nil, opt)
	opt.Pairwise, opt.Groups = 10, groups
	pair := mustTrain(t, d, nil, opt)
	po, pa := pairsInOrder(point, d, groups), pairsInOrder(pair, d, groups)
	if po != 0.5 || pa < 0.53 {
		t.Errorf("pairs in order within groups: %.3f with the log loss alone (want 0.5), %.3f with the pairwise term (want more)", po, pa)
	}
	t.Logf("pairs in order within groups after one stump: %.3f with the log loss alone, %.3f with the pairwise term", po, pa)
	// With more trees the pairwise term still orders more pairs, and
	// leaves the log loss to set the level: the scores stay probabilities.
	opt = Options{Trees: 30, Depth: 2}
	point = mustTrain(t, d, nil, opt)
	opt.Pairwise, opt.Groups = 1, groups
	pair = mustTrain(t, d, nil, opt)
	po, pa = pairsInOrder(point, d, groups), pairsInOrder(pair, d, groups)
	if pa <= po {
		t.Errorf("after 30 trees, pairs in order within groups: %.3f with the pairwise term, %.3f without, want more with it", pa, po)
	}
	var mp, my float64
	for r := range d.y {
		mp += pair.Prob(d.row(r))
		my += d.y[r]
	}
	if n := float64(len(d.y)); math.Abs(mp-my)/n > 0.02 {
		t.Errorf("mean probability %.3f with the pairwise term, mean target %.3f: want them within 0.02", mp/n, my/n)
	}
	t.Logf("after 30 trees: %.3f without the pairwise term, %.3f with it", po, pa)
}

func TestPairwiseDeterministic(t *testing.T) {
	d, groups := groupedData(30, 300, 9) // 300 rows a group: strided pairs
	var models [][]byte
	for _, workers := range []int{1, 3} {
		m := mustTrain(t, d, nil, Options{Trees: 8, Depth: 3, Subsample: 0.7, Seed: 2, Workers: workers, Pairwise: 0.5, Groups: groups})
		models = append(models, mustMarshal(t, m))
	}
	if !bytes.Equal(models[0], models[1]) {
		t.Error("the same data and options gave different models with 1 and 3 workers")
	}
}

func TestPairwiseBadOptions(t *testing.T) {
	d, groups := groupedData(4, 5, 3)
	for _, tc := range []struct {
		name, want string
		opt        Options
	}{
		{"negative", "Options.Pairwise = -1", Options{Pairwise: -1, Groups: groups}},
		{"no groups", "len(groups) = 0", Options{Pairwise: 1}},
		{"short groups", "len(groups) = 3", Options{Pairwise: 1, Groups: groups[:3]}},
	} {
		_, err := Train(context.Background(), d.x, d.cols, d.y, nil, tc.opt)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.want)
		}
	}
}
