package tableset

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/sluice-project/sluice/internal/atomicfile"
	"github.com/sluice-project/sluice/tables"
)

// KittenScore is one line of Kitten's Tables 1 and 2 (seed section 3.1):
// 10-fold cross-validated figures on 614 data and 614 layout leaf tables,
// and on the cells of the 614 data tables. N is the instance count (0
// where the paper gives none).
type KittenScore struct {
	Class                string
	N                    int
	Precision, Recall, F float64
}

// KittenTables and KittenCells are Kitten's Tables 1 and 2, in the order
// printed; the data line of Table 1 is Kitten's own corpus.
var (
	KittenTables = []KittenScore{
		{"data", 0, 0.917, 0.965, 0.951},
		{"layout", 0, 0.979, 0.933, 0.947},
	}
	KittenCells = []KittenScore{
		{"header", 8542, 0.975, 0.967, 0.971},
		{"data", 60648, 0.995, 0.997, 0.996},
		{"neutral", 4468, 0.975, 0.966, 0.971},
		{"thema", 254, 0.874, 0.867, 0.871},
		{"finalImportant", 140, 0.897, 0.732, 0.806},
		{"finalNonImportant", 34, 0.889, 1, 0.941},
	}
)

// WriteMarkdown prints the result as Markdown tables: per class, the
// trained model's and the heuristics' precision, recall and F beside
// Kitten's figures; the tables per stratum of the sample; the cells.
func (r *CVResult) WriteMarkdown(w io.Writer) error {
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, "# Table classifiers: %d-fold cross-validation\n\n", r.Folds)
	fmt.Fprintf(b, "%d tables (%d decided by rule) from %d sites or pages, in folds by site (else page); "+
		"%d data tables with %d labelled cells. Trees: %s.\n\n",
		r.Tables, r.Ruled, r.Groups, r.CellTables, r.Cells, r.Trees)
	fmt.Fprintf(b, "## Tables (Kitten's Table 1)\n\n")
	fmt.Fprintf(b, "| class | n | model P | R | F | heuristic P | R | F | Kitten P | R | F |\n")
	fmt.Fprintf(b, "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, k := range KittenTables {
		m, h := find(r.Model.Tables, k.Class), find(r.Heuristic.Tables, k.Class)
		fmt.Fprintf(b, "| %s | %d | %s | %s | %s |\n", k.Class, m.Support, prf(m), prf(h), kprf(k))
	}
	fmt.Fprintf(b, "\n## Tables by stratum of the sample\n\n")
	fmt.Fprintf(b, "| stratum | class | n | model P | R | F | heuristic P | R | F |\n")
	fmt.Fprintf(b, "|---|---|--:|--:|--:|--:|--:|--:|--:|\n")
	for i, s := range r.Model.Strata {
		for _, k := range KittenTables {
			m, h := find(s.Tables, k.Class), find(r.Heuristic.Strata[i].Tables, k.Class)
			fmt.Fprintf(b, "| %s | %s | %d | %s | %s |\n", s.Name, k.Class, m.Support, prf(m), prf(h))
		}
	}
	fmt.Fprintf(b, "\n## Cells of the data tables (Kitten's Table 2)\n\n")
	fmt.Fprintf(b, "| role | n | model P | R | F | heuristic P | R | F | Kitten n | P | R | F |\n")
	fmt.Fprintf(b, "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, k := range KittenCells {
		m, h := find(r.Model.Cells, k.Class), find(r.Heuristic.Cells, k.Class)
		fmt.Fprintf(b, "| %s | %d | %s | %s | %d | %s |\n", k.Class, m.Support, prf(m), prf(h), k.N, kprf(k))
	}
	fmt.Fprintf(b, "\nEmpty cells are typed by rule in both (neutral, or data for a missing value); P is - when nothing was predicted in the class, R when no cell has it.\n")
	return b.Flush()
}

// find returns the score of class in c.
func find(c Confusion, class string) Score {
	for _, s := range c.Scores {
		if s.Class == class {
			return s
		}
	}
	return Score{Class: class}
}

// prf formats precision, recall and F as three Markdown cells.
func prf(s Score) string {
	p, r, f := "-", "-", "-"
	if s.Predicted > 0 {
		p = fmt.Sprintf("%.3f", s.Precision)
	}
	if s.Support > 0 {
		r = fmt.Sprintf("%.3f", s.Recall)
	}
	if s.Predicted > 0 && s.Support > 0 {
		f = fmt.Sprintf("%.3f", s.F)
	}
	return p + " | " + r + " | " + f
}

func kprf(k KittenScore) string {
	return fmt.Sprintf("%.3f | %.3f | %.3f", k.Precision, k.Recall, k.F)
}

// TrainFile loads the labels (see Load), trains a model (Train) and writes
// it to out, whole or not at all. It returns the model.
func TrainFile(ctx context.Context, src *Source, tablesFile, cellsFile, out string, opt TrainOptions) (*tables.Model, error) {
	exs, err := Load(ctx, src, tablesFile, cellsFile)
	if err != nil {
		return nil, err
	}
	m, err := Train(ctx, exs, opt)
	if err != nil {
		return nil, err
	}
	data, err := m.MarshalBinary()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return nil, err
	}
	return m, atomicfile.WriteFile(out, data, 0o644)
}

// CVFile loads the labels (see Load), cross-validates (CrossValidate),
// prints the Markdown report to w and, when jsonFile is not empty, writes
// the result there as JSON.
func CVFile(ctx context.Context, src *Source, w io.Writer, tablesFile, cellsFile, jsonFile string, folds int, seed uint64, opt TrainOptions) error {
	exs, err := Load(ctx, src, tablesFile, cellsFile)
	if err != nil {
		return err
	}
	res, err := CrossValidate(ctx, exs, folds, seed, opt)
	if err != nil {
		return err
	}
	if jsonFile != "" {
		data, err := json.MarshalIndent(res, "", "  ")
		if err != nil {
			return err
		}
		if err := atomicfile.WriteFile(jsonFile, append(data, '\n'), 0o644); err != nil {
			return err
		}
	}
	return res.WriteMarkdown(w)
}
