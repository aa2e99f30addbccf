package label

import (
	"compress/gzip"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/sluice-project/sluice/internal/pagetest"
)

// readModel reads a model file of the repository, gzip-compressed or not.
func readModel(t *testing.T, path string) *Labeller {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r io.Reader = f
	if filepath.Ext(path) == ".gz" {
		if r, err = gzip.NewReader(f); err != nil {
			t.Fatal(err)
		}
	}
	data, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	lab, err := Load(data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return lab
}

// TestWindowsMatchWholePage checks that labelling a page window by window
// gives the marginals, to the bit, of one window over the whole page, for
// the embedded model (trees, crf, context, smooth, region) and a model with
// the stack stage, in both styles, with windows small enough that every
// window boundary and the trees' and template's reach across it are
// exercised many times; and that the pass looking each attribute up once
// for the trees and the CRF (Labeller.dict) gives the marginals of the one
// that gives them the attribute lists to look up in their own maps.
func TestWindowsMatchWholePage(t *testing.T) {
	models := map[string]struct{ path, stage string }{
		"embedded": {"../model/default.slm", StageContext},
		"stack":    {"../testdata/legacy-models/m3s.slm.gz", StageStack},
	}
	p := pagetest.Parse(t, pagetest.Synthetic(rand.New(rand.NewPCG(5, 6)), 400))
	if len(p.Blocks) < 300 {
		t.Fatalf("the synthetic page has %d blocks", len(p.Blocks))
	}
	defer func(w int) { windowBlocks = w }(windowBlocks)
	for name, m := range models {
		lab := readModel(t, m.path)
		if names := lab.StageNames(); !slices.Contains(names, m.stage) || !slices.Contains(names, StageTrees) || lab.dict == nil {
			t.Fatalf("%s: stages %v, want trees and %s, and a dictionary", name, names, m.stage)
		}
		twoLookups := *lab
		twoLookups.dict = nil
		for _, style := range lab.Styles() {
			windowBlocks = 1 << 30
			want, err := lab.Marginals(p, style)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range []int{1, 3, 64, 1 << 30} {
				windowBlocks = w
				for _, l := range []*Labeller{lab, &twoLookups} {
					got, err := l.Marginals(p, style)
					if err != nil {
						t.Fatal(err)
					}
					for i := range want {
						if !slices.Equal(got[i], want[i]) {
							t.Fatalf("%s, style %s, windows of %d, one lookup %v: block %d: marginals %v, want %v", name, style, w, l.dict != nil, i, got[i], want[i])
						}
					}
				}
			}
		}
	}
}
