package crf

import (
	"math"
	"slices"
)

// fbBuf is scratch space for forwardBackward.
type fbBuf struct {
	phi, alpha, beta, c, tmp, m, sv, ev []float64
}

func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

// forwardBackward computes log Z of an n-position lattice with L labels and,
// in p[t*L+y], the marginal probability of label y at position t. If xi is
// not nil, the expected number of transitions i→j is added to xi[i*L+j].
// emit has n*L entries, trans L*L, start and end L each (zeros when the model
// has no bigram weights).
//
// It runs in probability space with per-position scaling (Rabiner's scaled
// forward-backward): every emission row is shifted by its maximum before
// exponentiation and every forward vector normalised to sum 1, so nothing
// overflows or underflows however long the sequence; log Z is the sum of
// the logarithms of the scale factors plus the shifts.
func forwardBackward(n, L int, emit, trans, start, end []float64, b *fbBuf, p, xi []float64) float64 {
	if n == 0 {
		return 0
	}
	b.resize(n, L)
	logZ := b.exponentiate(n, L, emit, trans, start, end)
	logZ = b.forward(n, L, logZ)
	b.backward(n, L, xi)
	alpha, beta := b.alpha, b.beta
	for k := range n * L {
		p[k] = alpha[k] * beta[k]
	}
	return logZ
}

// resize sizes the buffers for n positions and L labels.
func (b *fbBuf) resize(n, L int) {
	b.phi = grow(b.phi, n*L)
	b.alpha = grow(b.alpha, n*L)
	b.beta = grow(b.beta, n*L)
	b.c = grow(b.c, n+1)
	b.tmp = grow(b.tmp, L)
	b.m = grow(b.m, L*L)
	b.sv = grow(b.sv, L)
	b.ev = grow(b.ev, L)
}

// exponentiate fills b.m, b.sv, b.ev and b.phi with the exponentials of
// trans, start, end and the emission rows, each shifted by its maximum, and
// returns the sum of the shifts that log Z must add back.
func (b *fbBuf) exponentiate(n, L int, emit, trans, start, end []float64) float64 {
	phi, M := b.phi, b.m
	logZ := 0.0
	tmax := slices.Max(trans)
	for i, v := range trans {
		M[i] = math.Exp(v - tmax)
	}
	logZ += float64(n-1) * tmax
	smax, emax := slices.Max(start), slices.Max(end)
	for y := range L {
		b.sv[y] = math.Exp(start[y] - smax)
		b.ev[y] = math.Exp(end[y] - emax)
	}
	logZ += smax + emax
	for t := range n {
		row := emit[t*L : t*L+L]
		mx := slices.Max(row)
		logZ += mx
		pr := phi[t*L : t*L+L]
		for y, v := range row {
			pr[y] = math.Exp(v - mx)
		}
	}
	return logZ
}

// forward runs the scaled forward pass into b.alpha, with the scale factors
// in b.c (c[n] the end weights' sum), and returns logZ plus the logarithms
// of the scale factors.
func (b *fbBuf) forward(n, L int, logZ float64) float64 {
	phi, alpha, c, M := b.phi, b.alpha, b.c, b.m
	a0 := alpha[:L]
	sum := 0.0
	for y := range L {
		a0[y] = b.sv[y] * phi[y]
		sum += a0[y]
	}
	c[0] = sum
	scale(a0, 1/sum)
	for t := 1; t < n; t++ {
		prev := alpha[(t-1)*L : t*L]
		cur := alpha[t*L : t*L+L]
		pr := phi[t*L : t*L+L]
		clear(cur)
		for i, ai := range prev {
			if ai == 0 {
				continue
			}
			mi := M[i*L : i*L+L]
			for j := range cur {
				cur[j] += ai * mi[j]
			}
		}
		sum = 0
		for j := range cur {
			cur[j] *= pr[j]
			sum += cur[j]
		}
		c[t] = sum
		scale(cur, 1/sum)
	}
	last := alpha[(n-1)*L : n*L]
	sum = 0
	for y := range L {
		sum += last[y] * b.ev[y]
	}
	c[n] = sum
	for _, ct := range c[:n+1] {
		logZ += math.Log(ct)
	}
	return logZ
}

// backward runs the scaled backward pass into b.beta, with the scale
// factors of forward, and adds the expected transition counts to xi if it
// is not nil.
func (b *fbBuf) backward(n, L int, xi []float64) {
	phi, alpha, beta, c, tmp, M := b.phi, b.alpha, b.beta, b.c, b.tmp, b.m
	bl := beta[(n-1)*L : n*L]
	for y := range L {
		bl[y] = b.ev[y] / c[n]
	}
	for t := n - 2; t >= 0; t-- {
		next := beta[(t+1)*L : (t+2)*L]
		pr := phi[(t+1)*L : (t+2)*L]
		inv := 1 / c[t+1]
		for j := range L {
			tmp[j] = pr[j] * next[j] * inv
		}
		cur := beta[t*L : t*L+L]
		at := alpha[t*L : t*L+L]
		for i := range L {
			mi := M[i*L : i*L+L]
			s := 0.0
			for j, tj := range tmp {
				s += mi[j] * tj
			}
			cur[i] = s
			if xi != nil && at[i] != 0 {
				xr := xi[i*L : i*L+L]
				for j, tj := range tmp {
					xr[j] += at[i] * mi[j] * tj
				}
			}
		}
	}
}

func scale(v []float64, s float64) {
	for i := range v {
		v[i] *= s
	}
}

// viterbi writes the highest-scoring label sequence of the lattice into path
// and returns its score. Ties go to the lower label. back must hold n*L
// entries and delta, prev L each.
func viterbi(n, L int, emit, trans, start, end []float64, back []uint8, delta, prev []float64, path []int) float64 {
	if n == 0 {
		return 0
	}
	for y := range L {
		delta[y] = start[y] + emit[y]
	}
	for t := 1; t < n; t++ {
		copy(prev, delta)
		row := emit[t*L : t*L+L]
		bk := back[t*L : t*L+L]
		for j := range L {
			best, arg := math.Inf(-1), 0
			for i, pi := range prev {
				if s := pi + trans[i*L+j]; s > best {
					best, arg = s, i
				}
			}
			delta[j] = best + row[j]
			bk[j] = uint8(arg)
		}
	}
	best, arg := math.Inf(-1), 0
	for y := range L {
		if s := delta[y] + end[y]; s > best {
			best, arg = s, y
		}
	}
	path[n-1] = arg
	for t := n - 1; t > 0; t-- {
		arg = int(back[t*L+arg])
		path[t-1] = arg
	}
	return best
}

// pathScore returns the unnormalised log score of a label sequence.
func pathScore(L int, emit, trans, start, end []float64, labels []int) float64 {
	n := len(labels)
	if n == 0 {
		return 0
	}
	s := start[labels[0]] + end[labels[n-1]]
	for t, y := range labels {
		s += emit[t*L+y]
		if t > 0 {
			s += trans[labels[t-1]*L+y]
		}
	}
	return s
}
