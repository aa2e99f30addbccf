package label

import (
	"math/rand/v2"
	"testing"

	"github.com/sluice-project/sluice/internal/pagetest"
)

// Benchmarks of the per-block functions on their own, less noisy than
// BenchmarkAttrs for a change to one of them.

func BenchmarkStackAttrsAlone(b *testing.B) {
	p := pagetest.Parse(b, pagetest.Synthetic(rand.New(rand.NewPCG(1, 2)), 300))
	e := extractor(b, DefaultFeatureConfig())
	attrs := e.Attrs(p)
	rng := rand.New(rand.NewPCG(3, 4))
	marg := make([][]float64, len(p.Blocks))
	for i := range marg {
		v := rng.Float64()
		marg[i] = []float64{1 - v, 0, v, 0, 0}
	}
	var ss stackScratch
	b.ReportAllocs()
	for b.Loop() {
		stackAttrs(e, p, attrs, marg, 0, &ss)
	}
}

func BenchmarkContextRows(b *testing.B) {
	p := pagetest.Parse(b, pagetest.Synthetic(rand.New(rand.NewPCG(1, 2)), 300))
	rng := rand.New(rand.NewPCG(3, 4))
	marg := make([][]float64, len(p.Blocks))
	tp := make([]float64, len(p.Blocks))
	for i := range marg {
		v := rng.Float64()
		marg[i] = []float64{1 - v, 0, v, 0, 0}
		tp[i] = rng.Float64()
	}
	cfg := DefaultFeatureConfig()
	var cs contextScratch
	contextVerdicts(p, marg, tp, 0, 2, &cfg, &cs)
	b.ReportAllocs()
	for b.Loop() {
		contextRows(p, 0, &cs)
	}
}
