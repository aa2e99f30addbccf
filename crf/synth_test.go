package crf

import (
	"fmt"
	"math/rand/v2"
)

// Synthetic data for tests and benchmarks.

// chainTask makes sequences whose label depends on the previous label and
// on the attribute at offset -1: a position carrying "c=k" sets the label of
// the next position to k, a position carrying "c=-" lets the next position
// keep the current label. Each position also has a few noise attributes and
// a weak, noisy cue of its own label.
func chainTask(rng *rand.Rand, nSeq, n, L int) []Sequence {
	data := make([]Sequence, nSeq)
	for i := range data {
		attrs := make([][]Attr, n)
		labels := make([]int, n)
		y := rng.IntN(L)
		for t := range n {
			if t > 0 {
				prev := attrs[t-1][0].Name
				if prev != "c=-" {
					fmt.Sscanf(prev, "c=%d", &y)
				}
			}
			labels[t] = y
			c := "c=-"
			if rng.IntN(3) == 0 {
				c = fmt.Sprintf("c=%d", rng.IntN(L))
			}
			a := []Attr{{Name: c}}
			for range 3 {
				a = append(a, Attr{Name: fmt.Sprintf("noise=%d", rng.IntN(50))})
			}
			cue := y
			if rng.IntN(2) == 0 {
				cue = rng.IntN(L)
			}
			a = append(a, Attr{Name: fmt.Sprintf("cue=%d", cue), Value: 0.5})
			attrs[t] = a
		}
		data[i] = Sequence{Attrs: attrs, Labels: labels}
	}
	return data
}

var chainTemplate = Template{
	Unigrams: []Unigram{{Offset: -1, Keys: []string{"c"}}, {Offset: 0}},
	Bigram:   true,
}

// pageLike makes sequences shaped like labelled web pages: sticky labels,
// perAttr attributes per position, about half of them depending on the
// label. Attribute j has key "kj" for j < 7 (one attribute per key, like
// "tag=p"); the rest share key "k7" (a bag, like container classes). Values
// are Zipf-distributed over vocab; names look like "k3=v17".
func pageLike(rng *rand.Rand, nSeq, n, perAttr, vocab, L int) []Sequence {
	const keys = 8
	names := make([][]string, keys)
	for k := range names {
		names[k] = make([]string, vocab)
		for v := range names[k] {
			names[k][v] = fmt.Sprintf("k%d=v%d", k, v)
		}
	}
	zipf := rand.NewZipf(rng, 1.2, 1, uint64(vocab-1))
	data := make([]Sequence, nSeq)
	for i := range data {
		attrs := make([][]Attr, n)
		labels := make([]int, n)
		y := rng.IntN(L)
		for t := range n {
			if rng.IntN(5) == 0 {
				y = rng.IntN(L)
			}
			labels[t] = y
			a := make([]Attr, perAttr)
			for j := range a {
				k := min(j, keys-1)
				v := int(zipf.Uint64())
				if rng.IntN(2) == 0 {
					v = (v*L + y) % vocab // label-dependent
				}
				a[j] = Attr{Name: names[k][v]}
				if j == 0 {
					a[j].Value = rng.Float64()
				}
			}
			attrs[t] = a
		}
		data[i] = Sequence{Attrs: attrs, Labels: labels}
	}
	return data
}

var pageTemplate = mustParse(`
U[-1..1]            # every attribute at the previous, current and next position
U[-2]:k0,k1
U[2]:k0,k1
U[-1]:k2 & U[0]:k2
B
`)

func mustParse(s string) Template {
	t, err := ParseTemplate(s)
	if err != nil {
		panic(err)
	}
	return t
}

func labelNames(L int) []string {
	out := make([]string, L)
	for i := range out {
		out[i] = fmt.Sprintf("L%d", i)
	}
	return out
}

// randomModel builds a model over the features of data with random
// weights, for inference tests.
func randomModel(rng *rand.Rand, data []Sequence, tmpl Template, L int, scale float64) *Model {
	b := newDictBuilder(tmpl)
	for _, s := range data {
		if err := b.count(s.Attrs); err != nil {
			panic(err)
		}
	}
	fs := b.featureSet(1, L)
	w := make([]float32, fs.nFeat*L)
	for i := range w {
		w[i] = float32(rng.NormFloat64() * scale)
	}
	var bw []float32
	if tmpl.Bigram {
		bw = make([]float32, L*L+2*L)
		for i := range bw {
			bw[i] = float32(rng.NormFloat64() * scale)
		}
	}
	return newModel(fs, labelNames(L), w, bw)
}
