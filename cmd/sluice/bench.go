package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"encoding/json"

	"github.com/sluice-project/sluice/evaluate"
)

const benchHelp = `
Usage: sluice bench [flags]

Runs filter pipelines over the evaluation data sets (../shared/data, or
$SLUICE_DATA) and prints, per set, the macro and micro precision, recall and
F1 of the set's main metric (CleanEval text-only for the CleanEval sets,
bag-of-words F1 for the others) and the pages per second of one core. Each
page is parsed and segmented once and scored with every pipeline.

Examples:
  sluice bench                                  # every filter on every set
  sluice bench --sets cleaneval-dev,wcxb-dev --filter 'lqf>targetnode,bte,union(dsc,bte)'
  sluice bench --json bench.json --md bench.md  # keep the table
  sluice bench --compare bench.json             # the change since an earlier run
  sluice bench --limit 100 -j 1                 # a quick look, one core
`

func cmdBench(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("bench", benchHelp, stderr)
	filters := fs.String("filter", "", "comma-separated filter `pipelines` (default: the default pipeline, every filter and CombinE's combinations)")
	sets := fs.String("sets", "", "comma-separated data `sets` (names under the data folder, or directories; default: all)")
	jobs := fs.Int("j", runtime.GOMAXPROCS(0), "pages cleaned in parallel")
	limit := fs.Int("limit", 0, "at most `N` pages per set (0: all)")
	jsonOut := fs.String("json", "", "write the result as JSON to `FILE`")
	mdOut := fs.String("md", "", "write the result as Markdown to `FILE`")
	compare := fs.String("compare", "", "show the change of macro F1 against an earlier --json `FILE`")
	if _, err := parseInterspersed(fs, args); err != nil {
		return flagExit(err)
	}
	var old *evaluate.BenchResult
	if *compare != "" {
		var err error
		if old, err = evaluate.ReadBench(*compare); err != nil {
			fmt.Fprintf(stderr, "sluice bench: --compare: %v\n", err)
			return exitUsage
		}
	}
	cfg := evaluate.BenchConfig{Pipelines: splitTop(*filters), Sets: splitList(*sets), Jobs: *jobs, Limit: *limit}
	var bar *progress
	cfg.Progress = func(set string, done, total int) {
		if bar == nil || bar.label != set {
			if bar != nil {
				bar.finish()
			}
			bar = newProgress(stderr, set, total)
		}
		bar.add(1)
	}
	res, err := evaluate.Bench(context.Background(), cfg)
	if bar != nil {
		bar.finish()
	}
	if err != nil {
		fmt.Fprintf(stderr, "sluice bench: %v\n", err)
		return exitFailed
	}
	evaluate.WriteTable(stdout, res, old)
	best := res.Best()
	for _, s := range res.Sets {
		fmt.Fprintf(stdout, "best on %s: %s (F1 %.2f)\n", s.Set, best[s.Set].Pipeline, 100*best[s.Set].Score.Macro.F1)
	}
	if *jsonOut != "" {
		data, _ := json.MarshalIndent(res, "", "  ")
		if err := os.WriteFile(*jsonOut, append(data, '\n'), 0o644); err != nil {
			fmt.Fprintf(stderr, "sluice bench: %v\n", err)
			return exitFailed
		}
	}
	if *mdOut != "" {
		var buf bytes.Buffer
		evaluate.WriteMarkdown(&buf, res, old)
		if err := os.WriteFile(*mdOut, buf.Bytes(), 0o644); err != nil {
			fmt.Fprintf(stderr, "sluice bench: %v\n", err)
			return exitFailed
		}
	}
	return exitOK
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
