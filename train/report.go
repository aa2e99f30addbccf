package train

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"time"

	"github.com/sluice-project/sluice/label"
)

// Ablated is one cross-validation of an ablation study: the feature group
// left out ("" for none) and the result.
type Ablated struct {
	Off    string    `json:"off,omitempty"`
	Result *CVResult `json:"result"`
}

// WriteReport writes the result of a cross-validation for people: the
// threshold sweep when there is one, then per data set the macro and micro
// scores, the block accuracies, the classes and the page types, and the
// confusion matrix.
func (r *CVResult) WriteReport(w io.Writer) {
	o := &r.Overall
	if len(r.Sweep) > 0 {
		r.writeSweep(w)
	}
	fmt.Fprintf(w, "overall: %d test pages, block accuracy %.2f, content-vs-noise accuracy %.2f, training %s in all\n", o.Pages, 100*o.Accuracy, 100*o.Content, o.TrainTime.Round(time.Second))
	for _, s := range slices.Sorted(maps.Keys(o.Sets)) {
		ss := o.Sets[s]
		fmt.Fprintf(w, "  %-16s %-10s macro P %.2f R %.2f F1 %.2f  micro F1 %.2f", s, ss.Metric, 100*ss.Main.Macro.Precision, 100*ss.Main.Macro.Recall, 100*ss.Main.Macro.F1, 100*ss.Main.Micro.F1)
		if ss.Labelled.Pages > 0 {
			fmt.Fprintf(w, "  labelled F1 %.2f", 100*ss.Labelled.Macro.F1)
		}
		fmt.Fprintf(w, "  blocks: accuracy %.2f, content-vs-noise %.2f\n", 100*ss.Accuracy, 100*ss.Content)
		for _, c := range ss.Classes {
			fmt.Fprintf(w, "    class %d %-16s %7d blocks  kept %.2f%%\n", c.Class, c.Name, c.Blocks, 100*c.Kept)
		}
		for _, t := range slices.Sorted(maps.Keys(ss.PageTypes)) {
			m := ss.PageTypes[t].Macro()
			fmt.Fprintf(w, "    %-14s %4d pages  F1 %.2f\n", t, ss.PageTypes[t].Pages(), 100*m.F1)
		}
	}
	fmt.Fprintln(w, o.Confusion().String())
}

// writeSweep writes the held-out macro F1 of every set at each threshold
// of the grid, and the thresholds chosen.
func (r *CVResult) writeSweep(w io.Writer) {
	sets := slices.Sorted(maps.Keys(r.Sweep[0].F1))
	fmt.Fprintf(w, "threshold sweep (macro F1 of each set's main metric, held-out pages):\n%9s", "threshold")
	for _, s := range sets {
		fmt.Fprintf(w, " %16s", s)
	}
	fmt.Fprintln(w)
	for _, pt := range r.Sweep {
		fmt.Fprintf(w, "%9s", label.FormatThreshold(pt.Threshold))
		for _, s := range sets {
			fmt.Fprintf(w, " %16.2f", 100*pt.F1[s])
		}
		fmt.Fprintln(w)
	}
	fmt.Fprint(w, "thresholds chosen (best mean over the style's sets):")
	for _, st := range slices.Sorted(maps.Keys(r.Thresholds)) {
		fmt.Fprintf(w, " %s %s", st, label.FormatThreshold(r.Thresholds[st]))
	}
	fmt.Fprintln(w)
}

// WriteAblation writes the table of an ablation study: per run, the block
// accuracies and the macro F1 of each set's main metric.
func WriteAblation(w io.Writer, runs []Ablated) {
	if len(runs) == 0 {
		return
	}
	sets := slices.Sorted(maps.Keys(runs[0].Result.Overall.Sets))
	fmt.Fprintf(w, "\nablation (macro F1 of each set's main metric; block accuracy):\n%-12s %8s %8s", "without", "acc", "content")
	for _, s := range sets {
		fmt.Fprintf(w, " %16s", s)
	}
	fmt.Fprintln(w)
	for _, r := range runs {
		name := r.Off
		if name == "" {
			name = "(all on)"
		}
		o := r.Result.Overall
		fmt.Fprintf(w, "%-12s %8.2f %8.2f", name, 100*o.Accuracy, 100*o.Content)
		for _, s := range sets {
			if ss := o.Sets[s]; ss != nil {
				fmt.Fprintf(w, " %16.2f", 100*ss.Main.Macro.F1)
			} else {
				fmt.Fprintf(w, " %16s", "-")
			}
		}
		fmt.Fprintln(w)
	}
}

// HeldOutPage is one line of WriteMarginals: a held-out page and the
// probability of each label (in the order of Labels) for each of its
// blocks.
type HeldOutPage struct {
	Set    string      `json:"set"`
	ID     string      `json:"id"`
	Style  string      `json:"style"`
	Fold   int         `json:"fold"`
	Labels []string    `json:"labels"`
	Blocks [][]float32 `json:"blocks"`
}

// WriteMarginals writes the held-out marginals of a cross-validation of
// pages (res.Marginals), one JSON object a page: set, id, style, fold,
// labels, and per block the probability of each label.
func WriteMarginals(w io.Writer, pages []*TrainPage, res *CVResult) error {
	enc := json.NewEncoder(w)
	for i, p := range pages {
		h := HeldOutPage{Set: p.Data.Set, ID: p.Data.ID, Style: p.Example.Style, Fold: res.Fold[i], Labels: label.Labels}
		if h.Style == "" {
			h.Style = label.MainStyle
		}
		h.Blocks = make([][]float32, len(res.Marginals[i]))
		for b, m := range res.Marginals[i] {
			h.Blocks[b] = make([]float32, len(m))
			for k, v := range m {
				h.Blocks[b][k] = float32(v)
			}
		}
		if err := enc.Encode(h); err != nil {
			return err
		}
	}
	return nil
}

// ReadMarginals reads what WriteMarginals wrote, a page at a time.
func ReadMarginals(r io.Reader) ([]*HeldOutPage, error) {
	var out []*HeldOutPage
	dec := json.NewDecoder(r)
	for dec.More() {
		h := new(HeldOutPage)
		if err := dec.Decode(h); err != nil {
			return nil, fmt.Errorf("held-out page %d: %w", len(out)+1, err)
		}
		out = append(out, h)
	}
	return out, nil
}
