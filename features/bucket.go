package features

import (
	"errors"
	"fmt"
	"math"
	"strconv"
)

// Bucket maps a number to one of a finite set of attribute names by the
// "largest less-or-equal" rule of Victor (seed, section 3.4): with bounds
// 0, 1, 2, 4, 8 the value 5 falls in the bucket whose lower bound is 4 and
// gets the name "key=4". Values below the first bound, and NaN, fall in the
// first bucket.
//
// The names are built once, when the Bucket is made, so that mapping a value
// costs a few comparisons and no allocation. A Bucket is immutable and safe
// for concurrent use.
type Bucket struct {
	key    string
	bounds []float64
	names  []string // names[i] is key + "=" + FormatBound(bounds[i])

	// The range from the first to the last bound is cut into tableCells
	// equal cells; table[k] is the index of the largest bound at or below
	// the start of cell k, so that Index costs a multiplication, a lookup
	// and about one comparison.
	scale float64
	table []uint8
}

// tableCells is the number of cells of a Bucket's lookup table.
const tableCells = 256

// NewBucket returns the bucket mapping of attribute key with the given lower
// bounds, which must be finite, strictly increasing and at least one.
func NewBucket(key string, bounds []float64) (*Bucket, error) {
	if key == "" {
		return nil, errors.New("features: bucket with an empty key")
	}
	if len(bounds) == 0 {
		return nil, fmt.Errorf("features: bucket %q: no bounds; give at least one lower bound, such as 0", key)
	}
	b := &Bucket{key: key, bounds: make([]float64, len(bounds)), names: make([]string, len(bounds))}
	for i, v := range bounds {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("features: bucket %q: bound %d is %v; bounds must be finite", key, i, v)
		}
		if i > 0 && v <= bounds[i-1] {
			return nil, fmt.Errorf("features: bucket %q: bound %d (%s) is not above the one before (%s); list bounds in increasing order without repeats",
				key, i, FormatBound(v), FormatBound(bounds[i-1]))
		}
		b.bounds[i] = v
		b.names[i] = key + "=" + FormatBound(v)
	}
	if n := len(bounds); n > 1 && n <= 256 {
		b.scale = tableCells / (bounds[n-1] - bounds[0])
		if !math.IsInf(b.scale, 0) && b.scale > 0 {
			b.table = make([]uint8, tableCells)
			i := 0
			for k := range b.table {
				start := bounds[0] + float64(k)/b.scale
				for i+1 < n && bounds[i+1] <= start {
					i++
				}
				b.table[k] = uint8(i)
			}
		}
	}
	return b, nil
}

// Key returns the attribute key, the part of every name before "=".
func (b *Bucket) Key() string { return b.key }

// Bounds returns a copy of the lower bounds.
func (b *Bucket) Bounds() []float64 { return append([]float64(nil), b.bounds...) }

// Names returns the attribute names of the buckets, in bound order.
func (b *Bucket) Names() []string { return append([]string(nil), b.names...) }

// Index returns the index of the largest bound less than or equal to v, or 0
// when v is below every bound or NaN.
func (b *Bucket) Index(v float64) int {
	n := len(b.bounds)
	switch {
	case !(v >= b.bounds[0]): // below, or NaN
		return 0
	case v >= b.bounds[n-1]:
		return n - 1
	}
	i := 0
	if b.table != nil {
		k := int((v - b.bounds[0]) * b.scale)
		i = int(b.table[min(k, tableCells-1)])
	}
	for i+1 < n && b.bounds[i+1] <= v {
		i++
	}
	return i
}

// Name returns the attribute name of v's bucket, such as "words=4".
func (b *Bucket) Name(v float64) string { return b.names[b.Index(v)] }

// Int returns the attribute name of the bucket of an integer count.
func (b *Bucket) Int(n int32) string { return b.names[b.Index(float64(n))] }

// FormatBound writes a bound as it appears in attribute names: the shortest
// decimal form, without exponent ("4", "0.05", "10000").
func FormatBound(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
