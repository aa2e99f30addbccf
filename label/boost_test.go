package label

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/crf"
	"github.com/sluice-project/sluice/gbdt"
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
	spec := newBoostSpec(seqs)
	want := []boostColumn{{"sent.count", colNum}, {"words", colNum}, {"r.link", colReal}, {"container=p", colBin}}
	if !slices.Equal(spec.Columns, want) {
		t.Fatalf("columns %v, want %v", spec.Columns, want)
	}
	// The real-valued column and sent.count are also read from the neighbours.
	if !slices.Equal(spec.Neighbours, []int{0, 2}) {
		t.Errorf("neighbour columns %v, want [0 2]", spec.Neighbours)
	}
	b, err := newBooster(e, spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	page := [][]crf.Attr{
		block("words=8", "container=p", "sent.count=3"),
		append(block("words=13", "cls=rare"), crf.Attr{Name: "r.link", Value: 0.5}),
		block("words=99.5", "container=p"), // a bound no bucket has: parsed
	}
	x := b.vector(page, nil)
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
	if _, err := newBooster(e, boostSpec{Columns: []boostColumn{{"x", "odd"}}}, nil); err == nil {
		t.Error("a column of unknown kind was accepted")
	}
	if _, err := newBooster(e, boostSpec{Columns: want, Neighbours: []int{4}}, nil); err == nil {
		t.Error("a neighbour column out of range was accepted")
	}
}

// TestBoosted trains labellers with boosted trees, one stage with and
// without context trees and two stages, and checks the stages trained, the
// labelling, and the model file.
func TestBoosted(t *testing.T) {
	var ex []Example
	for n := range 12 {
		e := trainPage(t, n)
		e.Group = fmt.Sprint("site", n%4)
		ex = append(ex, e)
	}
	small := &gbdt.Options{Trees: 10, Depth: 3, MinLeaf: 1}
	for _, run := range []struct{ stack, context bool }{{false, false}, {false, true}, {true, false}} {
		stack := run.stack
		fc := DefaultFeatureConfig()
		fc.Off[Stack] = !stack
		fc.Off[Context] = !run.context
		var stages []string
		lab, err := Train(context.Background(), ex, TrainConfig{Features: &fc, Boost: small, Context: small, BoostFolds: 2, StackFolds: 2,
			MaxIterations: 40, Workers: 1, Stage: func(s string) { stages = append(stages, s) }})
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"boosted trees without fold 1 of 2", "boosted trees without fold 2 of 2", "boosted trees"}
		for i := range stages {
			if strings.HasPrefix(stages[i], "boosted") || strings.HasPrefix(stages[i], "context") {
				var size string
				stages[i], size, _ = strings.Cut(stages[i], " (")
				if !strings.Contains(size, " blocks, ") {
					t.Errorf("stage %q does not say the size of the data", stages[i])
				}
			}
		}
		switch {
		case stack:
			want = append(want, "first stage without fold 1 of 2", "first stage without fold 2 of 2", "first stage", "second stage")
		case run.context:
			want = append(want, "first stage without fold 1 of 2", "first stage without fold 2 of 2", "first stage", "context trees")
		default:
			want = append(want, "first stage")
		}
		if !slices.Equal(stages, want) {
			t.Errorf("%+v: stages %q, want %q", run, stages, want)
		}
		trees := treesOf(lab)
		if lab.Features().Off[Boost] || trees == nil {
			t.Fatalf("stack %v: no boosted trees", stack)
		}
		wantStages := "trees,crf,blend,smooth,region"
		switch {
		case stack:
			wantStages = "trees,crf,stack,blend,smooth,region"
		case run.context:
			wantStages = "trees,crf,context,smooth,region"
		}
		if got := strings.Join(lab.StageNames(), ","); got != wantStages || lab.Features().Off[Context] == run.context {
			t.Errorf("%+v: stages %s, want %s; context group off %v", run, got, wantStages, lab.Features().Off[Context])
		}
		data, err := lab.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(data, []byte(modelMagic5)) {
			t.Errorf("%+v: the model file starts with %q, want %q", run, data[:8], modelMagic5)
		}
		loaded, err := Load(data)
		if err != nil {
			t.Fatal(err)
		}
		test := trainPage(t, 99)
		m1, _ := lab.Marginals(test.Page, "")
		m2, _ := loaded.Marginals(test.Page, "")
		if fmt.Sprint(m1) != fmt.Sprint(m2) {
			t.Errorf("stack %v: marginals differ after saving and loading", stack)
		}
		lab.Label(test.Page, 0.5)
		for i, b := range test.Page.Blocks {
			if b.Label != test.Labels[i] {
				t.Errorf("stack %v: block %q: label %v, want %v (score %.2f)", stack, b.Text, b.Label, test.Labels[i], b.Score)
			}
		}
		// The trees' verdict is among the first stage's attributes.
		attrs := trees.attrs(withStyle(lab.ext.Attrs(test.Page), ""), lab.ext.buckets[bBP], new(boostScratch))
		for i, as := range attrs {
			if _, _, ok := attrValue(as, "b.p"); !ok {
				t.Errorf("block %d has no b.p attribute: %v", i, as)
			}
		}
		for _, n := range []int{12, len(data) / 3, len(data) / 2, len(data) - 1} {
			if _, err := Load(data[:n]); err == nil {
				t.Errorf("stack %v: Load of the first %d bytes succeeded", stack, n)
			}
		}
	}

	// One group only: no held-out verdicts, so no trees.
	for i := range ex {
		ex[i].Group = "one site"
	}
	one, err := Train(context.Background(), ex, TrainConfig{Boost: small, MaxIterations: 20, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !one.Features().Off[Boost] || treesOf(one) != nil {
		t.Error("boosted trees trained on examples of one group")
	}
}

// treesOf returns the trees stage of lab, or nil.
func treesOf(lab *Labeller) *TreesStage {
	for _, st := range lab.Stages() {
		if ts, ok := st.(*TreesStage); ok {
			return ts
		}
	}
	return nil
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
