package parallel_test

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/sluice-project/sluice/parallel"
)

// Map works on the items on several goroutines and yields the results in
// the order of the input; a Budget bounds the bytes in flight.
func ExampleMap() {
	pages := []string{"<p>one</p>", "<p>two</p>", "", "<p>four</p>"}
	clean := func(_ context.Context, page string) (string, error) {
		if page == "" {
			return "", fmt.Errorf("empty page")
		}
		return strings.TrimSuffix(strings.TrimPrefix(page, "<p>"), "</p>"), nil
	}
	opts := parallel.Options[string]{
		Jobs:   4,
		Budget: parallel.NewBudget(1 << 20),
		Weight: func(page string) int64 { return int64(len(page)) },
	}
	for text, err := range parallel.Map(context.Background(), slices.Values(pages), clean, opts) {
		if err != nil {
			fmt.Println("error:", err)
			continue
		}
		fmt.Println(text)
	}
	// Output:
	// one
	// two
	// error: empty page
	// four
}
