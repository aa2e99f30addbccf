// Command sluice turns raw web pages into clean, structured text.
//
// Usage:
//
//	sluice clean [flags] [FILE|DIR|-]...
//	sluice normalize [flags] [FILE|DIR|-]...
//	sluice sort -o DIR [flags] INPUT...
//	sluice eval --gold SET|DIR [flags] OUTDIR
//	sluice bench [flags]
//	sluice train [flags] -o MODEL
//	sluice annotate [flags] PAGE.html...
//	sluice tables sample|dump|check [flags] [FILE...]
//	sluice serve [flags]
//	sluice filters
//	sluice version
//
// Run "sluice help" or "sluice clean --help" for details and examples.
package main

import (
	"embed"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/sluice-project/sluice"
)

// Exit codes.
const (
	exitOK     = 0 // every input was cleaned
	exitFailed = 1 // at least one input failed; the others were cleaned
	exitUsage  = 2 // the command line was wrong; nothing was done
)

const usage = `sluice turns raw web pages into clean, structured text.

Usage:
  sluice <command> [flags] [arguments]

Commands:
  clean     clean HTML pages (files, directories, .gz, or stdin)
  normalize write whole pages as well-formed, UTF-8 XHTML 1.0 (strict XML)
  corpus    clean the pages of WARC/ARC archives and directories into a corpus
  sort      sort WARC/ARC records by host, with bounded memory (for corpus --site)
  eval      score cleaned outputs against a gold standard
  bench     run filter pipelines over the evaluation data sets
  train     train the block labeller on data sets with gold standards
  annotate  label pages by hand (Victor's annotation files) to train on
  tables    sample, print and check the annotated table set (data/layout, cell roles)
  serve     serve the HTTP API (POST /v1/clean, metrics, health)
  filters   list the content filters and how to combine them
  version   print the version

Run "sluice <command> --help" for the flags and examples of a command.
`

// version is set at build time with -ldflags "-X main.version=...".
var version = "devel"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run executes one command line and returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "clean":
		return cmdClean(rest, stdin, stdout, stderr)
	case "normalize":
		return cmdNormalize(rest, stdin, stdout, stderr)
	case "corpus":
		return cmdCorpus(rest, stdin, stdout, stderr)
	case "sort":
		return cmdSort(rest, stdout, stderr)
	case "bench":
		return cmdBench(rest, stdout, stderr)
	case "train":
		return cmdTrain(rest, stdout, stderr)
	case "annotate":
		return cmdAnnotate(rest, stdout, stderr)
	case "tables":
		return cmdTables(rest, stdout, stderr)
	case "eval":
		return cmdEval(rest, stdout, stderr)
	case "serve":
		return cmdServe(rest, stdout, stderr)
	case "filters":
		return cmdFilters(rest, stdout, stderr)
	case "version", "--version", "-version":
		if version != "devel" {
			fmt.Fprintln(stdout, "sluice", version)
		} else {
			fmt.Fprintln(stdout, "sluice", sluice.Version())
		}
		return exitOK
	case "help", "-h", "--help", "-help":
		if len(rest) > 0 {
			return run([]string{rest[0], "--help"}, stdin, stdout, stderr)
		}
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "sluice: unknown command %q\nRun 'sluice help' for the commands.\n", cmd)
	return exitUsage
}

// parseInterspersed parses flags that may come before, between or after the
// positional arguments ("sluice clean a.html --format text"), as users
// expect; "--" ends the flags.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// newFlagSet returns a flag set with the command's help text as its
// Usage. It writes nothing itself: runCommand prints --help to standard
// output and reports a flag error in one line and a pointer to --help.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), helpText(name))
		fmt.Fprintln(fs.Output(), "\nFlags:")
		fs.PrintDefaults()
	}
	return fs
}

// The text of each command's --help is help/NAME.txt: usage, what the
// command does, examples and exit status; the flags follow it.
//
//go:embed help/*.txt
var helpFiles embed.FS

// helpText returns the --help text of command name.
func helpText(name string) string {
	b, err := helpFiles.ReadFile("help/" + name + ".txt")
	if err != nil {
		return "Usage: sluice " + name + " [flags]\n" // a command whose text is missing (TestHelpTexts)
	}
	return string(b)
}
