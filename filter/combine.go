package filter

import (
	"math"
	"strconv"
	"strings"

	"github.com/sluice-project/sluice/page"
)

// This file holds the combinators of CombinE (Weissig and Gottron, "Combinations
// of Content Extraction Algorithms", seeds/combine-content-extraction-
// combinations.txt): serial, parallel (union, intersection) and weighted
// voting. CombinE merges filtered DOM trees; here a filter's output is a score
// per block, so merging is arithmetic on score vectors, and a "removed" block
// is one whose score is below Keep.
//
// Every combinator is itself a Filter and honours an incoming active mask, so
// combinators nest: union(lqf>bte, dsc) runs lqf>bte and dsc on the same
// active blocks and merges their scores.

// live reports whether block i takes part in scoring under the active mask
// (a nil mask means every block does).
func live(active []bool, i int) bool {
	return active == nil || active[i]
}

// kept reports whether a score counts as content. NaN never does.
func kept(s float64) bool { return s >= Keep }

// Serial returns the filter that runs fs one after the other, each on the
// blocks the previous ones kept (CombinE's serial filter set, for example
// LQF_BTE = Serial(lqf, bte)). A block dropped by one stage keeps the score
// that stage gave it; a block that survives every stage gets the last stage's
// score. Nested serial filters are flattened, and Serial of a single filter
// is that filter. It panics when fs is empty.
func Serial(fs ...Filter) Filter {
	flat := flatten(fs, func(f Filter) []Filter {
		if s, ok := f.(*serial); ok {
			return s.fs
		}
		return nil
	}, "filter: Serial of a nil filter", "filter: Serial needs at least one filter")
	if len(flat) == 1 {
		return flat[0]
	}
	return &serial{fs: flat, name: serialName(flat)}
}

// flatten returns fs with each filter for which members returns a list (a
// nested combination of the same kind) replaced by that list. It panics
// with the message nilMsg on a nil filter, and emptyMsg if fs is empty.
func flatten(fs []Filter, members func(Filter) []Filter, nilMsg, emptyMsg string) []Filter {
	flat := make([]Filter, 0, len(fs))
	for _, f := range fs {
		if f == nil {
			panic(nilMsg)
		}
		if m := members(f); m != nil {
			flat = append(flat, m...)
		} else {
			flat = append(flat, f)
		}
	}
	if len(flat) == 0 {
		panic(emptyMsg)
	}
	return flat
}

type serial struct {
	fs   []Filter
	name string
}

// serialName joins the stages with ">", writing a run of k identical stages
// as "k*stage" (so 3XDSC is "3*dsc").
func serialName(fs []Filter) string {
	var sb strings.Builder
	for i := 0; i < len(fs); {
		n := fs[i].Name()
		j := i + 1
		for j < len(fs) && fs[j].Name() == n {
			j++
		}
		if i > 0 {
			sb.WriteByte('>')
		}
		if j-i > 1 {
			sb.WriteString(strconv.Itoa(j - i))
			sb.WriteByte('*')
		}
		sb.WriteString(n)
		i = j
	}
	return sb.String()
}

func (s *serial) Name() string { return s.name }

func (s *serial) Score(p *page.Page, active []bool, out []float64) {
	n := len(p.Blocks)
	if n == 0 {
		return
	}
	mask := make([]bool, n)
	for i := range mask {
		mask[i] = live(active, i)
	}
	last := len(s.fs) - 1
	for k, f := range s.fs {
		f.Score(p, mask, out)
		if k == last {
			break
		}
		left := false
		for i, on := range mask {
			if on && !kept(out[i]) {
				mask[i] = false
			}
			left = left || mask[i]
		}
		if !left {
			return // nothing left for the later stages to score
		}
	}
}

// Union returns the filter whose score for a block is the highest score any
// of fs gives it: a block is kept when at least one filter keeps it
// (CombinE's parallel set with union merging, MIX1). Nested unions are
// flattened; Union of one filter is that filter. It panics when fs is empty.
func Union(fs ...Filter) Filter {
	return newParallel(true, fs)
}

// Intersection returns the filter whose score for a block is the lowest score
// any of fs gives it: a block is kept only when every filter keeps it
// (CombinE's intersection merging, MIX2). Nested intersections are flattened;
// Intersection of one filter is that filter. It panics when fs is empty.
func Intersection(fs ...Filter) Filter {
	return newParallel(false, fs)
}

type parallel struct {
	max  bool // union (max) or intersection (min)
	fs   []Filter
	name string
}

func newParallel(isMax bool, fs []Filter) Filter {
	flat := flatten(fs, func(f Filter) []Filter {
		if q, ok := f.(*parallel); ok && q.max == isMax {
			return q.fs
		}
		return nil
	}, "filter: parallel set with a nil filter", "filter: Union and Intersection need at least one filter")
	if len(flat) == 1 {
		return flat[0]
	}
	word := "inter("
	if isMax {
		word = "union("
	}
	var sb strings.Builder
	sb.WriteString(word)
	for i, f := range flat {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(f.Name())
	}
	sb.WriteByte(')')
	return &parallel{max: isMax, fs: flat, name: sb.String()}
}

func (q *parallel) Name() string { return q.name }

func (q *parallel) Score(p *page.Page, active []bool, out []float64) {
	n := len(p.Blocks)
	if n == 0 {
		return
	}
	q.fs[0].Score(p, active, out)
	tmp := make([]float64, n)
	for _, f := range q.fs[1:] {
		f.Score(p, active, tmp)
		for i, s := range tmp {
			if !live(active, i) {
				continue
			}
			switch {
			case math.IsNaN(out[i]):
				out[i] = s
			case math.IsNaN(s):
			case q.max && s > out[i], !q.max && s < out[i]:
				out[i] = s
			}
		}
	}
	for i := range out {
		if live(active, i) && math.IsNaN(out[i]) {
			out[i] = 0
		}
	}
}

// Vote returns the weighted voting filter of CombinE: filter k votes for a
// block when it keeps it (score >= Keep), with weight weights[k]; the block
// is kept when the weights of the filters voting for it sum to at least
// threshold. MIX3 is Vote(nil, 2, dsc, bte, accb) and MIX4 is
// Vote([]float64{1, 1, 2}, 2, dsc, bte, accb). A nil weights means weight 1
// for every filter.
//
// The score maps the vote V (the sum of the weights voting for the block) to
// [0,1] piecewise linearly so that keep <=> score >= 0.5: with W the total
// weight and t the threshold,
//
//	score = 0.5 * V/t                  when V < t  (0 when nobody votes),
//	score = 0.5 + 0.5 * (V-t)/(W-t)    when V >= t (1 when everybody does),
//
// that is, the weighted mean vote V/W rescaled to put the threshold at 0.5.
// When t <= 0 every block is kept; when t > W none is.
//
// Vote panics when the number of weights does not match the number of
// filters, when fs is empty, or when a weight or the threshold is negative,
// infinite or NaN.
func Vote(weights []float64, threshold float64, fs ...Filter) Filter {
	if len(fs) == 0 {
		panic("filter: Vote needs at least one filter")
	}
	if weights == nil {
		weights = make([]float64, len(fs))
		for i := range weights {
			weights[i] = 1
		}
	}
	if len(weights) != len(fs) {
		panic("filter: Vote has " + strconv.Itoa(len(weights)) + " weights for " + strconv.Itoa(len(fs)) + " filters")
	}
	if !validNumber(threshold) {
		panic("filter: Vote threshold must be a finite number >= 0")
	}
	total := 0.0
	for i, w := range weights {
		if !validNumber(w) {
			panic("filter: Vote weights must be finite numbers >= 0")
		}
		if fs[i] == nil {
			panic("filter: Vote of a nil filter")
		}
		total += w
	}
	if math.IsInf(total, 1) {
		panic("filter: Vote weights sum to infinity")
	}
	var sb strings.Builder
	sb.WriteString("vote(")
	for i, f := range fs {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(f.Name())
		if weights[i] != 1 {
			sb.WriteByte(':')
			sb.WriteString(formatNumber(weights[i]))
		}
	}
	sb.WriteByte(';')
	sb.WriteString(formatNumber(threshold))
	sb.WriteByte(')')
	return &vote{
		fs:        append([]Filter(nil), fs...),
		weights:   append([]float64(nil), weights...),
		threshold: threshold,
		total:     total,
		name:      sb.String(),
	}
}

// Majority returns the default vote threshold for the given weights: more
// than half of the total weight W. For an integral W that is floor(W/2)+1
// (2 of 3 filters, 3 of 4); otherwise it is W/2 itself.
func Majority(weights []float64) float64 {
	w := 0.0
	for _, x := range weights {
		w += x
	}
	if w == math.Trunc(w) {
		return math.Floor(w/2) + 1
	}
	return w / 2
}

func validNumber(x float64) bool {
	return x >= 0 && !math.IsInf(x, 1) // NaN fails x >= 0
}

// formatNumber writes x in the form the expression language reads back:
// plain decimal, no exponent.
func formatNumber(x float64) string {
	return strconv.FormatFloat(x, 'f', -1, 64)
}

type vote struct {
	fs               []Filter
	weights          []float64
	threshold, total float64
	name             string
}

func (v *vote) Name() string { return v.name }

func (v *vote) Score(p *page.Page, active []bool, out []float64) {
	n := len(p.Blocks)
	if n == 0 {
		return
	}
	// out accumulates the votes of the active blocks.
	for i := range out {
		if live(active, i) {
			out[i] = 0
		}
	}
	tmp := make([]float64, n)
	for k, f := range v.fs {
		f.Score(p, active, tmp)
		w := v.weights[k]
		for i, s := range tmp {
			if live(active, i) && kept(s) {
				out[i] += w
			}
		}
	}
	t, total := v.threshold, v.total
	for i, vv := range out {
		if !live(active, i) {
			continue
		}
		out[i] = voteScore(vv, t, total)
	}
}

// voteScore is the mapping documented on Vote.
func voteScore(v, t, total float64) float64 {
	var s float64
	switch {
	case v < t:
		s = 0.5 * v / t // t > v >= 0
	case total > t:
		s = 0.5 + 0.5*(v-t)/(total-t)
	default: // v >= t >= total: only possible with v == total
		s = 1
	}
	return math.Min(1, math.Max(0, s))
}
