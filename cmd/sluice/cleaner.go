package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/filterset"
	"github.com/sluice-project/sluice/parsertext"
)

// newCleaner builds the cleaner of sluice clean and sluice corpus from
// their options, --model FILE and --filter-set FILE; errors name the flag
// at fault. The collector is held off while it runs (collectLater).
func newCleaner(opts sluice.Options, model, filterSet string) (*sluice.Cleaner, error) {
	defer collectLater()()
	if _, err := regexp.Compile(opts.DropPattern); err != nil {
		return nil, fmt.Errorf("--drop-pattern %q: %w", opts.DropPattern, err)
	}
	if err := sluice.CheckDrop(opts.Drop); err != nil {
		return nil, fmt.Errorf("--drop: %w", err)
	}
	if filterSet != "" {
		return setCleaner(opts, model, filterSet)
	}
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

// collectLater holds the collector off, unless GOGC is set, and returns
// the function that gives it back its setting. Loading the model
// allocates some 10 MB, a few MB at a time, and with the runtime's
// starting heap goal of 4 MB the collector ran three times while the
// heap grew, each time scanning the model loaded so far: about a third
// of the instructions of cleaning one page with sluice clean (125 M
// against 83 M with GOGC=off, cachegrind), and 38 against 26 ms of CPU.
// The load's garbage is collected once, after. Holds may overlap (the
// tests build cleaners at once): the first saves the setting, the last
// gives it back.
func collectLater() (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	gcHold.Lock()
	defer gcHold.Unlock()
	if gcHold.n == 0 {
		gcHold.old = debug.SetGCPercent(-1)
	}
	gcHold.n++
	var once sync.Once
	return func() {
		once.Do(func() {
			gcHold.Lock()
			defer gcHold.Unlock()
			if gcHold.n--; gcHold.n == 0 {
				debug.SetGCPercent(gcHold.old)
			}
		})
	}
}

// gcHold counts collectLater's holds and keeps the setting they replaced.
var gcHold struct {
	sync.Mutex
	n   int
	old int
}

// setCleaner builds the cleaner of --filter-set FILE, which decides alone:
// the set names its pipeline or model and style. A threshold in opts
// (--threshold, --precision, --recall) wins over the set's.
func setCleaner(opts sluice.Options, model, file string) (*sluice.Cleaner, error) {
	for _, c := range []struct {
		given bool
		flag  string
	}{{opts.Filter != "", "--filter"}, {model != "", "--model"}, {opts.Style != "", "--style"}} {
		if c.given {
			return nil, fmt.Errorf("--filter-set and %s: the filter set decides how to clean (its pipeline, or its model and style); give one", c.flag)
		}
	}
	set, err := filterset.Load(file)
	if err != nil {
		return nil, fmt.Errorf("--filter-set: %w", err)
	}
	cl, err := set.Cleaner(opts)
	if err != nil {
		return nil, fmt.Errorf("--filter-set: %w", err)
	}
	return cl, nil
}

// newRemovalLog starts the log of --log-removed FILE; it is refused before
// any cleaning for a format other than parser (no other removes list
// items) or a FILE in no directory.
func newRemovalLog(file, format string) (*parsertext.Log, error) {
	if st, err := os.Stat(filepath.Dir(file)); !strings.EqualFold(format, "parser") {
		return nil, fmt.Errorf("--log-removed %s: only the parser format (--format parser) removes list items", file)
	} else if err != nil || !st.IsDir() {
		return nil, fmt.Errorf("--log-removed %s: no directory %s to write it in", file, filepath.Dir(file))
	}
	return &parsertext.Log{}, nil
}
