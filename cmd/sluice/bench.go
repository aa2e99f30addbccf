package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"

	"github.com/sluice-project/sluice/evaluate"
	"github.com/sluice-project/sluice/internal/progress"
)

// benchCmd is sluice bench: its flags, and what validate makes of them.
type benchCmd struct {
	cmdIO
	filters, sets, jsonOut, mdOut, compare, model string
	jobs, limit                                   int
	cjkWords                                      bool

	old       *evaluate.BenchResult // --compare
	modelData []byte                // --model
}

func cmdBench(args []string, stdout, stderr io.Writer) int {
	return runCommand("bench", &benchCmd{cmdIO: cmdIO{nil, stdout, stderr}}, args, stdout, stderr)
}

func (c *benchCmd) flagSet() *flag.FlagSet {
	fs := newFlagSet("bench")
	fs.StringVar(&c.filters, "filter", "", "comma-separated filter `pipelines` (default: the default pipeline, every filter and CombinE's combinations)")
	fs.StringVar(&c.sets, "sets", "", "comma-separated data `sets` (names under the data folder, or directories; default: all)")
	fs.IntVar(&c.jobs, "j", runtime.GOMAXPROCS(0), "pages cleaned in parallel")
	fs.IntVar(&c.limit, "limit", 0, "at most `N` pages per set (0: all)")
	fs.StringVar(&c.jsonOut, "json", "", "write the result as JSON to `FILE`")
	fs.StringVar(&c.mdOut, "md", "", "write the result as Markdown to `FILE`")
	fs.StringVar(&c.compare, "compare", "", "show the change of macro F1 against an earlier --json `FILE`")
	fs.BoolVar(&c.cjkWords, "cjk-words", false, "score a run of Han, kana or Thai characters as one word, as the published scorers do")
	fs.StringVar(&c.model, "model", "", "run the model pipelines (model, model:STYLE) with the labeller in `FILE` (written by sluice train) instead of the embedded one")
	return fs
}

// validate reads the run to compare with. Positional arguments are
// ignored, as they always were.
func (c *benchCmd) validate([]string) error {
	if err := checkJobs(c.jobs); err != nil {
		return err
	}
	if c.model != "" {
		if c.filters != "" && !slices.ContainsFunc(splitTop(c.filters), isModelPipeline) {
			return fmt.Errorf("--model %s: --filter %q runs no model pipeline (model, or model:STYLE)", c.model, c.filters)
		}
		var err error
		if c.modelData, err = os.ReadFile(c.model); err != nil {
			return fmt.Errorf("--model: %w", err)
		}
	}
	if c.compare == "" {
		return nil
	}
	var err error
	if c.old, err = evaluate.ReadBench(c.compare); err != nil {
		return fmt.Errorf("--compare: %w", err)
	}
	return nil
}

// isModelPipeline reports whether a pipeline of --filter is the trained
// labeller, in its main style or another.
func isModelPipeline(p string) bool {
	return p == evaluate.Model || strings.HasPrefix(p, evaluate.Model+":")
}

// run benches the pipelines and prints and writes the table.
func (c *benchCmd) run(ctx context.Context) int {
	cfg := evaluate.BenchConfig{Pipelines: splitTop(c.filters), Sets: splitList(c.sets), Jobs: c.jobs, Limit: c.limit, CJK: cjkOf(c.cjkWords), Model: c.modelData}
	var bar *progress.Bar
	cfg.Progress = func(set string, done, total int) {
		if bar == nil || bar.Label() != set {
			if bar != nil {
				bar.Finish()
			}
			bar = progress.New(c.stderr, set, total)
		}
		bar.Add(1)
	}
	res, err := evaluate.Bench(ctx, cfg)
	if bar != nil {
		bar.Finish()
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "sluice bench: %v\n", err)
		return exitFailed
	}
	evaluate.WriteTable(c.stdout, res, c.old)
	best := res.Best()
	for _, s := range res.Sets {
		fmt.Fprintf(c.stdout, "best on %s: %s (F1 %.2f)\n", s.Set, best[s.Set].Pipeline, 100*best[s.Set].Score.Macro.F1)
	}
	if c.jsonOut != "" {
		if err := writeJSONFile(c.jsonOut, res); err != nil {
			fmt.Fprintf(c.stderr, "sluice bench: %v\n", err)
			return exitFailed
		}
	}
	if c.mdOut != "" {
		var buf bytes.Buffer
		evaluate.WriteMarkdown(&buf, res, c.old)
		if err := os.WriteFile(c.mdOut, buf.Bytes(), 0o644); err != nil {
			fmt.Fprintf(c.stderr, "sluice bench: %v\n", err)
			return exitFailed
		}
	}
	return exitOK
}

// writeJSONFile writes v to path as indented JSON and a newline, as
// sluice bench --json (and sluice train --json) write their results. The
// values written always encode (a value that does not gives an empty
// line).
func writeJSONFile(path string, v any) error {
	data, _ := json.MarshalIndent(v, "", "  ")
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// splitTop splits a comma-separated list of filter expressions at the
// commas outside parentheses: "union(a,b),c" is two expressions.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || (s[i] == ',' && depth == 0) {
			if x := strings.TrimSpace(s[start:i]); x != "" {
				out = append(out, x)
			}
			start = i + 1
			continue
		}
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
		}
	}
	return out
}
