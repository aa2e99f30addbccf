package proxy

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sluice-project/sluice/parallel"
)

// TestMemoryBudget: a page is cleaned only once the shared memory budget
// admits it (here after another holder lets go of all of it), and the
// budget is whole again after.
func TestMemoryBudget(t *testing.T) {
	up := htmlUpstream(t, testPage)
	budget := parallel.NewBudget(1 << 30)
	_, pu := startProxy(t, Config{AllowPrivate: true, Budget: budget})
	if err := budget.Acquire(context.Background(), 1<<30); err != nil {
		t.Fatal(err)
	}
	const hold = 300 * time.Millisecond
	go func() {
		time.Sleep(hold)
		budget.Release(1 << 30)
	}()
	start := time.Now()
	resp, body := get(t, proxyClient(pu), up.URL+"/river")
	if resp.StatusCode != 200 || !strings.Contains(string(body), "sluice-bar") {
		t.Fatalf("status %d, body %.200q: want the page cleaned", resp.StatusCode, body)
	}
	if waited := time.Since(start); waited < hold {
		t.Errorf("the page was cleaned after %v, while the budget was held for %v", waited, hold)
	}
	if used := budget.Used(); used != 0 {
		t.Errorf("the budget holds %d after the request", used)
	}
}
