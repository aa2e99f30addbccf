package gbdt

// split is the best way found to divide a node's rows in two.
type split struct {
	gain    float64
	feature int
	bin     uint8 // rows with a value in bins 0 to bin go left
	defLeft bool  // rows with a missing value go left
}

// nodeSums are the totals of a node's rows.
type nodeSums struct {
	g, h float64
	n    int
}

// findSplit returns the split of the node with histograms h and totals s of
// the largest gain
//
//	G_L²/(H_L+λ) + G_R²/(H_R+λ) − G²/(H+λ),
//
// among those leaving at least one row and a hessian sum of minLeaf in each
// child, or ok false if no split has a positive gain. Features are tried in
// order and bins upwards, and only a strictly larger gain replaces the best,
// so ties go to the first.
func (b *binned) findSplit(h histogram, s nodeSums, minLeaf, l2 float64) (best split, ok bool) {
	if s.n < 2 || s.h < 2*minLeaf {
		return best, false
	}
	parent := s.g * s.g / (s.h + l2)
	consider := func(f, t int, gl, hl float64, nl uint32, defLeft bool) {
		nr := uint32(s.n) - nl
		gr, hr := s.g-gl, s.h-hl
		if nl == 0 || nr == 0 || hl < minLeaf || hr < minLeaf {
			return
		}
		gain := gl*gl/(hl+l2) + gr*gr/(hr+l2) - parent
		if gain > best.gain {
			best = split{gain: gain, feature: f, bin: uint8(t), defLeft: defLeft}
			ok = true
		}
	}
	for f := range h {
		hf := &h[f]
		nb := int(b.missing(f)) // bins of values
		miss := hf[nb]
		var gl, hl float64
		var nl uint32
		for t := range nb {
			gl += hf[t].g
			hl += hf[t].h
			nl += hf[t].n
			if miss.n == 0 {
				// No missing values here: send them to the heavier
				// child when predicting.
				if t < nb-1 {
					consider(f, t, gl, hl, nl, 2*hl >= s.h)
				}
				continue
			}
			// Bins up to t, and the missing values or not, go left; with
			// t the last bin, the split is missing against the rest.
			consider(f, t, gl, hl, nl, false)
			if t < nb-1 {
				consider(f, t, gl+miss.g, hl+miss.h, nl+miss.n, true)
			}
		}
	}
	return best, ok
}
