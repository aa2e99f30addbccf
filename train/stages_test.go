package train

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/features"
	"github.com/sluice-project/sluice/gbdt"
	"github.com/sluice-project/sluice/internal/pagetest"
	"github.com/sluice-project/sluice/label"
	"github.com/sluice-project/sluice/page"
)

func TestTrainLabelSaveLoad(t *testing.T) {
	var ex []Example
	for n := range 12 {
		ex = append(ex, trainPage(t, n))
	}
	lab, err := Train(context.Background(), ex, Config{MaxIterations: 60, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	loaded := saveLoad(t, lab)
	test := trainPage(t, 99)
	for _, l := range []*label.Labeller{lab, loaded} {
		p := test.Page
		l.Label(p, 0.5)
		for i, b := range p.Blocks {
			if b.Label != test.Labels[i] {
				t.Errorf("block %q: label %v, want %v (score %.2f)", b.Text, b.Label, test.Labels[i], b.Score)
			}
			if b.Score < 0 || b.Score > 1 {
				t.Errorf("score %v outside [0,1]", b.Score)
			}
		}
	}
	// A higher threshold never keeps more.
	p := trainPage(t, 7).Page
	lab.Label(p, 0.5)
	kept := 0
	for _, b := range p.Blocks {
		if b.Label != page.Other {
			kept++
		}
	}
	lab.Label(p, 0.99)
	for _, b := range p.Blocks {
		if b.Label != page.Other {
			kept--
		}
	}
	if kept < 0 {
		t.Errorf("a higher threshold kept more blocks")
	}
}

// TestStyles trains one model on pages annotated in two styles, the second
// keeping the footer links as content, and checks that each style labels
// as its own examples did, and that styles and thresholds survive a save.
func TestStyles(t *testing.T) {
	var ex []Example
	for n := range 12 {
		e := trainPage(t, n)
		if n%2 == 1 {
			e.Style = "wide"
			e.Labels = append([]page.Label(nil), e.Labels...)
			for i, b := range e.Page.Blocks {
				if b.Text == "Terms" || b.Text == "Privacy" || strings.Contains(b.Text, "Terms") {
					e.Labels[i] = page.Paragraph
				}
			}
		}
		ex = append(ex, e)
	}
	// The CRF's styles: boosted trees on twelve tiny pages learn none, and
	// blending their verdict in would blur the difference.
	fc := label.DefaultFeatureConfig()
	fc.Off[features.Boost] = true
	lab, err := Train(context.Background(), ex, Config{Features: &fc, MaxIterations: 80, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := lab.Styles(); len(got) != 2 || got[0] != label.MainStyle || got[1] != "wide" {
		t.Fatalf("Styles() = %v", got)
	}
	if err := lab.SetThresholds(map[string]float64{"wide": 0.3}); err != nil {
		t.Fatal(err)
	}
	if err := lab.SetThresholds(map[string]float64{"narrow": 0.3}); err == nil {
		t.Error("SetThresholds accepted an unknown style")
	}
	loaded := saveLoad(t, lab)
	if loaded.Threshold("wide") != 0.3 || loaded.Threshold("") != 0.5 {
		t.Errorf("thresholds after load: wide %v, main %v", loaded.Threshold("wide"), loaded.Threshold(""))
	}
	kept := func(style string) (footer, nav int) {
		p := trainPage(t, 3).Page
		if err := loaded.LabelStyle(p, style, 0.5); err != nil {
			t.Fatal(err)
		}
		for _, b := range p.Blocks {
			if b.Label == page.Other {
				continue
			}
			switch {
			case strings.Contains(b.Text, "Terms"):
				footer++
			case strings.HasPrefix(b.Text, "Menu"):
				nav++
			}
		}
		return
	}
	if f, n := kept(label.MainStyle); f != 0 || n != 0 {
		t.Errorf("main style kept %d footer and %d menu blocks, want none", f, n)
	}
	if f, n := kept("wide"); f == 0 || n != 0 {
		t.Errorf("wide style kept %d footer and %d menu blocks, want the footer only", f, n)
	}
	if err := loaded.LabelStyle(trainPage(t, 1).Page, "narrow", 0); err == nil || !strings.Contains(err.Error(), "wide") {
		t.Errorf("unknown style: err = %v, want one listing the known styles", err)
	}
}

// TestBoosted trains labellers with boosted trees, one stage with and
// without context trees and two stages, and checks the stages trained, the
// labelling, and the model file.
func TestBoosted(t *testing.T) {
	ex := sitePages(t, 12, 4)
	small := &gbdt.Options{Trees: 10, Depth: 3, MinLeaf: 1}
	for _, run := range []struct{ stack, context bool }{{false, false}, {false, true}, {true, false}} {
		stack := run.stack
		fc := label.DefaultFeatureConfig()
		fc.Off[features.Stack] = !stack
		fc.Off[features.Context] = !run.context
		var stages []string
		lab, err := Train(context.Background(), ex, Config{Features: &fc, Boost: small, Context: small, BoostFolds: 2, StackFolds: 2,
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
		if lab.Features().Off[features.Boost] || trees == nil {
			t.Fatalf("stack %v: no boosted trees", stack)
		}
		wantStages := "trees,crf,blend,smooth,region"
		switch {
		case stack:
			wantStages = "trees,crf,stack,blend,smooth,region"
		case run.context:
			wantStages = "trees,crf,context,smooth,region"
		}
		if got := strings.Join(lab.StageNames(), ","); got != wantStages {
			t.Errorf("%+v: stages %s, want %s", run, got, wantStages)
		}
		data, err := lab.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(data, []byte("SLUICEM6")) {
			t.Errorf("%+v: the model file starts with %q, want SLUICEM6", run, data[:8])
		}
		loaded, err := label.Load(data)
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
		for _, n := range []int{12, len(data) / 3, len(data) / 2, len(data) - 1} {
			if _, err := label.Load(data[:n]); err == nil {
				t.Errorf("stack %v: Load of the first %d bytes succeeded", stack, n)
			}
		}
	}

	// One group only: no held-out verdicts, so no trees.
	for i := range ex {
		ex[i].Group = "one site"
	}
	one, err := Train(context.Background(), ex, Config{Boost: small, MaxIterations: 20, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !one.Features().Off[features.Boost] || treesOf(one) != nil {
		t.Error("boosted trees trained on examples of one group")
	}
}

// treesOf returns the trees stage of lab, or nil.
func treesOf(lab *label.Labeller) *label.TreesStage {
	for _, st := range lab.Stages() {
		if ts, ok := st.(*label.TreesStage); ok {
			return ts
		}
	}
	return nil
}

func TestTwoStages(t *testing.T) {
	var ex []Example
	for n := range 12 {
		e := trainPage(t, n)
		e.Group = fmt.Sprint("site", n%4)
		ex = append(ex, e)
	}
	var stages []string
	noBoost := label.DefaultFeatureConfig()
	noBoost.Off[features.Boost] = true // boost_test.go trains with both
	lab, err := Train(context.Background(), ex, Config{Features: &noBoost, MaxIterations: 40, Workers: 1, Stage: func(s string) { stages = append(stages, s) }})
	if err != nil {
		t.Fatal(err)
	}
	wantStages := []string{"first stage without fold 1 of 3", "first stage without fold 2 of 3", "first stage without fold 3 of 3", "first stage", "second stage"}
	if !slices.Equal(stages, wantStages) {
		t.Errorf("stages trained: %q, want %q", stages, wantStages)
	}
	if n := len(lab.CRFs()); n != 2 {
		t.Fatalf("%d CRF stages, want 2", n)
	}
	data, err := lab.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(lab.StageNames(), ","); got != "crf,stack,smooth,region" {
		t.Errorf("a two-stage labeller has stages %s", got)
	}
	loaded, err := label.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	p := trainPage(t, 5).Page
	m1, _ := lab.Marginals(p, "")
	m2, _ := loaded.Marginals(p, "")
	if fmt.Sprint(m1) != fmt.Sprint(m2) {
		t.Error("marginals differ after saving and loading")
	}
	if lab.NumFeatures() != lab.CRFs()[0].NumFeatures()+lab.CRFs()[1].NumFeatures() {
		t.Error("NumFeatures is not the sum of the stages'")
	}
	// Every truncation of the file is an error, not a panic.
	for _, n := range []int{9, 12, len(data) / 2, len(data) - 1} {
		if _, err := label.Load(data[:n]); err == nil {
			t.Errorf("Load of the first %d bytes succeeded", n)
		}
	}

	// Off, or with one group only, one stage.
	fc := label.DefaultFeatureConfig()
	fc.Off[features.Stack] = true
	fc.Off[features.Boost] = true
	one, err := Train(context.Background(), ex, Config{Features: &fc, MaxIterations: 20, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	for i := range ex {
		ex[i].Group = "one site"
	}
	single, err := Train(context.Background(), ex, Config{Features: &noBoost, MaxIterations: 20, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []*label.Labeller{one, single} {
		if got := strings.Join(l.StageNames(), ","); got != "crf,smooth,region" {
			t.Errorf("stages %s, want crf,smooth,region", got)
		}
		if l2 := saveLoad(t, l); !l2.Features().Off[features.Stack] {
			t.Error("a loaded one-stage model has the stack group on")
		}
	}
}

func TestAssignFolds(t *testing.T) {
	groups := []string{"a", "a", "a", "b", "c", "c", "d", "e", "f", "f", "g"}
	fold := AssignFolds(groups, 3)
	sizes := make([]int, 3)
	where := map[string]int{}
	for i, g := range groups {
		if f, ok := where[g]; ok && f != fold[i] {
			t.Errorf("group %s split between folds %d and %d", g, f, fold[i])
		}
		where[g] = fold[i]
		sizes[fold[i]]++
	}
	if slices.Max(sizes)-slices.Min(sizes) > 1 {
		t.Errorf("fold sizes %v are unbalanced", sizes)
	}
	if !slices.Equal(fold, AssignFolds(groups, 3)) {
		t.Error("AssignFolds is not deterministic")
	}
}

// sitePages returns n training pages (trainPage) spread over the given
// number of sites, page k on site k mod sites.
func sitePages(t *testing.T, n, sites int) []Example {
	t.Helper()
	ex := make([]Example, n)
	for k := range ex {
		ex[k] = trainPage(t, k)
		ex[k].Group = fmt.Sprint("site", k%sites)
	}
	return ex
}

// trainPage returns page n of pagetest.Article's family as an example.
func trainPage(t *testing.T, n int) Example {
	t.Helper()
	p, labels := pagetest.Article(t, n)
	return Example{Page: p, Labels: labels}
}

// saveLoad saves lab as a model file and loads it again.
func saveLoad(t *testing.T, lab *label.Labeller) *label.Labeller {
	t.Helper()
	data, err := lab.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := label.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	return loaded
}
