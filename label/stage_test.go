package label

import (
	"strings"
	"testing"
)

func TestCheckStages(t *testing.T) {
	for _, ok := range [][]string{
		{"crf"},
		{"crf", "smooth", "region"},
		{"trees", "crf", "blend", "smooth", "region"},
		{"trees", "crf", "stack", "blend", "smooth", "region"},
		{"trees", "crf", "context", "smooth", "region"},
	} {
		if err := CheckStages(ok); err != nil {
			t.Errorf("%v: %v", ok, err)
		}
	}
	for _, bad := range []struct {
		stages []string
		msg    string
	}{
		{nil, "needs the crf stage"},
		{[]string{"trees"}, "needs the crf stage"},
		{[]string{"crf", "trees"}, "out of place"},
		{[]string{"crf", "crf"}, "given twice"},
		{[]string{"crf", "tree"}, `unknown stage "tree"`},
		{[]string{"crf", "blend"}, `stage "blend" needs stage "trees"`},
		{[]string{"crf", "context"}, `stage "context" needs stage "trees"`},
		{[]string{"stack"}, `stage "stack" needs stage "crf"`},
	} {
		err := CheckStages(bad.stages)
		if err == nil || !strings.Contains(err.Error(), bad.msg) {
			t.Errorf("%v: error %v, want one saying %q", bad.stages, err, bad.msg)
		}
	}
}

func TestNewStages(t *testing.T) {
	if _, err := New(DefaultFeatureConfig(), CRFStage{}); err == nil || !strings.Contains(err.Error(), "no model") {
		t.Errorf("a crf stage without a model: error %v", err)
	}
	if _, err := New(DefaultFeatureConfig(), SmoothStage{}); err == nil {
		t.Error("a labeller without a crf stage was accepted")
	}
	if _, err := New(DefaultFeatureConfig(), &TreesStage{}, CRFStage{}); err == nil {
		t.Error("a trees stage without trees was accepted")
	}
}

func TestRemoveStage(t *testing.T) {
	all := []string{"trees", "crf", "context", "smooth", "region"}
	for _, c := range []struct{ name, want string }{
		{"trees", "crf,smooth,region"},
		{"context", "trees,crf,smooth,region"},
		{"smooth", "trees,crf,context,region"},
		{"crf", "trees"},
	} {
		if got := strings.Join(RemoveStage(all, c.name), ","); got != c.want {
			t.Errorf("without %s: %s, want %s", c.name, got, c.want)
		}
	}
	if got := strings.Join(RemoveStage([]string{"trees", "crf", "blend", "smooth"}, "trees"), ","); got != "crf,smooth" {
		t.Errorf("without trees: %s, want crf,smooth", got)
	}
}
