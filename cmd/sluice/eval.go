package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
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
cleaneval-unlabelled, bow, bow-cjk (bow, with characters as words even with
--cjk-words), lcs, shingle, snippets, rouge-lsum, and edit (the
CleanEval paper's insert/delete distance score); "all" for every one.
Default: the set's main metric (cleaneval for CleanEval sets, bow otherwise).
Han, kana and Thai characters are words of their own; --cjk-words scores a
run of them as one word, as the published scorers do. A set whose pages
record languages gets a row per language.

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
	fs := newFlagSet("eval", evalHelp)
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
	pages, kind, bad, err := loadGold(c.gold)
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

// evalScores are the scores of a run: summed over the pages, and per page.
type evalScores struct {
	sums    []score.Summary // per metric
	edit    struct{ text, markup, avg float64 }
	files   []evalFile
	missing int
	langs   map[string][]score.Summary // per language, per metric
}

// run scores the outputs and prints the scores.
func (c *evalCmd) run(context.Context) int {
	res := c.score()
	if len(c.pages) > 0 && res.missing == len(c.pages) {
		fmt.Fprintf(c.stderr, "sluice eval: no output in %s is named after a page of %s (ID.txt, ID.md or ID, such as %s.txt): nothing to score\n", c.outDir, c.gold, c.pages[0].ID)
		return exitFailed
	}
	if c.asJSON {
		c.printJSON(res)
	} else {
		c.printText(res)
	}
	if len(c.bad) > 0 {
		return exitFailed
	}
	return exitOK
}

// score scores the output of every gold page with every metric.
func (c *evalCmd) score() *evalScores {
	res := &evalScores{sums: make([]score.Summary, len(c.metrics)), langs: map[string][]score.Summary{}}
	for _, p := range c.pages {
		out := &evaluate.Output{}
		ef := evalFile{ID: p.ID, Scores: map[string]score.Scores{}}
		if data, ok := readOutput(c.outDir, p.ID); ok {
			out = evaluate.FromFile(score.ReadGold(data))
		} else {
			ef.Missing = true
			res.missing++
		}
		if res.langs[p.Lang] == nil {
			res.langs[p.Lang] = make([]score.Summary, len(c.metrics))
		}
		for i, m := range c.metrics {
			s := m.Score(out, &p.Gold)
			res.sums[i].Add(s)
			res.langs[p.Lang][i].Add(s)
			ef.Scores[m.Name] = score.ScoresOf(s)
		}
		if c.useEdit {
			e := score.CleanEvalEdit(out.CleanEval, goldCE(p))
			res.edit.text += e.TextOnly
			res.edit.markup += e.TextMarkup
			res.edit.avg += e.Average
			ef.Scores["edit"] = score.Scores{Precision: e.TextOnly, Recall: e.TextMarkup, F1: e.Average}
		}
		res.files = append(res.files, ef)
	}
	return res
}

// printJSON prints the scores as one JSON object.
func (c *evalCmd) printJSON(r *evalScores) {
	type metricJSON struct {
		Metric    string                  `json:"metric"`
		Report    score.Report            `json:"report"`
		Languages map[string]score.Report `json:"languages,omitempty"`
	}
	res := struct {
		Gold    string             `json:"gold"`
		Outputs string             `json:"outputs"`
		Pages   int                `json:"pages"`
		Missing int                `json:"missing"`
		Metrics []metricJSON       `json:"metrics"`
		Edit    map[string]float64 `json:"edit,omitempty"`
		Files   []evalFile         `json:"files,omitempty"`
	}{Gold: c.gold, Outputs: c.outDir, Pages: len(c.pages), Missing: r.missing}
	for i, m := range c.metrics {
		mj := metricJSON{Metric: m.Label(), Report: r.sums[i].Report()}
		if _, none := r.langs[""]; len(r.langs) > 1 || !none {
			mj.Languages = map[string]score.Report{}
			for l, sums := range r.langs {
				mj.Languages[l] = sums[i].Report()
			}
		}
		res.Metrics = append(res.Metrics, mj)
	}
	if c.useEdit {
		n := float64(max(len(c.pages), 1))
		res.Edit = map[string]float64{"text_only": r.edit.text / n, "text_markup": r.edit.markup / n, "average": r.edit.avg / n}
	}
	if c.perFile {
		res.Files = r.files
	}
	enc := json.NewEncoder(c.stdout)
	enc.SetIndent("", "  ")
	enc.Encode(res)
}

// printText prints the scores as a table, with a row per page for
// --per-file.
func (c *evalCmd) printText(r *evalScores) {
	w := c.stdout
	if c.perFile {
		fmt.Fprintf(w, "%-24s", "page")
		for _, name := range c.names {
			fmt.Fprintf(w, " %24s", name+" P/R/F")
		}
		fmt.Fprintln(w)
		for _, f := range r.files {
			id := f.ID
			if f.Missing {
				id += " (no output)"
			}
			fmt.Fprintf(w, "%-24s", id)
			for _, name := range c.names {
				s := f.Scores[name]
				fmt.Fprintf(w, "   %6.2f %6.2f %6.2f   ", 100*s.Precision, 100*s.Recall, 100*s.F1)
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "%d pages scored against %s (%d without an output in %s)\n", len(c.pages), c.gold, r.missing, c.outDir)
	fmt.Fprintf(w, "%-22s %7s %7s %7s   %7s %7s %7s\n", "metric", "P", "R", "F1", "microP", "microR", "microF")
	for i, m := range c.metrics {
		ma, mi := r.sums[i].Macro(), r.sums[i].Micro()
		fmt.Fprintf(w, "%-22s %7.2f %7.2f %7.2f   %7.2f %7.2f %7.2f\n", m.Label(), 100*ma.Precision, 100*ma.Recall, 100*ma.F1, 100*mi.Precision, 100*mi.Recall, 100*mi.F1)
		for _, l := range slices.Sorted(maps.Keys(r.langs)) {
			if _, none := r.langs[""]; len(r.langs) > 1 || !none { // the set records languages
				ma, mi := r.langs[l][i].Macro(), r.langs[l][i].Micro()
				fmt.Fprintf(w, "  %-20s %7.2f %7.2f %7.2f   %7.2f %7.2f %7.2f\n", fmt.Sprintf("%s (%d)", cmp.Or(l, "unknown"), r.langs[l][i].Pages()), 100*ma.Precision, 100*ma.Recall, 100*ma.F1, 100*mi.Precision, 100*mi.Recall, 100*mi.F1)
			}
		}
	}
	if c.useEdit {
		n := float64(max(len(c.pages), 1))
		fmt.Fprintf(w, "%-22s text only %.2f, text and markup %.2f, average %.2f\n", "edit", 100*r.edit.text/n, 100*r.edit.markup/n, 100*r.edit.avg/n)
	}
	if len(c.bad) > 0 {
		fmt.Fprintf(w, "%d gold pages could not be read and were not scored\n", len(c.bad))
	}
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

// cjkOf is the tokenisation --cjk-words asks for.
func cjkOf(words bool) score.CJK {
	if words {
		return score.CJKRuns
	}
	return score.CJKChars
}
