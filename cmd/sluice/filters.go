package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/filter"
)

// filtersCmd is sluice filters, which has no flags.
type filtersCmd struct{ cmdIO }

func cmdFilters(args []string, stdout, stderr io.Writer) int {
	return runCommand("filters", &filtersCmd{cmdIO{nil, stdout, stderr}}, args, stderr)
}

func (c *filtersCmd) flagSet() *flag.FlagSet {
	return newFlagSet("filters", "\nUsage: sluice filters\n\nLists the content filters and the pipeline expression syntax.\n", c.stderr)
}

// validate accepts anything: arguments are ignored, as they always were.
func (c *filtersCmd) validate([]string) error { return nil }

// run lists the filters, their aliases and the pipeline syntax.
func (c *filtersCmd) run(context.Context) int {
	fmt.Fprintln(c.stdout, "Filters (use with sluice clean --filter):")
	for _, n := range filter.Names() {
		fmt.Fprintf(c.stdout, "  %s\n", n)
	}
	for a, n := range filter.Aliases() {
		fmt.Fprintf(c.stdout, "  %s (another name of %s)\n", a, n)
	}
	fmt.Fprintf(c.stdout, `
Pipelines:
  a>b             serial: b scores only what a kept (CombinE's LQF_BTE is lqf>bte)
  union(a,b,...)  a block is kept when any filter keeps it
  inter(a,b,...)  a block is kept when every filter keeps it
  vote(a,b,c:2;2) weighted vote: weights after ':', threshold after ';'

Default: %s
`, sluice.DefaultFilter)
	return exitOK
}
