package evaluate

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sluice-project/sluice/dataset"
	"github.com/sluice-project/sluice/score"
)

// This file scores a folder of cleaned outputs against gold pages, for
// sluice eval: ScoreOutputs, and the scores written as a table or JSON.

// OutputFile is one page's scores, by metric name.
type OutputFile struct {
	ID      string                  `json:"id"`
	Missing bool                    `json:"missing,omitempty"`
	Scores  map[string]score.Scores `json:"scores"`
}

// OutputScores are the scores of a folder of outputs: summed over the
// pages, per language, and per page.
type OutputScores struct {
	// Dir is the folder of outputs, Pages the gold pages scored.
	Dir   string
	Pages int
	// Metrics are the metrics, and Sums their scores summed over the pages.
	Metrics []Metric
	Sums    []score.Summary
	// Edit is whether the CleanEval edit score was computed, and EditSums
	// its sums: text only, text and markup, their average.
	Edit                           bool
	EditText, EditMarkup, EditMean float64
	// Files are the scores of each page; Missing counts the pages without
	// an output.
	Files   []OutputFile
	Missing int
	// Langs are the sums by language, by metric.
	Langs map[string][]score.Summary
}

// ScoreOutputs scores the output of every gold page in dir (ID.txt, ID.md
// or ID; a page without one scores as an empty output) with every metric,
// and with the CleanEval edit score when edit is set.
func ScoreOutputs(dir string, pages []*dataset.Page, metrics []Metric, edit bool) *OutputScores {
	res := &OutputScores{Dir: dir, Pages: len(pages), Metrics: metrics, Edit: edit, Sums: make([]score.Summary, len(metrics)), Langs: map[string][]score.Summary{}}
	for _, p := range pages {
		out := &Output{}
		ef := OutputFile{ID: p.ID, Scores: map[string]score.Scores{}}
		if data, ok := readOutput(dir, p.ID); ok {
			out = FromFile(score.ReadGold(data))
		} else {
			ef.Missing = true
			res.Missing++
		}
		if res.Langs[p.Lang] == nil {
			res.Langs[p.Lang] = make([]score.Summary, len(metrics))
		}
		for i, m := range metrics {
			s := m.Score(out, &p.Gold)
			res.Sums[i].Add(s)
			res.Langs[p.Lang][i].Add(s)
			ef.Scores[m.Name] = score.ScoresOf(s)
		}
		if edit {
			e := score.CleanEvalEdit(out.CleanEval, GoldCleanEval(&p.Gold))
			res.EditText += e.TextOnly
			res.EditMarkup += e.TextMarkup
			res.EditMean += e.Average
			ef.Scores["edit"] = score.Scores{Precision: e.TextOnly, Recall: e.TextMarkup, F1: e.Average}
		}
		res.Files = append(res.Files, ef)
	}
	return res
}

// byLanguage reports whether the pages record languages.
func (r *OutputScores) byLanguage() bool {
	_, none := r.Langs[""]
	return len(r.Langs) > 1 || !none
}

// WriteJSON writes the scores as one JSON object, naming the gold; the
// pages' scores with perFile.
func (r *OutputScores) WriteJSON(w io.Writer, gold string, perFile bool) error {
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
		Files   []OutputFile       `json:"files,omitempty"`
	}{Gold: gold, Outputs: r.Dir, Pages: r.Pages, Missing: r.Missing}
	for i, m := range r.Metrics {
		mj := metricJSON{Metric: m.Label(), Report: r.Sums[i].Report()}
		if r.byLanguage() {
			mj.Languages = map[string]score.Report{}
			for l, sums := range r.Langs {
				mj.Languages[l] = sums[i].Report()
			}
		}
		res.Metrics = append(res.Metrics, mj)
	}
	if r.Edit {
		n := float64(max(r.Pages, 1))
		res.Edit = map[string]float64{"text_only": r.EditText / n, "text_markup": r.EditMarkup / n, "average": r.EditMean / n}
	}
	if perFile {
		res.Files = r.Files
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(res)
}

// WriteText writes the scores as a table naming the gold, after a row per
// page (its scores by the metrics of names) with perFile.
func (r *OutputScores) WriteText(w io.Writer, gold string, names []string, perFile bool) {
	if perFile {
		r.writeFiles(w, names)
	}
	fmt.Fprintf(w, "%d pages scored against %s (%d without an output in %s)\n", r.Pages, gold, r.Missing, r.Dir)
	fmt.Fprintf(w, "%-22s %7s %7s %7s   %7s %7s %7s\n", "metric", "P", "R", "F1", "microP", "microR", "microF")
	for i, m := range r.Metrics {
		ma, mi := r.Sums[i].Macro(), r.Sums[i].Micro()
		fmt.Fprintf(w, "%-22s %7.2f %7.2f %7.2f   %7.2f %7.2f %7.2f\n", m.Label(), 100*ma.Precision, 100*ma.Recall, 100*ma.F1, 100*mi.Precision, 100*mi.Recall, 100*mi.F1)
		if !r.byLanguage() {
			continue
		}
		for _, l := range slices.Sorted(maps.Keys(r.Langs)) {
			ma, mi := r.Langs[l][i].Macro(), r.Langs[l][i].Micro()
			fmt.Fprintf(w, "  %-20s %7.2f %7.2f %7.2f   %7.2f %7.2f %7.2f\n", fmt.Sprintf("%s (%d)", cmp.Or(l, "unknown"), r.Langs[l][i].Pages()), 100*ma.Precision, 100*ma.Recall, 100*ma.F1, 100*mi.Precision, 100*mi.Recall, 100*mi.F1)
		}
	}
	if r.Edit {
		n := float64(max(r.Pages, 1))
		fmt.Fprintf(w, "%-22s text only %.2f, text and markup %.2f, average %.2f\n", "edit", 100*r.EditText/n, 100*r.EditMarkup/n, 100*r.EditMean/n)
	}
}

// writeFiles writes a row of scores per page.
func (r *OutputScores) writeFiles(w io.Writer, names []string) {
	fmt.Fprintf(w, "%-24s", "page")
	for _, name := range names {
		fmt.Fprintf(w, " %24s", name+" P/R/F")
	}
	fmt.Fprintln(w)
	for _, f := range r.Files {
		id := f.ID
		if f.Missing {
			id += " (no output)"
		}
		fmt.Fprintf(w, "%-24s", id)
		for _, name := range names {
			s := f.Scores[name]
			fmt.Fprintf(w, "   %6.2f %6.2f %6.2f   ", 100*s.Precision, 100*s.Recall, 100*s.F1)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
}

// LoadGold reads the gold pages of a data set (dataset.Open), or of a
// folder of CleanEval-format gold files (N.txt). Pages that cannot be read
// are returned as errors in bad; the others can be scored.
func LoadGold(name string) (pages []*dataset.Page, kind dataset.Kind, bad []error, err error) {
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
			Gold: dataset.Gold{Raw: raw, Text: FromFile(raw).Text},
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
