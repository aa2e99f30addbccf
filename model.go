package sluice

import (
	_ "embed"
	"sync"

	"github.com/sluice-project/sluice/label"
)

// defaultModel is the labeller trained on all of ../shared/data with
// "sluice train -o model/default.slm" (see README).
//
//go:embed model/default.slm
var defaultModel []byte

// defaultLabeller parses the embedded model once; the Labeller is immutable
// and shared by every Cleaner.
var defaultLabeller = sync.OnceValues(func() (*label.Labeller, error) {
	return label.Load(defaultModel)
})

// DefaultModel returns the embedded labeller, the one a Cleaner uses when
// Options name neither a model nor a filter. It is shared: do not change
// its thresholds.
func DefaultModel() (*label.Labeller, error) { return defaultLabeller() }
