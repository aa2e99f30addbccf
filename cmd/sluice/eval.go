package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/sluice-project/sluice/dataset"
	"github.com/sluice-project/sluice/evaluate"
	"github.com/sluice-project/sluice/score"
)

// evalCmd is sluice eval: its flags, and what validate makes of them.
type evalCmd struct {
	cmdIO
	gold, metricList string
	perFile, asJSON  bool
	cjkWords         bool

	outDir  string
	pages   []*dataset.Page
	bad     []error // gold pages that could not be read
	names   []string
	metrics []evaluate.Metric
	useEdit bool // the "edit" metric, which is not an evaluate.Metric
}

func cmdEval(args []string, stdout, stderr io.Writer) int {
	return runCommand("eval", &evalCmd{cmdIO: cmdIO{nil, stdout, stderr}}, args, stdout, stderr)
}

func (c *evalCmd) flagSet() *flag.FlagSet {
	fs := newFlagSet("eval")
	fs.StringVar(&c.gold, "gold", "", "the gold standard: a data `SET` name or folder, or a folder of CleanEval gold files")
	fs.StringVar(&c.metricList, "metric", "", "comma-separated `metrics` (default: the set's main metric; \"all\" for every one)")
	fs.BoolVar(&c.perFile, "per-file", false, "print a row of scores per page")
	fs.BoolVar(&c.asJSON, "json", false, "print the results as JSON")
	fs.BoolVar(&c.cjkWords, "cjk-words", false, "score a run of Han, kana or Thai characters as one word, as the published scorers do")
	return fs
}

// validate reads the gold (reporting the pages that cannot be read) and
// looks the metrics up.
func (c *evalCmd) validate(args []string) error {
	if c.gold == "" || len(args) != 1 {
		return errors.New("need --gold and one output folder (see sluice eval --help)")
	}
	c.outDir = args[0]
	if st, err := os.Stat(c.outDir); err != nil || !st.IsDir() {
		return fmt.Errorf("%s: not a folder of outputs", c.outDir)
	}
	pages, kind, bad, err := evaluate.LoadGold(c.gold)
	if err != nil {
		return fmt.Errorf("--gold %s: %v", c.gold, err)
	}
	c.pages, c.bad = pages, bad
	for _, e := range bad {
		fmt.Fprintf(c.stderr, "sluice eval: not scored: %v\n", e)
	}
	c.names = splitList(c.metricList)
	switch {
	case len(c.names) == 0:
		c.names = []string{evaluate.Main(kind)}
	case len(c.names) == 1 && c.names[0] == "all":
		c.names = append(evaluate.Names(), "edit")
	}
	for _, n := range c.names {
		if n == "edit" {
			c.useEdit = true
			continue
		}
		m, err := evaluate.Lookup(n)
		if err != nil {
			return fmt.Errorf("--metric: %v, edit", err)
		}
		m.CJK = cjkOf(c.cjkWords)
		c.metrics = append(c.metrics, m)
	}
	return nil
}

// run scores the outputs and prints the scores.
func (c *evalCmd) run(context.Context) int {
	res := evaluate.ScoreOutputs(c.outDir, c.pages, c.metrics, c.useEdit)
	if len(c.pages) > 0 && res.Missing == len(c.pages) {
		fmt.Fprintf(c.stderr, "sluice eval: no output in %s is named after a page of %s (ID.txt, ID.md or ID, such as %s.txt): nothing to score\n", c.outDir, c.gold, c.pages[0].ID)
		return exitFailed
	}
	if c.asJSON {
		res.WriteJSON(c.stdout, c.gold, c.perFile)
	} else {
		res.WriteText(c.stdout, c.gold, c.names, c.perFile)
		if len(c.bad) > 0 {
			fmt.Fprintf(c.stdout, "%d gold pages could not be read and were not scored\n", len(c.bad))
		}
	}
	if len(c.bad) > 0 {
		return exitFailed
	}
	return exitOK
}

// cjkOf is the tokenisation --cjk-words asks for.
func cjkOf(words bool) score.CJK {
	if words {
		return score.CJKRuns
	}
	return score.CJKChars
}
