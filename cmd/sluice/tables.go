package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/sluice-project/sluice/tableset"
)

// tablesCmd is sluice tables.
type tablesCmd struct {
	cmdIO
	sub, out, sets  string
	n, from, count  int
	folds           int
	jsonTo          string
	seed            uint64
	cells           bool
	tables, cellsTo string // the files: tables and cells
}

func cmdTables(args []string, stdout, stderr io.Writer) int {
	c := &tablesCmd{cmdIO: cmdIO{stdout: stdout, stderr: stderr}}
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		c.sub, args = args[0], args[1:]
	}
	return runCommand("tables", c, args, stdout, stderr)
}

func (c *tablesCmd) flagSet() *flag.FlagSet {
	fs := newFlagSet("tables")
	fs.IntVar(&c.n, "n", 800, "sample: the number of tables")
	fs.Uint64Var(&c.seed, "seed", 1, "sample, cv: the random seed (of the sample, of the folds)")
	fs.IntVar(&c.folds, "folds", 10, "cv: the number of folds")
	fs.StringVar(&c.jsonTo, "json", "", "cv: also write the result as JSON to `FILE`")
	fs.StringVar(&c.sets, "sets", "", "sample: the data sets, comma-separated (default: all)")
	fs.StringVar(&c.out, "o", "", "sample, train: write the tables file or the model to `FILE`")
	fs.IntVar(&c.from, "from", 1, "dump: start at the `K`-th table of the file (from 1)")
	fs.IntVar(&c.count, "count", 0, "dump: print `M` tables (default: all)")
	fs.BoolVar(&c.cells, "cells", false, "dump: add pre-labelled cells for the tables labelled data")
	return fs
}

func (c *tablesCmd) validate(args []string) error {
	switch {
	case c.sub == "sample" && (c.out == "" || len(args) > 0):
		return errors.New("sample: give -o FILE and no arguments")
	case c.sub == "sample" && c.n <= 0:
		return errors.New("sample: --n must be positive")
	case (c.sub == "dump" || c.sub == "check") && (len(args) < 1 || len(args) > 2):
		return fmt.Errorf("%s: give the tables file and, optionally, the cells file", c.sub)
	case (c.sub == "train" || c.sub == "cv") && len(args) != 2, c.sub == "train" && c.out == "":
		return fmt.Errorf("%s: give the tables file and the cells file (train: and -o FILE)", c.sub)
	case c.sub == "cv" && c.folds < 2:
		return errors.New("cv: --folds must be at least 2")
	case c.sub != "sample" && c.sub != "dump" && c.sub != "check" && c.sub != "train" && c.sub != "cv":
		return fmt.Errorf("unknown or missing subcommand %q: want sample, dump, check, train or cv (see sluice tables --help)", c.sub)
	}
	if len(args) > 0 {
		c.tables = args[0]
	}
	if len(args) > 1 {
		c.cellsTo = args[1]
	}
	return nil
}

func (c *tablesCmd) run(ctx context.Context) int {
	src, err := tableset.NewSource()
	if err == nil {
		switch c.sub {
		case "sample":
			opts := tableset.SampleOptions{N: c.n, Seed: c.seed}
			err = tableset.SampleFile(ctx, src, splitList(c.sets), opts, c.out, c.stderr)
		case "dump":
			err = tableset.DumpFile(ctx, src, c.stdout, c.tables, c.cellsTo, c.from, c.count, tableset.DumpOptions{Cells: c.cells})
		case "train":
			_, err = tableset.TrainFile(ctx, src, c.tables, c.cellsTo, c.out, tableset.TrainOptions{})
		case "cv":
			err = tableset.CVFile(ctx, src, c.stdout, c.tables, c.cellsTo, c.jsonTo, c.folds, c.seed, tableset.TrainOptions{})
		case "check":
			var rep *tableset.Report
			if rep, err = tableset.Check(ctx, src, c.tables, c.cellsTo); err == nil {
				rep.Write(c.stdout)
				if len(rep.Problems) > 0 {
					return exitFailed
				}
			}
		}
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "sluice tables %s: %v\n", c.sub, err)
		return exitFailed
	}
	return exitOK
}
