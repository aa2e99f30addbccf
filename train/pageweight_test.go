package train

import (
	"math"
	"testing"

	"github.com/sluice-project/sluice/crf"
	"github.com/sluice-project/sluice/label"
	"github.com/sluice-project/sluice/page"
)

func TestPageWeights(t *testing.T) {
	seqs := func(lens ...int) []crf.Sequence {
		s := make([]crf.Sequence, len(lens))
		for i, n := range lens {
			s[i].Labels = make([]int, n)
		}
		return s
	}
	s := seqs(10, 40, 1000)
	pageWeights(s, 0)
	for i := range s {
		if s[i].Weight != 1 {
			t.Fatalf("gamma 0 set weight %v, want 1", s[i].Weight)
		}
	}
	// Example weights (Example.Weight, LoadOptions.TypeWeights) multiply
	// the page weights before the scaling: with gamma 0, a page of weight
	// 3 counts three times as much as the others.
	s = seqs(10, 40, 1000)
	s[1].Weight = 3
	pageWeights(s, 0)
	if s[1].Weight != 3*s[0].Weight || math.Abs(s[0].Weight+s[1].Weight+s[2].Weight-3) > 1e-9 {
		t.Errorf("weights %v %v %v, want the second three times the others and a sum of 3", s[0].Weight, s[1].Weight, s[2].Weight)
	}
	s = seqs(100, 400, 100)
	pageWeights(s, 0.5)
	// mean 200: raw weights √2, 1/√2, √2, scaled to a mean of 1.
	sum := 0.0
	for _, x := range s {
		sum += x.Weight
	}
	if math.Abs(sum-3) > 1e-9 {
		t.Errorf("weights sum to %v, want 3", sum)
	}
	if r := s[0].Weight / s[1].Weight; math.Abs(r-2) > 1e-9 {
		t.Errorf("a page of a quarter of the blocks weighs %v times as much, want 2", r)
	}
	// A tiny page is clamped: at most maxPageWeight/minPageWeight times a huge one.
	s = seqs(1, 100000, 500)
	pageWeights(s, 1)
	if r := s[0].Weight / s[1].Weight; r > maxPageWeight/minPageWeight+1e-9 || r < 10 {
		t.Errorf("tiny against huge: ratio %v, want it clamped to at most %v (unclamped it is 100000)", r, maxPageWeight/minPageWeight)
	}
}

func TestGoldShareWeights(t *testing.T) {
	other := otherLabel()
	content := (other + 1) % len(label.Labels)
	// Three pages of 10 blocks of 10 words: gold on 5, 1 and 0 blocks.
	var seqs []crf.Sequence
	for _, gold := range []int{5, 1, 0} {
		s := crf.Sequence{Labels: make([]int, 10), Weight: 1}
		for i := range s.Labels {
			s.Labels[i] = other
			if i < gold {
				s.Labels[i] = content
			}
		}
		seqs = append(seqs, s)
	}
	blocks := func(int) []page.Block {
		bs := make([]page.Block, 10)
		for i := range bs {
			bs[i].Words = 10
		}
		return bs
	}
	if w := goldShareWeights(seqs, blocks, 0); w[0] != 1 || w[1] != 1 || w[2] != 1 {
		t.Errorf("gamma 0: %v, want every weight 1", w)
	}
	w := goldShareWeights(seqs, blocks, 0.5)
	if !(w[0] < w[1] && w[1] < w[2]) {
		t.Errorf("gamma 0.5: %v, want the page of least gold weighed most", w)
	}
	if sum := w[0] + w[1] + w[2]; math.Abs(sum-3) > 1e-9 {
		t.Errorf("gamma 0.5: weights %v sum to %v, want a mean of 1", w, sum)
	}
	// The shares are 0.5, 0.1 and 0.02 (the floor), their mean 0.2067.
	if r := w[2] / w[0]; math.Abs(r-5) > 1e-9 {
		t.Errorf("gamma 0.5: empty-gold page / half-gold page = %v, want sqrt(0.5/0.02) = 5", r)
	}
}
