package evaluate

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// WriteTable writes a bench result as an aligned text table, one block per
// set: for each pipeline the macro and micro precision, recall and F1 of
// the set's main metric (in percent), pages per second of one core, and the
// pages emptied. With old, a column gives the change of macro F1.
func WriteTable(w io.Writer, r *BenchResult, old *BenchResult) error {
	for _, s := range r.Sets {
		fmt.Fprintf(w, "%s (%d pages, metric %s%s", s.Set, s.Pages, s.Metric, s.languageNote())
		if s.Failed > 0 {
			fmt.Fprintf(w, ", %d rejected by the cleaner", s.Failed)
		}
		if len(s.Unreadable) > 0 {
			fmt.Fprintf(w, ", %d unreadable", len(s.Unreadable))
		}
		fmt.Fprintln(w, ")")
		for _, u := range s.Unreadable {
			fmt.Fprintf(w, "  unreadable: %s\n", u)
		}
		width := len("pipeline")
		for _, p := range s.Pipelines {
			width = max(width, len(p.Pipeline))
		}
		fmt.Fprintf(w, "  %-*s %6s %6s %6s   %6s %6s %6s %9s %7s", width, "pipeline", "P", "R", "F1", "microP", "microR", "microF", "pages/s", "emptied")
		if old != nil {
			fmt.Fprintf(w, " %7s", "ΔF1")
		}
		fmt.Fprintln(w)
		for _, p := range s.Pipelines {
			m, mi := p.Score.Macro, p.Score.Micro
			fmt.Fprintf(w, "  %-*s %6.2f %6.2f %6.2f   %6.2f %6.2f %6.2f %9.0f %7d", width, p.Pipeline,
				100*m.Precision, 100*m.Recall, 100*m.F1, 100*mi.Precision, 100*mi.Recall, 100*mi.F1, p.PagesPerSec, p.Emptied)
			if old != nil {
				if o, ok := old.find(s.Set, p.Pipeline); ok {
					fmt.Fprintf(w, " %+7.2f", 100*(m.F1-o.Score.Macro.F1))
				} else {
					fmt.Fprintf(w, " %7s", "new")
				}
			}
			fmt.Fprintln(w)
			for _, l := range s.Languages {
				if r, ok := p.ByLanguage[l]; ok {
					m, mi := r.Macro, r.Micro
					fmt.Fprintf(w, "  %-*s %6.2f %6.2f %6.2f   %6.2f %6.2f %6.2f\n", width, "  "+langName(l)+fmt.Sprintf(" (%d)", r.Pages),
						100*m.Precision, 100*m.Recall, 100*m.F1, 100*mi.Precision, 100*mi.Recall, 100*mi.F1)
				}
			}
		}
		fmt.Fprintln(w)
	}
	return nil
}

// languageNote says the language of a set of one, the languages of a set
// of several, nothing for a set that records none.
func (s *SetResult) languageNote() string {
	switch len(s.Languages) {
	case 0:
		return ""
	case 1:
		return ", language " + langName(s.Languages[0])
	}
	names := make([]string, len(s.Languages))
	for i, l := range s.Languages {
		names[i] = langName(l)
	}
	return ", languages " + strings.Join(names, " ")
}

func langName(l string) string {
	if l == "" {
		return "unknown"
	}
	return l
}

// WriteMarkdown writes a bench result as Markdown tables.
func WriteMarkdown(w io.Writer, r *BenchResult, old *BenchResult) error {
	fmt.Fprintf(w, "# sluice bench, %s (%s)\n\n", r.Date, r.GoVersion)
	fmt.Fprintln(w, "Macro and micro precision, recall and F1 (percent) of each set's main metric; pages/s of one core.")
	for _, s := range r.Sets {
		fmt.Fprintf(w, "\n## %s (%d pages, %s%s)\n\n", s.Set, s.Pages, s.Metric, s.languageNote())
		fmt.Fprint(w, "| pipeline | P | R | F1 | micro P | micro R | micro F1 | pages/s | emptied |")
		sep := "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
		if old != nil {
			fmt.Fprint(w, " ΔF1 |")
			sep += "---:|"
		}
		fmt.Fprintln(w)
		fmt.Fprintln(w, sep)
		for _, p := range s.Pipelines {
			m, mi := p.Score.Macro, p.Score.Micro
			fmt.Fprintf(w, "| `%s` | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.0f | %d |", p.Pipeline,
				100*m.Precision, 100*m.Recall, 100*m.F1, 100*mi.Precision, 100*mi.Recall, 100*mi.F1, p.PagesPerSec, p.Emptied)
			if old != nil {
				if o, ok := old.find(s.Set, p.Pipeline); ok {
					fmt.Fprintf(w, " %+.2f |", 100*(m.F1-o.Score.Macro.F1))
				} else {
					fmt.Fprint(w, " new |")
				}
			}
			fmt.Fprintln(w)
			for _, l := range s.Languages {
				if r, ok := p.ByLanguage[l]; ok {
					m, mi := r.Macro, r.Micro
					fmt.Fprintf(w, "| %s (%d pages) | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | | |%s\n", langName(l), r.Pages,
						100*m.Precision, 100*m.Recall, 100*m.F1, 100*mi.Precision, 100*mi.Recall, 100*mi.F1, strings.Repeat(" |", boolInt(old != nil)))
				}
			}
		}
	}
	return nil
}

// Best returns, per set, the pipeline with the highest macro F1.
func (r *BenchResult) Best() map[string]PipelineResult {
	out := map[string]PipelineResult{}
	for _, s := range r.Sets {
		for _, p := range s.Pipelines {
			if b, ok := out[s.Set]; !ok || p.Score.Macro.F1 > b.Score.Macro.F1 {
				out[s.Set] = p
			}
		}
	}
	return out
}

func (r *BenchResult) find(set, pipeline string) (PipelineResult, bool) {
	for _, s := range r.Sets {
		if s.Set != set {
			continue
		}
		for _, p := range s.Pipelines {
			if p.Pipeline == pipeline {
				return p, true
			}
		}
	}
	return PipelineResult{}, false
}

// ReadBench reads a bench result written as JSON.
func ReadBench(path string) (*BenchResult, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r BenchResult
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: not a bench result: %w", path, err)
	}
	if len(r.Sets) == 0 && !strings.Contains(string(data), `"sets"`) {
		return nil, fmt.Errorf("%s: not a bench result (no \"sets\")", path)
	}
	return &r, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
