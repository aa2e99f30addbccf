package main

import (
	"fmt"
	"io"

	"github.com/sluice-project/sluice/inputs"
)

// maxRead caps what is read of one input, compressed or not, so that a
// gzip bomb or an endless stream cannot exhaust memory.
const maxRead = 256 << 20

// source is one input file; "" as path reads stdin.
type source struct {
	name string // as shown in messages: the path, or "-" for stdin
	path string // file to open; "" for stdin
}

// read returns the bytes of a source, decompressing gzip (by content, not
// by name): inputs.Read with the cap of maxRead.
func read(s source, stdin io.Reader) ([]byte, error) { return inputs.Read(s.path, stdin, maxRead) }

// naturalLess orders names with numbers by their value: 2.html before
// 10.html.
func naturalLess(a, b string) bool { return inputs.NaturalLess(a, b) }

// checkJobs is the check of a -j flag: at least one.
func checkJobs(n int) error {
	if n < 1 {
		return fmt.Errorf("-j %d: the number of jobs in parallel must be at least 1", n)
	}
	return nil
}
