package main

import (
	"fmt"
	"os"
	"runtime/debug"
	"strings"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/inputs"
)

// The --memory flag of the commands that clean many pages (clean, corpus):
// the memory the process may use, which is the Go runtime's soft memory
// limit and the budget pages are admitted to cleaning by, at their
// estimated cost (sluice.CleanCost).

// memoryHelp is the flag's usage line.
const memoryHelp = "use at most about `SIZE` of memory: pages are cleaned at once only while their estimated cost (40 bytes per byte of page) fits, and the Go runtime's soft memory limit is set to it (K, M, G)"

// defaultMemory is the flag's default, corpus.DefaultMemory: under 10^9
// bytes of resident memory on a crawl (docs/sort.md).
const defaultMemory = "900M"

// parseMemory reads the flag's value.
func parseMemory(s string) (int64, error) {
	n, err := parseSize(s)
	if err != nil {
		return 0, fmt.Errorf("--memory: %w", err)
	}
	if n < 256<<20 {
		return 0, fmt.Errorf("--memory %s: give at least 256M (the model and the run's buffers take some 200 MB)", s)
	}
	return n, nil
}

// setMemoryLimit sets the runtime's soft memory limit to n, unless
// GOMEMLIMIT is set.
func setMemoryLimit(n int64) {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(n)
	}
}

// sourceCost is the cleaning cost of an input, from its size on disk (a
// gzip file's content taken as up to eight times it), at most that of a
// page of maxBytes; standard input costs a page of maxBytes.
func sourceCost(s inputs.Source, maxBytes int64) int64 {
	if s.Path == "" {
		return sluice.CleanCost(int(maxBytes))
	}
	fi, err := os.Stat(s.Path)
	if err != nil {
		return sluice.CleanCost(0) // the error is reported when it is opened
	}
	n := fi.Size()
	if strings.HasSuffix(strings.ToLower(s.Path), ".gz") {
		n *= 8
	}
	return sluice.CleanCost(int(min(n, maxBytes)))
}
