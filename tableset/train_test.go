package tableset

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/tables"
)

// craftPage is page i of the crafted set: a layout table of two rows of
// links and text, and a data table of prices with a header row, a title
// row on the odd pages and a footnote row on every third.
func craftPage(i int) string {
	var b strings.Builder
	b.WriteString("<html><head><title>Shop</title></head><body>\n")
	fmt.Fprintf(&b, "<table><tr><td><a href=\"/\">Home</a></td><td><a href=\"/a%d\">Articles about everything</a></td></tr>"+
		"<tr><td>Welcome to the shop, a long paragraph of text about us %d.</td><td><a href=\"/c\">Contact</a></td></tr></table>\n", i, i)
	b.WriteString("<p>Our prices for this season, all of them.</p>\n<table>")
	if i%2 == 1 {
		b.WriteString("<tr><td colspan=\"3\">Price list of the season</td></tr>")
	}
	b.WriteString("<tr><th>Item</th><th>Size</th><th>Price</th></tr>")
	for r := range 3 + i%3 {
		fmt.Fprintf(&b, "<tr><td>Item %d</td><td>%d cm</td><td>%d.%02d</td></tr>", r, 10+r*i, 3+r, 10*i%100)
	}
	if i%3 == 0 {
		b.WriteString("<tr><td colspan=\"3\">* all prices include the tax of the country of delivery</td></tr>")
	}
	b.WriteString("</table>\n<p>Prices change often.</p></body></html>\n")
	return b.String()
}

// craftSet writes n crafted pages as set "craft" under a temporary folder
// and returns a Source over it and the tables file labelling each page's
// layout table and data table.
func craftSet(t *testing.T, n int) (*Source, string) {
	t.Helper()
	dir := t.TempDir()
	var labels strings.Builder
	for i := range n {
		id := fmt.Sprintf("p%02d", i)
		for sub, text := range map[string]string{"html/" + id + ".html": craftPage(i), "ann/" + id + ".ann": "[p] Prices change often.\n"} {
			path := filepath.Join(dir, "craft", sub)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		fmt.Fprintf(&labels, "craft\t%s\t0\tlayout\ncraft\t%s\t1\tdata\n", id, id)
	}
	src, err := NewDirSource(dir)
	if err != nil {
		t.Fatal(err)
	}
	return src, writeFile(t, "tables.tsv", labels.String())
}

// withHeuristicCells labels the cells of the data tables of exs with the
// heuristic's roles, and returns them as cell labels too.
func withHeuristicCells(exs []Example) []CellLabel {
	var all []CellLabel
	for i := range exs {
		ex := &exs[i]
		if ex.Label != LabelData {
			continue
		}
		for j, r := range tables.HeuristicCells(ex.Page, ex.Table) {
			c := ex.Table.Cells[j]
			ex.Cells = append(ex.Cells, CellLabel{Ref: ex.Ref, Row: int(c.Row), Col: int(c.Col), Role: r})
		}
		all = append(all, ex.Cells...)
	}
	return all
}

// craftExamples loads n crafted pages with heuristic cell labels.
func craftExamples(t *testing.T, n int) ([]Example, []CellLabel) {
	t.Helper()
	src, tf := craftSet(t, n)
	exs, err := Load(context.Background(), src, tf, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(exs) != 2*n {
		t.Fatalf("%d examples of %d pages, want 2 a page", len(exs), n)
	}
	return exs, withHeuristicCells(exs)
}

func TestTrain(t *testing.T) {
	ctx := context.Background()
	exs, _ := craftExamples(t, 8)
	m, err := Train(ctx, exs, TrainOptions{})
	if err != nil {
		t.Fatal(err)
	}
	roles := map[tables.Role]bool{}
	for _, ex := range exs {
		want := tables.Layout
		if ex.Label == LabelData {
			want = tables.Data
		}
		if got := m.Kind(ex.Page, ex.Table); got != want {
			t.Errorf("%s: %v, want %v (a training table)", ex.Ref, got, want)
		}
		for j, r := range m.Cells(ex.Page, ex.Table) {
			if j < len(ex.Cells) && r != ex.Cells[j].Role {
				t.Errorf("%s cell [%d,%d]: %v, want %v (a training cell)", ex.Ref, ex.Cells[j].Row, ex.Cells[j].Col, r, ex.Cells[j].Role)
			}
			roles[r] = true
		}
	}
	if !roles[tables.Header] || !roles[tables.DataCell] || !roles[tables.Thema] || !roles[tables.FinalImportant] {
		t.Errorf("the roles given %v lack some of header, data, thema, finalImportant", roles)
	}
	a, _ := m.MarshalBinary()
	m2, err := Train(ctx, exs, TrainOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := m2.MarshalBinary(); !bytes.Equal(a, b) {
		t.Error("two trainings on the same examples gave two models")
	}
	if b, _ := mustTrain(t, exs, TrainOptions{GBDT: DefaultGBDT}).MarshalBinary(); !bytes.Equal(a, b) {
		t.Error("the zero TrainOptions are not DefaultGBDT")
	}
}

func mustTrain(t *testing.T, exs []Example, opt TrainOptions) *tables.Model {
	t.Helper()
	m, err := Train(context.Background(), exs, opt)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestTrainFileRoundTrip(t *testing.T) {
	ctx := context.Background()
	src, tf := craftSet(t, 6)
	exs, err := Load(ctx, src, tf, "")
	if err != nil {
		t.Fatal(err)
	}
	var cells bytes.Buffer
	if err := WriteCells(&cells, withHeuristicCells(exs)); err != nil {
		t.Fatal(err)
	}
	cf := writeFile(t, "cells.tsv", cells.String())
	out := filepath.Join(t.TempDir(), "tables.model")
	m, err := TrainFile(ctx, src, tf, cf, out, TrainOptions{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	back, err := tables.UnmarshalModel(data)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := back.MarshalBinary()
	if !bytes.Equal(data, again) {
		t.Error("the model read back marshals to other bytes")
	}
	for _, ex := range exs {
		if a, b := m.Kind(ex.Page, ex.Table), back.Kind(ex.Page, ex.Table); a != b {
			t.Errorf("%s: %v before the file, %v after", ex.Ref, a, b)
		}
		if a, b := m.Cells(ex.Page, ex.Table), back.Cells(ex.Page, ex.Table); !reflect.DeepEqual(a, b) {
			t.Errorf("%s: cells %v before the file, %v after", ex.Ref, a, b)
		}
	}
}

func TestTrainErrors(t *testing.T) {
	ctx := context.Background()
	exs, _ := craftExamples(t, 4)
	var layout, noCells []Example
	for _, ex := range exs {
		if ex.Label == LabelLayout {
			layout = append(layout, ex)
		}
		ex.Cells = nil
		noCells = append(noCells, ex)
	}
	for _, c := range []struct {
		name string
		exs  []Example
		want string
	}{
		{"no labelled tables", nil, "0 tables labelled data and 0 layout"},
		{"only layout", layout, "0 tables labelled data and 4 layout"},
		{"no cells", noCells, "no data table has its cells labelled"},
	} {
		_, err := Train(ctx, c.exs, TrainOptions{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
	if _, err := Train(ctx, noCells, TrainOptions{}); !errors.Is(err, ErrNoCells) {
		t.Errorf("no cells: %v, want ErrNoCells", err)
	}
	bad := DefaultGBDT
	bad.Trees = -1
	if _, err := Train(ctx, exs, TrainOptions{GBDT: bad}); err == nil || !strings.Contains(err.Error(), "Options.Trees") {
		t.Errorf("bad options: %v, want gbdt's error", err)
	}
}

func TestCrossValidate(t *testing.T) {
	ctx := context.Background()
	exs, cells := craftExamples(t, 9)
	res, err := CrossValidate(ctx, exs, 4, 1, TrainOptions{})
	if err != nil {
		t.Fatal(err)
	}
	again, err := CrossValidate(ctx, exs, 4, 1, TrainOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(res, again) {
		t.Error("two runs with the same seed differ")
	}
	if res.Folds != 4 || res.Groups != 9 || res.Tables != 18 || res.CellTables != 9 || res.Cells != len(cells) {
		t.Errorf("folds %d, groups %d, tables %d, cell tables %d, cells %d; want 4, 9, 18, 9, %d",
			res.Folds, res.Groups, res.Tables, res.CellTables, res.Cells, len(cells))
	}
	// Every held-out table and cell counted once, in both evaluations; the
	// cell labels are the heuristic's own, so it scores 1 on all of them.
	for _, e := range []Eval{res.Model, res.Heuristic} {
		data, layout := find(e.Tables, "data"), find(e.Tables, "layout")
		s0, s1 := e.Strata[0].Tables.Scores, e.Strata[1].Tables.Scores
		if data.Support != 9 || layout.Support != 9 || s0[0].Support+s0[1].Support+s1[0].Support+s1[1].Support != 18 {
			t.Errorf("table counts: data %d, layout %d, strata %v %v", data.Support, layout.Support, s0, s1)
		}
		n := 0
		for _, s := range e.Cells.Scores {
			n += s.Support
		}
		if n != len(cells) {
			t.Errorf("%d cells counted, want %d", n, len(cells))
		}
	}
	for _, s := range res.Heuristic.Cells.Scores {
		if s.Support > 0 && s.F != 1 {
			t.Errorf("heuristic on its own labels: %+v, want F 1", s)
		}
	}
	if f := find(res.Model.Tables, "data").F; f < 0.9 {
		t.Errorf("model data F %.3f on crafted tables, want at least 0.9", f)
	}
	var md bytes.Buffer
	if err := res.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	d := find(res.Model.Tables, "data")
	for _, want := range []string{
		"# Table classifiers: 4-fold cross-validation",
		fmt.Sprintf("| data | 9 | %.3f | %.3f | %.3f |", d.Precision, d.Recall, d.F),
		"| 0.917 | 0.965 | 0.951 |",
		"| DataScore >= 0.3 | data |",
		"| 8542 | 0.975 | 0.967 | 0.971 |",
		"100 trees, depth 2, learning rate 0.1, min leaf 0.1, seed 1",
	} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, md.String())
		}
	}
}

func TestCrossValidateErrors(t *testing.T) {
	ctx := context.Background()
	exs, _ := craftExamples(t, 3)
	if _, err := CrossValidate(ctx, exs[:2], 10, 1, TrainOptions{}); err == nil || !strings.Contains(err.Error(), "from 1 site or page") {
		t.Errorf("one page: %v, want an error saying cross-validation needs 2", err)
	}
	if _, err := CrossValidate(ctx, exs, 1, 1, TrainOptions{}); err == nil || !strings.Contains(err.Error(), "1 folds") {
		t.Errorf("1 fold: %v", err)
	}
	// Three pages, ten folds asked: three folds; a fold whose training
	// part lacks a class says which fold.
	res, err := CrossValidate(ctx, exs, 10, 1, TrainOptions{})
	if err != nil || res.Folds != 3 {
		t.Errorf("3 pages: %v folds, err %v; want 3", res, err)
	}
	var lone []Example
	for _, ex := range exs {
		if ex.Ref.Page == "p00" || ex.Label == LabelData { // p00's the only layout table
			lone = append(lone, ex)
		}
	}
	if _, err := CrossValidate(ctx, lone, 2, 1, TrainOptions{}); err == nil || !strings.Contains(err.Error(), "fold ") {
		t.Errorf("a fold without layout tables to train on: %v", err)
	}
}

func TestAssignFolds(t *testing.T) {
	var ps []prepared
	add := func(site, page string, n int) {
		for i := range n {
			ex := &Example{TableLabel: TableLabel{Ref: Ref{Set: "s", Page: page, Table: i}}, Site: site}
			ps = append(ps, prepared{ex: ex})
		}
	}
	add("a.com", "1", 3)
	add("a.com", "2", 2) // same site as page 1: same fold
	add("", "3", 2)
	add("", "4", 1)
	add("b.org", "5", 1)
	add("", "6", 3)
	fold, groups := assignFolds(ps, 3, 7)
	if groups != 5 {
		t.Errorf("%d groups, want 5 (sites a.com and b.org, pages 3, 4, 6)", groups)
	}
	size := make([]int, 3)
	for i, p := range ps {
		size[fold[i]]++
		for j, q := range ps {
			samePage := p.ex.Ref.Page == q.ex.Ref.Page
			if (samePage || p.ex.Site != "" && p.ex.Site == q.ex.Site) && fold[i] != fold[j] {
				t.Errorf("tables %d and %d of one group in folds %d and %d", i, j, fold[i], fold[j])
			}
		}
	}
	if slices.Sort(size); !slices.Equal(size, []int{3, 4, 5}) {
		t.Errorf("fold sizes %v, want 3, 4, 5 (groups of 5, 3, 2, 1, 1 tables)", size)
	}
	if again, _ := assignFolds(ps, 3, 7); !reflect.DeepEqual(fold, again) {
		t.Error("the same seed gave other folds")
	}
}
