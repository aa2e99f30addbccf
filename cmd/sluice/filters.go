package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/filter"
	"github.com/sluice-project/sluice/filterset"
)

// filtersCmd is sluice filters.
type filtersCmd struct {
	cmdIO
	check bool
	files []string
}

func cmdFilters(args []string, stdout, stderr io.Writer) int {
	return runCommand("filters", &filtersCmd{cmdIO: cmdIO{nil, stdout, stderr}}, args, stdout, stderr)
}

func (c *filtersCmd) flagSet() *flag.FlagSet {
	fs := newFlagSet("filters")
	fs.BoolVar(&c.check, "check", false, "check the filter set files given as arguments")
	return fs
}

// validate needs files with --check; without it arguments are ignored, as
// they always were.
func (c *filtersCmd) validate(args []string) error {
	if c.check && len(args) == 0 {
		return errors.New("--check: no files: give the filter set files to check (.toml or .json)")
	}
	c.files = args
	return nil
}

func (c *filtersCmd) run(context.Context) int {
	if c.check {
		return c.checkFiles()
	}
	c.list()
	return exitOK
}

// checkFiles loads each file and builds its cleaner (which checks a
// model set's model file and style).
func (c *filtersCmd) checkFiles() int {
	code := exitOK
	for _, f := range c.files {
		set, err := filterset.Load(f)
		if err == nil {
			_, err = set.Cleaner(sluice.Options{})
		}
		var list filterset.ErrorList
		var one *filterset.Error
		switch {
		case err == nil:
			fmt.Fprintf(c.stdout, "%s: ok: %s\n", f, set.Summary())
			continue
		case errors.As(err, &list):
			for _, e := range list {
				fmt.Fprintln(c.stderr, e)
			}
		case errors.As(err, &one):
			fmt.Fprintln(c.stderr, one)
		default:
			fmt.Fprintf(c.stderr, "%s: %v\n", f, err)
		}
		code = exitFailed
	}
	return code
}

// list prints the filters with their parameters, the aliases and the
// pipeline syntax.
func (c *filtersCmd) list() {
	fmt.Fprintln(c.stdout, "Filters (use with sluice clean --filter; parameters in a filter set):")
	for _, n := range filter.Names() {
		fmt.Fprintf(c.stdout, "  %s\n", n)
		params, _ := filter.ParamsOf(n)
		for _, p := range params {
			def := filter.FormatParam(p.Default)
			rng := fmt.Sprintf("%s %s to %s", p.Kind, filter.FormatParam(p.Min), filter.FormatParam(p.Max))
			if p.Kind == filter.Bool {
				def, rng = fmt.Sprint(p.Default != 0), "true or false"
			}
			fmt.Fprintf(c.stdout, "      %-16s %-8s %s (%s)\n", p.Name, def, p.Doc, rng)
		}
	}
	aliases := filter.Aliases()
	for _, a := range slices.Sorted(maps.Keys(aliases)) {
		fmt.Fprintf(c.stdout, "  %s (another name of %s)\n", a, aliases[a])
	}
	fmt.Fprintf(c.stdout, `
Pipelines:
  a>b             serial: b scores only what a kept (CombinE's LQF_BTE is lqf>bte)
  union(a,b,...)  a block is kept when any filter keeps it
  inter(a,b,...)  a block is kept when every filter keeps it
  vote(a,b,c:2;2) weighted vote: weights after ':', threshold after ';'

sluice cleans with its trained model unless --filter names a pipeline; the
best heuristic pipeline, used when the model cannot label a page (more than
100,000 blocks), is %s.
Filter sets (a pipeline with parameters, kept in a file): see sluice filters --help
`, sluice.DefaultFilter)
}
