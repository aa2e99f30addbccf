package gbdt

import "math"

// dataset is a synthetic training set.
type dataset struct {
	x    []float32
	cols int
	y    []float64
}

// row returns row r of the dataset.
func (d *dataset) row(r int) []float32 { return d.x[r*d.cols : (r+1)*d.cols] }

// uniform returns a number in [-1, 1).
func (r *splitMix) uniform() float32 { return float32(2*r.float64() - 1) }

// xorData returns n rows of cols >= 2 uniform features in [-1, 1) labelled
// by the exclusive or of the signs of the first two, which no linear model
// separates.
func xorData(n, cols int, seed uint64) dataset {
	r := splitMix{s: seed}
	d := dataset{x: make([]float32, n*cols), cols: cols, y: make([]float64, n)}
	for i := range n {
		row := d.row(i)
		for j := range row {
			row[j] = r.uniform()
		}
		if (row[0] > 0) != (row[1] > 0) {
			d.y[i] = 1
		}
	}
	return d
}

// noisyData returns n rows of cols features, a label that depends on a
// few of them through a noisy logistic model, and some missing values.
func noisyData(n, cols int, seed uint64) dataset {
	r := splitMix{s: seed}
	d := dataset{x: make([]float32, n*cols), cols: cols, y: make([]float64, n)}
	for i := range n {
		row := d.row(i)
		for j := range row {
			row[j] = r.uniform()
			if r.float64() < 0.05 {
				row[j] = float32(math.NaN())
			}
		}
		s := 2*float64(row[0]) - 3*float64(row[1]*row[1]) + 1
		if cols > 2 && row[2] > 0.5 {
			s += 1.5
		}
		if row[0] != row[0] {
			s = -1
		}
		if r.float64() < sigmoid(s) {
			d.y[i] = 1
		}
	}
	return d
}
