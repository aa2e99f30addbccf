package train

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/features"
	"github.com/sluice-project/sluice/label"
)

// Training learns the class/id cue table from its examples: the model's
// table from all of them, each page's training attributes from a table
// that leaves its own cue fold's sites out; with the group off, none. The
// text cue table likewise.
func TestTrainLearnsCues(t *testing.T) {
	ex := sitePages(t, 12, 6)
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

// With BlindSites, the pages of the chosen sites are read without the text
// cue table (no "lt." attribute), the others with it, and a site is chosen
// whole; the share chosen follows BlindSites.
func TestBlindSites(t *testing.T) {
	ex := sitePages(t, 24, 12)
	j, err := newJob(context.Background(), ex, Config{MaxIterations: 5, Workers: 1, BlindSites: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	if len(j.fc.TextCues) == 0 {
		t.Fatal("no text cues learnt")
	}
	blind, seeing := 0, 0
	for i := range ex {
		lt := 0
		for _, block := range j.trainingExtractor(i).Attrs(ex[i].Page) {
			for _, a := range block {
				if strings.HasPrefix(a.Name, "lt.") {
					lt++
				}
			}
		}
		if j.blind[i] {
			blind++
			if lt != 0 {
				t.Errorf("example %d of blind site %s has %d text cue attributes", i, ex[i].Group, lt)
			}
		} else if lt > 0 {
			seeing++
		}
		for k := range ex {
			if ex[i].Group == ex[k].Group && j.blind[i] != j.blind[k] {
				t.Errorf("site %s is blind on one page and not on another", ex[i].Group)
			}
		}
	}
	if blind == 0 || seeing == 0 {
		t.Errorf("%d pages blind, %d read with text cues; want some of each", blind, seeing)
	}
	n := 0
	for s := range 10000 {
		if blindSite(fmt.Sprintf("example%d.com", s), 0.25) {
			n++
		}
	}
	if n < 2300 || n > 2700 {
		t.Errorf("%d of 10000 sites blind at 0.25", n)
	}
	if blindSite("a.com", 0) || !blindSite("a.com", 1) {
		t.Error("share 0 must choose no site and 1 every site")
	}
	if _, err := newJob(context.Background(), ex, Config{BlindSites: 1.5}); err == nil {
		t.Error("BlindSites 1.5 accepted")
	}
}
