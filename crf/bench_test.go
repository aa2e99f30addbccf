package crf

import (
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"
)

// The benchmark page: 300 positions, 40 attributes each, 5 labels, under
// pageTemplate (unigrams of every attribute at offsets -1, 0, 1, two keys at
// ±2, one conjunction, bigrams: about 125 features per position), with a
// dictionary built from 100 such pages.
const (
	benchN     = 300
	benchAttrs = 40
	benchVocab = 2000
	benchL     = 5
)

var benchSetup = sync.OnceValues(func() (*Model, [][]Attr) {
	rng := rand.New(rand.NewPCG(21, 22))
	data := pageLike(rng, 100, benchN, benchAttrs, benchVocab, benchL)
	m := randomModel(rng, data, pageTemplate, benchL, 0.5)
	page := pageLike(rng, 1, benchN, benchAttrs, benchVocab, benchL)[0].Attrs
	return m, page
})

func BenchmarkViterbi(b *testing.B) {
	m, page := benchSetup()
	b.Run("from-attrs", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			m.Score(page).Viterbi()
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pages/s")
	})
	b.Run("lattice", func(b *testing.B) {
		lat := m.Score(page)
		b.ReportAllocs()
		for b.Loop() {
			lat.Viterbi()
		}
	})
}

func BenchmarkMarginals(b *testing.B) {
	m, page := benchSetup()
	b.Run("from-attrs", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			m.Score(page).Marginals()
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pages/s")
	})
	b.Run("lattice", func(b *testing.B) {
		lat := m.Score(page)
		b.ReportAllocs()
		for b.Loop() {
			lat.Marginals()
		}
	})
}

// BenchmarkScore measures the feature lookup alone: resolving 12,000
// attribute names and summing the weights into the lattice.
func BenchmarkScore(b *testing.B) {
	m, page := benchSetup()
	b.Run("all", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			m.Score(page)
		}
	})
	var r resolved
	b.Run("resolve", func(b *testing.B) {
		for b.Loop() {
			m.fs.resolve(page, &r)
		}
	})
	e := make([]float64, len(page)*benchL)
	b.Run("sum", func(b *testing.B) {
		for b.Loop() {
			m.fs.emission(&r, len(page), m.w, e)
		}
	})
	b.Logf("%d attributes, %d features, %d attribute occurrences found of %d", m.fs.nAttrs(), m.fs.nFeat, len(r.ids), len(page)*benchAttrs)
}

// BenchmarkTrainEpoch measures one objective-and-gradient evaluation over
// 1,000 sequences of 300 positions (300,000 positions) with
// GOMAXPROCS workers.
func BenchmarkTrainEpoch(b *testing.B) {
	rng := rand.New(rand.NewPCG(23, 24))
	data := pageLike(rng, 1000, benchN, benchAttrs, benchVocab, benchL)
	bld := newDictBuilder(pageTemplate)
	for _, s := range data {
		if err := bld.count(s.Attrs); err != nil {
			b.Fatal(err)
		}
	}
	fs := bld.featureSet(1, benchL)
	workers := runtime.GOMAXPROCS(0)
	seqs := compileAll(&fs, data, workers)
	data = nil
	o := newObjective(seqs, fs.nFeat, benchL, true, 1, workers)
	for i := range o.x {
		o.x[i] = rng.NormFloat64() * 0.1
	}
	occ := 0
	for _, c := range seqs {
		occ += len(c.feat)
	}
	b.Logf("%d features, %d weights, %.0f feature occurrences per position, %d workers",
		fs.nFeat, len(o.x), float64(occ)/float64(1000*benchN), workers)
	b.ResetTimer()
	for b.Loop() {
		o.evaluate()
	}
	b.ReportMetric(float64(1000*benchN*b.N)/b.Elapsed().Seconds(), "positions/s")
}

// BenchmarkUnmarshal measures loading the benchmark model (the dictionary
// of 100 pages) from its file format.
func BenchmarkUnmarshal(b *testing.B) {
	m, _ := benchSetup()
	data, err := m.MarshalBinary()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Unmarshal(data); err != nil {
			b.Fatal(err)
		}
	}
}
