package lbfgs

import (
	"context"
	"errors"
	"math"
	"testing"
)

// rosenbrock is the banana function in n dimensions, minimum 0 at (1, …, 1).
func rosenbrock(x, g []float64) float64 {
	clear(g)
	f := 0.0
	for i := 0; i+1 < len(x); i++ {
		a, b := 1-x[i], x[i+1]-x[i]*x[i]
		f += a*a + 100*b*b
		g[i] += -2*a - 400*b*x[i]
		g[i+1] += 200 * b
	}
	return f
}

func TestMinimize(t *testing.T) {
	x0 := make([]float64, 6)
	iters := 0
	x, err := Minimizer{}.Minimize(context.Background(), x0, rosenbrock, 500, 1e-12, 5, func(iter int, v float64, g []float64) {
		if iter != iters+1 || len(g) != len(x0) || math.IsNaN(v) {
			t.Fatalf("progress %d after %d, value %v, %d gradient values", iter, iters, v, len(g))
		}
		iters = iter
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range x {
		if math.Abs(v-1) > 1e-4 {
			t.Errorf("x[%d] = %v, want 1", i, v)
		}
	}
	if iters == 0 {
		t.Error("progress never called")
	}
	for _, v := range x0 {
		if v != 0 {
			t.Fatal("the starting point was changed")
		}
	}
	// Bounded iterations stop early with the best point so far.
	x, err = Minimizer{Store: 3}.Minimize(context.Background(), x0, rosenbrock, 3, 1e-12, 5, nil)
	if err != nil || len(x) != len(x0) {
		t.Errorf("3 iterations: %v, %v", x, err)
	}
}

func TestMinimizeCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	_, err := Minimizer{}.Minimize(ctx, make([]float64, 4), func(x, g []float64) float64 {
		calls++
		if calls == 3 {
			cancel()
		}
		return rosenbrock(x, g)
	}, 1000, 1e-12, 5, nil)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
}
