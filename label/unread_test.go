package label

import (
	"maps"
	"testing"

	"github.com/sluice-project/sluice/features"
)

// TestUnreadGroupsOff: an optional group that a model was not trained
// with is switched off when the model is loaded with it on (as a model
// file made before the group existed is), and one it was trained with
// stays on.
func TestUnreadGroupsOff(t *testing.T) {
	ex := []example{trainPage(t, 0), trainPage(t, 1), trainPage(t, 2)}
	with := DefaultFeatureConfig()
	with.Off = maps.Clone(with.Off)
	delete(with.Off, features.Headline)
	trained := trainCRF(t, ex, with, 5)
	if trained.Features().Off[features.Headline] {
		t.Fatal("a CRF trained with the headline group has it switched off")
	}
	m := trained.crf
	hl := 0
	for name := range m.Attrs() {
		if len(name) > 3 && name[:3] == "hl." {
			hl++
		}
	}
	if hl == 0 {
		t.Fatal("the training pages gave the CRF no headline attribute")
	}

	without := trainCRF(t, ex, DefaultFeatureConfig(), 5)
	lab, err := New(with, CRFStage{without.crf}, SmoothStage{})
	if err != nil {
		t.Fatal(err)
	}
	if !lab.Features().Off[features.Headline] {
		t.Error("the headline group is on for a CRF that never read it")
	}
	if with.Off[features.Headline] {
		t.Error("the caller's configuration was changed")
	}
	for _, a := range lab.ext.Attrs(ex[0].Page)[0] {
		if len(a.Name) > 3 && a.Name[:3] == "hl." {
			t.Errorf("attribute %q computed for a model that does not read it", a.Name)
		}
	}
}
