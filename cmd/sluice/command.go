package main

import (
	"context"
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
// it; a usage error is reported as "sluice NAME: error".
func runCommand(name string, c command, args []string, stderr io.Writer) int {
	args, err := parseInterspersed(c.flagSet(), args)
	if err != nil {
		return flagExit(err)
	}
	if err := c.validate(args); err != nil {
		fmt.Fprintf(stderr, "sluice %s: %v\n", name, err)
		return exitUsage
	}
	return c.run(context.Background())
}
