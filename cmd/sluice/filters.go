package main

import (
	"fmt"
	"io"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/filter"
)

func cmdFilters(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("filters", "\nUsage: sluice filters\n\nLists the content filters and the pipeline expression syntax.\n", stderr)
	if _, err := parseInterspersed(fs, args); err != nil {
		return flagExit(err)
	}
	fmt.Fprintln(stdout, "Filters (use with sluice clean --filter):")
	for _, n := range filter.Names() {
		fmt.Fprintf(stdout, "  %s\n", n)
	}
	for a, n := range filter.Aliases() {
		fmt.Fprintf(stdout, "  %s (another name of %s)\n", a, n)
	}
	fmt.Fprintf(stdout, `
Pipelines:
  a>b             serial: b scores only what a kept (CombinE's LQF_BTE is lqf>bte)
  union(a,b,...)  a block is kept when any filter keeps it
  inter(a,b,...)  a block is kept when every filter keeps it
  vote(a,b,c:2;2) weighted vote: weights after ':', threshold after ';'

Default: %s
`, sluice.DefaultFilter)
	return exitOK
}
