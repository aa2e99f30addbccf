package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
)

// command is a subcommand: a struct of its flags, a check of them and the
// run.
type command interface {
	// flagSet returns the command's flag set, bound to its fields.
	flagSet() *flag.FlagSet
	// validate checks the flags and the positional arguments and makes
	// what they name (a cleaner, a renderer...); its error is a usage
	// error.
	validate(args []string) error
	// run does the work and returns the exit code.
	run(ctx context.Context) int
}

// cmdIO are the streams of a command.
type cmdIO struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// runCommand parses the command line of a command, validates it and runs
// it. --help prints the command's help to stdout; a usage error is
// reported on stderr as "sluice NAME: error" and a line pointing to --help.
func runCommand(name string, c command, args []string, stdout, stderr io.Writer) int {
	fs := c.flagSet()
	args, err := parseInterspersed(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fs.SetOutput(stdout)
		fs.Usage()
		return exitOK
	}
	if err == nil {
		err = c.validate(args)
	}
	if err != nil {
		fmt.Fprintf(stderr, "sluice %s: %v\nRun 'sluice %s --help' for its flags and examples.\n", name, err, name)
		return exitUsage
	}
	return c.run(context.Background())
}
