package gbdt

import (
	"math"
	"slices"
)

// sortFloats sorts vals, none of which is NaN, in increasing order (−0
// becoming +0), by a least-significant-digit radix sort on their bits: a few
// linear passes instead of a comparison sort's n log n, which matters when
// every feature's sample of up to edgeSampleRows values is sorted. keys and
// buf are scratch space of at least len(vals) each.
func sortFloats(vals []float32, keys, buf []uint32) {
	n := len(vals)
	if n < 512 {
		slices.Sort(vals)
		return
	}
	keys, buf = keys[:n], buf[:n]
	for i, v := range vals {
		keys[i] = orderKey(v)
	}
	var count [256]int
	for shift := 0; shift < 32; shift += 8 {
		clear(count[:])
		for _, k := range keys {
			count[k>>shift&0xff]++
		}
		if count[keys[0]>>shift&0xff] == n {
			continue // all share this byte
		}
		sum := 0
		for d, c := range count {
			count[d] = sum
			sum += c
		}
		for _, k := range keys {
			d := k >> shift & 0xff
			buf[count[d]] = k
			count[d]++
		}
		keys, buf = buf, keys
	}
	for i, k := range keys {
		vals[i] = fromOrderKey(k)
	}
}

// orderKey maps values other than NaN to integers in the same order: the
// sign bit of positives set, every bit of negatives flipped. −0 maps as +0,
// the two being equal.
func orderKey(v float32) uint32 {
	b := math.Float32bits(v)
	if b == 1<<31 { // −0
		b = 0
	}
	return b ^ (uint32(int32(b)>>31) | 1<<31)
}

// fromOrderKey inverts orderKey.
func fromOrderKey(k uint32) float32 {
	if k>>31 == 1 {
		return math.Float32frombits(k &^ (1 << 31))
	}
	return math.Float32frombits(^k)
}
