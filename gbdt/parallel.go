package gbdt

import (
	"sync"
	"sync/atomic"
)

// parallelFor calls fn(i) for every i in [0, n) on up to workers goroutines.
// Callers make each fn(i) write only its own outputs, so that results do not
// depend on which goroutine ran which item.
func parallelFor(workers, n int, fn func(i int)) {
	if workers > n {
		workers = n
	}
	if workers <= 1 {
		for i := range n {
			fn(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				fn(i)
			}
		})
	}
	wg.Wait()
}

// chunkSize is the number of rows in one item of row-parallel work. It is
// fixed, not derived from the number of workers, so that sums over chunks
// are added in the same order whatever Options.Workers is.
const chunkSize = 8192

// chunks returns the number of chunkSize pieces covering n rows.
func chunks(n int) int { return (n + chunkSize - 1) / chunkSize }

// chunk returns the bounds of piece i of n rows.
func chunk(i, n int) (lo, hi int) {
	return i * chunkSize, min((i+1)*chunkSize, n)
}
