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

// BenchmarkMargins scores 200 rows of 100 features (a page's blocks) with
// a model of 150 trees of depth 5 (the labeller's trees stage), row by row
// with Margin and tree by tree with Margins; it reports the cost a row.
func BenchmarkMargins(b *testing.B) {
	const rows, width = 200, 100
	d := noisyData(20_000, width, 3)
	m, err := Train(context.Background(), d.x, d.cols, d.y, nil, Options{Trees: 150, Depth: 5, LearningRate: 0.2, Bins: 64, MinLeaf: 5, L2: 1, Subsample: 0.5})
	if err != nil {
		b.Fatal(err)
	}
	x := make([]float32, 0, rows*width)
	for r := range rows {
		x = append(x, d.row(r)...)
	}
	out := make([]float64, rows)
	b.Run("row", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for r := range rows {
				out[r] = m.Margin(x[r*width : (r+1)*width])
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*rows), "ns/row")
	})
	b.Run("tree", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			m.Margins(x, width, out)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*rows), "ns/row")
	})
}
