package gbdt_test

import (
	"context"
	"fmt"
	"log"
	"math"

	"github.com/sluice-project/sluice/gbdt"
)

func Example() {
	// Two features; the label is 1 when exactly one of them is positive, or
	// when the first is missing.
	var x []float32
	var y []float64
	for i := range 400 {
		a, b := float32(i%20)-9.5, float32(i/20)-9.5
		label := 0.0
		if (a > 0) != (b > 0) {
			label = 1
		}
		if i%10 == 0 {
			a, label = float32(math.NaN()), 1
		}
		x = append(x, a, b)
		y = append(y, label)
	}
	m, err := gbdt.Train(context.Background(), x, 2, y, nil, gbdt.Options{Trees: 50, Depth: 3, LearningRate: 0.3})
	if err != nil {
		log.Fatal(err)
	}
	for _, row := range [][]float32{{3, 4}, {-3, 4}, {float32(math.NaN()), -4}} {
		fmt.Printf("%v: %.0f\n", row, m.Prob(row))
	}

	// The model saves to bytes and loads back.
	data, err := m.MarshalBinary()
	if err != nil {
		log.Fatal(err)
	}
	m2, err := gbdt.Unmarshal(data)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m2.NumTrees(), "trees of", m2.NumFeatures(), "features, same margin:", m2.Margin([]float32{3, 4}) == m.Margin([]float32{3, 4}))
	// Output:
	// [3 4]: 0
	// [-3 4]: 1
	// [NaN -4]: 1
	// 50 trees of 2 features, same margin: true
}
