package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/sluice-project/sluice/crawlsort"
	"github.com/sluice-project/sluice/internal/progress"
)

// sortCmd is sluice sort.
type sortCmd struct {
	cmdIO
	out, mem, partSize string
	force, quiet, json bool
	paths              []string
	opts               crawlsort.Options
}

func cmdSort(args []string, stdout, stderr io.Writer) int {
	return runCommand("sort", &sortCmd{cmdIO: cmdIO{nil, stdout, stderr}}, args, stdout, stderr)
}

func (c *sortCmd) flagSet() *flag.FlagSet {
	fs := newFlagSet("sort")
	fs.StringVar(&c.out, "o", "", "write the sorted parts into `DIR` (required)")
	fs.StringVar(&c.mem, "mem", "256M", "hold at most about `SIZE` of record lines in memory before spilling a sorted run")
	fs.StringVar(&c.partSize, "part-size", "1G", "close a part at the first host boundary after `SIZE` bytes (at any record after twice that)")
	fs.BoolVar(&c.force, "force", false, "start over: remove the sort already in DIR")
	fs.BoolVar(&c.quiet, "q", false, "do not report damaged records one by one")
	fs.BoolVar(&c.json, "json", false, "print the summary as JSON (as in DIR/summary.json)")
	return fs
}

func (c *sortCmd) validate(args []string) (err error) {
	if c.out == "" {
		return errors.New("-o DIR is required: the directory the sorted archives go to")
	}
	if len(args) == 0 {
		return errors.New("no inputs: give WARC or ARC files or directories")
	}
	if c.opts.Memory, err = parseSize(c.mem); err != nil {
		return fmt.Errorf("--mem: %w", err)
	}
	if c.opts.PartBytes, err = parseSize(c.partSize); err != nil {
		return fmt.Errorf("--part-size: %w", err)
	}
	c.paths, err = crawlsort.Discover(args, c.out)
	return err
}

func (c *sortCmd) run(ctx context.Context) int {
	line := progress.NewLine(c.stderr)
	c.opts.Force = c.force
	c.opts.Progress = func(p crawlsort.Progress) { line.Set(p.String()) }
	if !c.quiet {
		c.opts.Report = func(d crawlsort.Damage) { line.Println("sluice sort: " + d.String()) }
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	sum, err := crawlsort.Run(ctx, c.out, c.paths, c.opts)
	line.Finish()
	if errors.Is(err, context.Canceled) {
		err = errors.New("interrupted: run the same command again to resume")
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "sluice sort: %v\n", err)
		return exitFailed
	}
	sum.Write(c.stdout, c.json)
	code := exitOK
	for _, e := range sum.InputErrors {
		fmt.Fprintf(c.stderr, "sluice sort: %s: %s\n", e.Input, e.Error)
		code = exitFailed
	}
	return code
}
