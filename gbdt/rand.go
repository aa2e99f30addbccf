package gbdt

import "github.com/sluice-project/sluice/internal/mix"

// splitMix is the SplitMix64 generator: small, fast and fully determined by
// its seed, so that row sampling gives the same rows on every platform and
// Go version.
type splitMix struct{ s uint64 }

// treeRand returns the generator that samples the rows of one tree.
func treeRand(seed uint64, tree int) splitMix {
	r := splitMix{s: seed ^ uint64(tree+1)*0xd1b54a32d192ed03}
	r.next()
	return r
}

// next returns the next 64 random bits.
func (r *splitMix) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	return mix.Mix64(r.s)
}

// float64 returns a uniform number in [0, 1).
func (r *splitMix) float64() float64 {
	return float64(r.next()>>11) / (1 << 53)
}

// sampleRows appends to dst exactly k of the rows in from, chosen uniformly
// without replacement, keeping their order (Knuth's selection sampling,
// algorithm S).
func sampleRows(dst, from []int32, k int, r *splitMix) []int32 {
	need := k
	for i, row := range from {
		if need == 0 {
			break
		}
		if r.float64()*float64(len(from)-i) < float64(need) {
			dst = append(dst, row)
			need--
		}
	}
	return dst
}
