package gbdt

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// ranker adds to the log loss a pairwise term within groups of rows (the
// blocks of one page): for every two rows i, j of a group with
// y[i] > y[j], Options.Pairwise · s_g · w[i]·w[j]·(y[i]−y[j]) ·
// log(1+e^−(score[i]−score[j])), where s_g scales the group's pairs to
// the group's total row weight, so that each group weighs as much in the
// pairwise term as in the log loss. The term only asks that a group's
// rows be in the order of their targets, whatever their level, so the log
// loss still sets the level and the scores stay probabilities.
type ranker struct {
	lambda float64
	groups [][]int32 // the active rows of each group with two targets or more, by target descending
	scale  []float64 // s_g of each group
	stride []int     // of each group: every stride-th pair counts in a tree (maxPairs)
	tree   int       // the tree being grown, which picks the pairs of a stride
	extra  []gradPair
}

// maxPairs bounds the pairs of a group that one tree's gradients read:
// a group with more has every stride-th pair of each row counted, stride
// times, a different share in each tree, so that a page of thousands of
// blocks costs no more than a few thousand pairs a tree.
const maxPairs = 4096

// newRanker groups the trainer's active rows by groups[r]; it returns nil
// when lambda is 0.
func newRanker(t *trainer, groups []int32, lambda float64) (*ranker, error) {
	if lambda == 0 {
		return nil, nil
	}
	if !(lambda > 0) || math.IsInf(lambda, 1) {
		return nil, fmt.Errorf("gbdt: Options.Pairwise = %v, want a finite weight >= 0", lambda)
	}
	if len(groups) != len(t.y) {
		return nil, fmt.Errorf("gbdt: Options.Pairwise = %v needs a group for every row: len(groups) = %d, want len(y) = %d", lambda, len(groups), len(t.y))
	}
	byGroup := map[int32][]int32{}
	var ids []int32
	for _, r := range t.active {
		g := groups[r]
		if _, ok := byGroup[g]; !ok {
			ids = append(ids, g)
		}
		byGroup[g] = append(byGroup[g], r)
	}
	k := &ranker{lambda: lambda, extra: make([]gradPair, len(t.y))}
	for _, id := range ids {
		rows := byGroup[id]
		slices.SortStableFunc(rows, func(a, b int32) int { return cmp.Compare(t.y[b], t.y[a]) })
		// The pairs' weight, Σ over a < b of w_a·w_b·(y_a − y_b) in the
		// sorted order (a pair of equal targets adds 0), from the
		// weights and weighted targets of the rows after each.
		var pairs, total, after, afterY float64
		for _, j := range rows {
			total += t.weight(j)
			afterY += t.weight(j) * t.y[j]
		}
		after = total
		n, lo := 0, 0
		for a, i := range rows {
			after -= t.weight(i)
			afterY -= t.weight(i) * t.y[i]
			pairs += t.weight(i) * (t.y[i]*after - afterY)
			lo = lower(t.y, rows, a, lo)
			n += len(rows) - lo
		}
		if pairs > 0 {
			k.groups = append(k.groups, rows)
			k.scale = append(k.scale, total/pairs)
			k.stride = append(k.stride, (n+maxPairs-1)/maxPairs)
		}
	}
	return k, nil
}

// gradients sets k.extra to the pairwise term's gradient and diagonal
// hessian at the trainer's current scores, group by group.
func (k *ranker) gradients(t *trainer, workers int) {
	parallelFor(workers, len(k.groups), func(gi int) {
		rows := k.groups[gi]
		for _, r := range rows {
			k.extra[r] = gradPair{}
		}
		st := k.stride[gi]
		c0 := k.lambda * k.scale[gi] * float64(st)
		lo := 0
		for a, i := range rows {
			lo = lower(t.y, rows, a, lo)
			for b := lo + (a+k.tree)%st; b < len(rows); b += st {
				j := rows[b]
				c := c0 * t.weight(i) * t.weight(j) * (t.y[i] - t.y[j])
				rho := 1 / (1 + math.Exp(t.score[i]-t.score[j])) // σ(−(s_i−s_j))
				h := c * rho * (1 - rho)
				k.extra[i].g -= c * rho
				k.extra[i].h += h
				k.extra[j].g += c * rho
				k.extra[j].h += h
			}
		}
	})
}

// lower returns the first index after a of rows (sorted by target
// descending) whose target is below rows[a]'s, searching from lo, the
// answer for a−1.
func lower(y []float64, rows []int32, a, lo int) int {
	lo = max(lo, a+1)
	for lo < len(rows) && y[rows[lo]] >= y[rows[a]] {
		lo++
	}
	return lo
}
