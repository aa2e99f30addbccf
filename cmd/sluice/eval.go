package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/sluice-project/sluice/dataset"
	"github.com/sluice-project/sluice/evaluate"
	"github.com/sluice-project/sluice/score"
)

const evalHelp = `
Usage: sluice eval --gold SET|DIR [flags] OUTDIR

Scores the cleaned pages in OUTDIR against a gold standard. The gold is a
data set (a name under ../shared/data or $SLUICE_DATA, or its folder), or a
folder of CleanEval-format gold files (N.txt). Outputs are matched by file
name: the output of page 12 is OUTDIR/12.txt (CleanEval format or plain
text, as "sluice clean -o" writes them); a page with no output scores as an
empty output. A summary is always printed; --per-file adds a row per page.

Metrics: cleaneval (text only, Evert's alignment), cleaneval-labelled,
cleaneval-unlabelled, bow, bow-cjk (bow with every Chinese or Japanese
character a word), lcs, shingle, snippets, rouge-lsum, and edit (the
CleanEval paper's insert/delete distance score); "all" for every one.
Default: the set's main metric (cleaneval for CleanEval sets, bow otherwise).

Examples:
  sluice clean -f cleaneval -o out/ ../shared/data/cleaneval-dev/html
  sluice eval --gold cleaneval-dev out/
  sluice eval --gold cleaneval-dev --metric cleaneval,cleaneval-labelled,edit --per-file out/
  sluice eval --gold wcxb-dev --metric all --json out/ > scores.json
`

// evalFile is one page's scores, for --per-file and --json.
type evalFile struct {
	ID      string                  `json:"id"`
	Missing bool                    `json:"missing,omitempty"`
	Scores  map[string]score.Scores `json:"scores"`
}

func cmdEval(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("eval", evalHelp, stderr)
	gold := fs.String("gold", "", "the gold standard: a data `SET` name or folder, or a folder of CleanEval gold files")
	metricList := fs.String("metric", "", "comma-separated `metrics` (default: the set's main metric; \"all\" for every one)")
	perFile := fs.Bool("per-file", false, "print a row of scores per page")
	asJSON := fs.Bool("json", false, "print the results as JSON")
	args, err := parseInterspersed(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if *gold == "" || len(args) != 1 {
		fmt.Fprintln(stderr, "sluice eval: need --gold and one output folder (see sluice eval --help)")
		return exitUsage
	}
	outDir := args[0]
	if st, err := os.Stat(outDir); err != nil || !st.IsDir() {
		fmt.Fprintf(stderr, "sluice eval: %s: not a folder of outputs\n", outDir)
		return exitUsage
	}
	pages, kind, bad, err := loadGold(*gold)
	if err != nil {
		fmt.Fprintf(stderr, "sluice eval: --gold %s: %v\n", *gold, err)
		return exitUsage
	}
	for _, e := range bad {
		fmt.Fprintf(stderr, "sluice eval: not scored: %v\n", e)
	}
	status := exitOK
	if len(bad) > 0 {
		status = exitFailed
	}
	names := splitList(*metricList)
	switch {
	case len(names) == 0:
		names = []string{evaluate.Main(kind)}
	case len(names) == 1 && names[0] == "all":
		names = append(evaluate.Names(), "edit")
	}
	var metrics []evaluate.Metric
	useEdit := false
	for _, n := range names {
		if n == "edit" {
			useEdit = true
			continue
		}
		m, err := evaluate.Lookup(n)
		if err != nil {
			fmt.Fprintf(stderr, "sluice eval: --metric: %v, edit\n", err)
			return exitUsage
		}
		metrics = append(metrics, m)
	}

	sums := make([]score.Summary, len(metrics))
	var edit struct{ text, markup, avg float64 }
	var files []evalFile
	missing := 0
	for _, p := range pages {
		out := &evaluate.Output{}
		ef := evalFile{ID: p.ID, Scores: map[string]score.Scores{}}
		if data, ok := readOutput(outDir, p.ID); ok {
			out = evaluate.FromFile(score.ReadGold(data))
		} else {
			ef.Missing = true
			missing++
		}
		for i, m := range metrics {
			c := m.Score(out, &p.Gold)
			sums[i].Add(c)
			ef.Scores[m.Name] = score.ScoresOf(c)
		}
		if useEdit {
			e := score.CleanEvalEdit(out.CleanEval, goldCE(p))
			edit.text += e.TextOnly
			edit.markup += e.TextMarkup
			edit.avg += e.Average
			ef.Scores["edit"] = score.Scores{Precision: e.TextOnly, Recall: e.TextMarkup, F1: e.Average}
		}
		files = append(files, ef)
	}
	n := float64(max(len(pages), 1))
	if *asJSON {
		type metricJSON struct {
			Metric string       `json:"metric"`
			Report score.Report `json:"report"`
		}
		res := struct {
			Gold    string             `json:"gold"`
			Outputs string             `json:"outputs"`
			Pages   int                `json:"pages"`
			Missing int                `json:"missing"`
			Metrics []metricJSON       `json:"metrics"`
			Edit    map[string]float64 `json:"edit,omitempty"`
			Files   []evalFile         `json:"files,omitempty"`
		}{Gold: *gold, Outputs: outDir, Pages: len(pages), Missing: missing}
		for i, m := range metrics {
			res.Metrics = append(res.Metrics, metricJSON{m.Name, sums[i].Report()})
		}
		if useEdit {
			res.Edit = map[string]float64{"text_only": edit.text / n, "text_markup": edit.markup / n, "average": edit.avg / n}
		}
		if *perFile {
			res.Files = files
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(res)
		return status
	}
	if *perFile {
		fmt.Fprintf(stdout, "%-24s", "page")
		for _, name := range names {
			fmt.Fprintf(stdout, " %24s", name+" P/R/F")
		}
		fmt.Fprintln(stdout)
		for _, f := range files {
			id := f.ID
			if f.Missing {
				id += " (no output)"
			}
			fmt.Fprintf(stdout, "%-24s", id)
			for _, name := range names {
				s := f.Scores[name]
				fmt.Fprintf(stdout, "   %6.2f %6.2f %6.2f   ", 100*s.Precision, 100*s.Recall, 100*s.F1)
			}
			fmt.Fprintln(stdout)
		}
		fmt.Fprintln(stdout)
	}
	fmt.Fprintf(stdout, "%d pages scored against %s (%d without an output in %s)\n", len(pages), *gold, missing, outDir)
	fmt.Fprintf(stdout, "%-22s %7s %7s %7s   %7s %7s %7s\n", "metric", "P", "R", "F1", "microP", "microR", "microF")
	for i, m := range metrics {
		ma, mi := sums[i].Macro(), sums[i].Micro()
		fmt.Fprintf(stdout, "%-22s %7.2f %7.2f %7.2f   %7.2f %7.2f %7.2f\n", m.Name, 100*ma.Precision, 100*ma.Recall, 100*ma.F1, 100*mi.Precision, 100*mi.Recall, 100*mi.F1)
	}
	if useEdit {
		fmt.Fprintf(stdout, "%-22s text only %.2f, text and markup %.2f, average %.2f\n", "edit", 100*edit.text/n, 100*edit.markup/n, 100*edit.avg/n)
	}
	if len(bad) > 0 {
		fmt.Fprintf(stdout, "%d gold pages could not be read and were not scored\n", len(bad))
	}
	return status
}

// loadGold reads the gold pages of a data set, or of a folder of
// CleanEval-format gold files.
// Pages that cannot be read are returned as errors in bad; the others are
// scored.
func loadGold(name string) (pages []*dataset.Page, kind dataset.Kind, bad []error, err error) {
	set, err := dataset.Open(name)
	if err == nil {
		for p, err := range set.Pages() {
			if err != nil {
				bad = append(bad, err)
				continue
			}
			pages = append(pages, p)
		}
		return pages, set.Kind, bad, nil
	}
	files, gerr := filepath.Glob(filepath.Join(name, "*.txt"))
	if gerr != nil || len(files) == 0 {
		return nil, "", nil, err
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			bad = append(bad, err)
			continue
		}
		raw := score.ReadGold(data)
		pages = append(pages, &dataset.Page{
			ID:   strings.TrimSuffix(filepath.Base(f), ".txt"),
			Gold: dataset.Gold{Raw: raw, Text: evaluate.FromFile(raw).Text},
		})
	}
	return pages, dataset.CleanEval, bad, nil
}

// readOutput finds the output of page id in dir.
func readOutput(dir, id string) ([]byte, bool) {
	for _, ext := range []string{".txt", ".md", ""} {
		if data, err := os.ReadFile(filepath.Join(dir, id+ext)); err == nil {
			return data, true
		}
	}
	return nil, false
}

func goldCE(p *dataset.Page) string {
	return evaluate.GoldCleanEval(&p.Gold)
}
