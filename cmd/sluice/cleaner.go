package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/sluice-project/sluice"
)

// newCleaner builds the cleaner of sluice clean and sluice corpus from
// their options and --model FILE; errors name the flag at fault.
func newCleaner(opts sluice.Options, model string) (*sluice.Cleaner, error) {
	if model != "" {
		if opts.Filter != "" {
			return nil, errors.New("--model and --filter are two ways to decide; give one")
		}
		data, err := os.ReadFile(model)
		if err != nil {
			return nil, fmt.Errorf("--model: %w", err)
		}
		opts.Model = data
	}
	cl, err := sluice.New(opts)
	if err != nil {
		what := "--filter"
		switch {
		case opts.Style != "":
			what = "--style"
		case model != "":
			what = "--model " + model
		}
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return cl, nil
}
