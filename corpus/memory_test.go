package corpus

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/sluice-project/sluice/parallel"
)

// TestMemoryBudgetShared runs two runs at once that share one memory
// budget smaller than any page's cost, as a server and a corpus run of one
// process would: each page is then cleaned alone, and both runs still clean
// every page and give the whole budget back.
func TestMemoryBudgetShared(t *testing.T) {
	budget := parallel.NewBudget(1)
	var wg sync.WaitGroup
	sums := make([]*Summary, 2)
	for r := range sums {
		dir := t.TempDir()
		var inputs []string
		for i := range 4 {
			p := filepath.Join(dir, fmt.Sprintf("p%d.html", i))
			if err := os.WriteFile(p, []byte(testPage(200+10*r+i)), 0o644); err != nil {
				t.Fatal(err)
			}
			inputs = append(inputs, p)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sums[r], _ = runCorpus(t, filepath.Join(dir, "out"), inputs, Options{Jobs: 2, MemoryBudget: budget})
		}()
	}
	wg.Wait()
	for r, s := range sums {
		if s == nil || s.Cleaned != 4 {
			t.Fatalf("run %d: %+v, want 4 pages cleaned", r, s)
		}
	}
	if used := budget.Used(); used != 0 {
		t.Errorf("the budget holds %d after both runs", used)
	}
}
