package label

import (
	"math"
	"slices"
	"testing"

	"github.com/sluice-project/sluice/crf"
)

func TestBoostSpecAndVector(t *testing.T) {
	e := extractor(t, DefaultFeatureConfig())
	block := func(names ...string) []crf.Attr {
		var as []crf.Attr
		for _, n := range names {
			as = append(as, crf.Attr{Name: n})
		}
		return as
	}
	var seqs []crf.Sequence
	for i := range 600 {
		a := block("words=8", "container=p", "b.p=0.5")
		a = append(a, crf.Attr{Name: "r.link", Value: 0.25}, crf.Attr{Name: "r.b.p", Value: 0.5})
		if i == 0 {
			a = append(a, crf.Attr{Name: "cls=rare"}) // one block in 600: below the minimum share
		}
		if i%2 == 0 {
			a = append(a, crf.Attr{Name: "sent.count=2"})
		}
		seqs = append(seqs, crf.Sequence{Attrs: [][]crf.Attr{a}, Labels: []int{0}})
	}
	spec := NewTreeSpec(seqs)
	want := []TreeColumn{{"sent.count", colNum}, {"words", colNum}, {"r.link", colReal}, {"container=p", colBin}}
	if !slices.Equal(spec.Columns, want) {
		t.Fatalf("columns %v, want %v", spec.Columns, want)
	}
	// The real-valued column and sent.count are also read from the neighbours.
	if !slices.Equal(spec.Neighbours, []int{0, 2}) {
		t.Errorf("neighbour columns %v, want [0 2]", spec.Neighbours)
	}
	b, err := NewTreesStage(e, spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	page := [][]crf.Attr{
		block("words=8", "container=p", "sent.count=3"),
		append(block("words=13", "cls=rare"), crf.Attr{Name: "r.link", Value: 0.5}),
		block("words=99.5", "container=p"), // a bound no bucket has: parsed
	}
	x := b.Rows(page, nil)
	nan := float32(math.NaN())
	wantX := [][]float32{
		{3, 8, 0, 1 /* prev */, nan, nan /* next */, nan, 0.5},
		{nan, 13, 0.5, 0, 3, 0, nan, 0},
		{nan, 99.5, 0, 1, nan, 0.5, nan, nan},
	}
	if b.width != 8 {
		t.Fatalf("width %d, want 8", b.width)
	}
	for i, row := range wantX {
		got := x[i*b.width : (i+1)*b.width]
		for j := range row {
			if got[j] != row[j] && !(math.IsNaN(float64(got[j])) && math.IsNaN(float64(row[j]))) {
				t.Errorf("block %d: vector %v, want %v", i, got, row)
				break
			}
		}
	}
	if _, err := NewTreesStage(e, TreeSpec{Columns: []TreeColumn{{"x", "odd"}}}, nil); err == nil {
		t.Error("a column of unknown kind was accepted")
	}
	if _, err := NewTreesStage(e, TreeSpec{Columns: want, Neighbours: []int{4}}, nil); err == nil {
		t.Error("a neighbour column out of range was accepted")
	}
}

func TestBlend(t *testing.T) {
	// other, heading, paragraph
	marg := [][]float64{{0.2, 0.2, 0.6}, {1, 0, 0}, {0.6, 0.1, 0.3}}
	blend(marg, []float64{0.4, 0.5, 0.4}, 0, 2, 0.5)
	want := [][]float64{{0.4, 0.15, 0.45}, {0.75, 0, 0.25}, {0.6, 0.1, 0.3}}
	for i := range want {
		sum := 0.0
		for k := range want[i] {
			sum += marg[i][k]
			if math.Abs(marg[i][k]-want[i][k]) > 1e-12 {
				t.Errorf("block %d: blended %v, want %v", i, marg[i], want[i])
				break
			}
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("block %d: marginals sum to %v", i, sum)
		}
	}
	same := [][]float64{{0.3, 0.7}}
	blend(same, []float64{1}, 0, 1, 0)
	if same[0][0] != 0.3 {
		t.Errorf("weight 0 changed the marginals: %v", same)
	}
	for _, w := range []float64{-0.1, 1.5, math.NaN()} {
		if checkBlend(w) == nil {
			t.Errorf("blend weight %v accepted", w)
		}
	}
}
