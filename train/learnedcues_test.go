package train

import (
	"context"
	"fmt"
	"testing"

	"github.com/sluice-project/sluice/features"
	"github.com/sluice-project/sluice/label"
)

// Training learns the class/id cue table from its examples: the model's
// table from all of them, each page's training attributes from a table
// that leaves its own cue fold's sites out; with the group off, none. The
// text cue table likewise.
func TestTrainLearnsCues(t *testing.T) {
	var ex []Example
	for n := range 12 {
		e := trainPage(t, n)
		e.Group = fmt.Sprintf("site%d", n%6)
		ex = append(ex, e)
	}
	on := label.DefaultFeatureConfig()
	delete(on.Off, features.LearnedCues)
	j, err := newJob(context.Background(), ex, Config{MaxIterations: 5, Workers: 1, Features: &on})
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := j.fc.Cues["nav"]; !ok || !(v < 0) {
		t.Errorf(`cue "nav" = %v, %v; want a negative value`, v, ok)
	}
	if v := j.fc.Cues["article"]; !(v > 0) {
		t.Errorf(`cue "article" = %v, want a positive value`, v)
	}
	if len(j.cueExt) != cueFolds {
		t.Fatalf("%d cue extractors, want %d", len(j.cueExt), cueFolds)
	}
	for i := range ex {
		if j.trainingExtractor(i) == j.ext {
			t.Errorf("example %d reads the model's own table", i)
		}
	}
	for i := range ex {
		for k := range ex {
			if ex[i].Group == ex[k].Group && j.cueFold[i] != j.cueFold[k] {
				t.Errorf("examples %d and %d of one site in cue folds %d and %d", i, k, j.cueFold[i], j.cueFold[k])
			}
		}
	}

	offCfg := label.DefaultFeatureConfig()
	offCfg.Off[features.LearnedCues] = true
	off := Config{MaxIterations: 5, Workers: 1, Features: &offCfg}
	j, err = newJob(context.Background(), ex, off)
	if err != nil {
		t.Fatal(err)
	}
	if j.fc.Cues != nil || j.fc.TextCues == nil || j.cueExt == nil {
		t.Errorf("class/id cues off: tables %v and %d text cues, %d extractors", j.fc.Cues, len(j.fc.TextCues), len(j.cueExt))
	}
	offCfg.Off[features.TextCues] = true
	j, err = newJob(context.Background(), ex, off)
	if err != nil {
		t.Fatal(err)
	}
	if j.fc.Cues != nil || j.fc.TextCues != nil || j.cueExt != nil {
		t.Errorf("both off: tables %v and %v, %d extractors", j.fc.Cues, j.fc.TextCues, len(j.cueExt))
	}
}
