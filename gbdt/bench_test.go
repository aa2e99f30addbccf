package gbdt

import (
	"context"
	"os"
	"testing"
)

// benchTrain trains default models (100 trees of depth 4) on rows×cols
// synthetic rows and reports the rows trained on per second.
func benchTrain(b *testing.B, rows, cols int) {
	d := noisyData(rows, cols, 1)
	b.ResetTimer()
	for b.Loop() {
		if _, err := Train(context.Background(), d.x, d.cols, d.y, nil, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkTrain trains on 50,000 rows of 50 features.
func BenchmarkTrain(b *testing.B) { benchTrain(b, 50_000, 50) }

// BenchmarkTrainLarge trains on 500,000 rows of 150 features, the size
// Train is meant to handle in well under a minute on two cores. It runs
// only with GBDT_LARGE=1 in the environment.
func BenchmarkTrainLarge(b *testing.B) {
	if os.Getenv("GBDT_LARGE") == "" {
		b.Skip("set GBDT_LARGE=1 to train on 500,000 rows × 150 features")
	}
	benchTrain(b, 500_000, 150)
}

// BenchmarkMargin scores one row with a default model (100 trees of
// depth 4).
func BenchmarkMargin(b *testing.B) {
	d := noisyData(20_000, 20, 2)
	m, err := Train(context.Background(), d.x, d.cols, d.y, nil, Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	var sink float64
	i := 0
	for b.Loop() {
		sink += m.Margin(d.row(i % 1000))
		i++
	}
	_ = sink
}
