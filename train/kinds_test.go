package train

import (
	"testing"

	"github.com/sluice-project/sluice/dataset"
	"github.com/sluice-project/sluice/evaluate"
	"github.com/sluice-project/sluice/label"
)

// TestKindsNeedNoSwitch checks that what training reads from each
// registered data set kind names things that exist here: a metric of
// package evaluate and an annotation style of package label (package
// dataset, which imports neither, gives their names).
func TestKindsNeedNoSwitch(t *testing.T) {
	for _, k := range dataset.Kinds() {
		if _, err := evaluate.Lookup(k.MainMetric()); err != nil {
			t.Errorf("kind %q: main metric: %v", k.Kind(), err)
		}
		for _, name := range []string{"cleaneval-dev", "cleanportaleval", "my-set"} {
			if err := label.CheckStyle(k.DefaultStyle(name)); err != nil {
				t.Errorf("kind %q: DefaultStyle(%q): %v", k.Kind(), name, err)
			}
		}
	}
}

// TestDefaultStyle checks the rule: the CleanEval style for the CleanEval
// task's own sets, the main style for every other set, CleanPortalEval and
// annotated sets included.
func TestDefaultStyle(t *testing.T) {
	cases := []struct {
		set  dataset.Set
		want string
	}{
		{dataset.Set{Name: "cleaneval-dev", Kind: dataset.CleanEval}, label.CleanEvalStyle},
		{dataset.Set{Name: "cleaneval", Kind: dataset.CleanEval}, label.CleanEvalStyle},
		{dataset.Set{Name: "cleanportaleval", Kind: dataset.CleanEval}, label.MainStyle},
		{dataset.Set{Name: "my-cleaneval", Kind: dataset.CleanEval}, label.MainStyle},
		{dataset.Set{Name: "cleaneval-mine", Kind: dataset.Annotated}, label.MainStyle},
		{dataset.Set{Name: "cleaneval-x", Kind: dataset.Dragnet}, label.MainStyle},
		{dataset.Set{Name: "wcxb-dev", Kind: dataset.WCXB}, label.MainStyle},
		{dataset.Set{Name: "l3s-gn1", Kind: dataset.L3S}, label.MainStyle},
		{dataset.Set{Name: "readability", Kind: dataset.Readability}, label.MainStyle},
	}
	for _, c := range cases {
		if got := DefaultStyle(&c.set); got != c.want {
			t.Errorf("DefaultStyle(%s of kind %s) = %q, want %q", c.set.Name, c.set.Kind, got, c.want)
		}
	}
	set, err := dataset.Open("../dataset/testdata/cleaneval")
	if err != nil {
		t.Fatal(err)
	}
	if got := DefaultStyle(set); got != label.CleanEvalStyle {
		t.Errorf("DefaultStyle(%s) = %q", set.Name, got)
	}
}
