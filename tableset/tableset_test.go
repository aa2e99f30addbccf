package tableset

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/tables"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func TestRoundTrip(t *testing.T) {
	ls := []TableLabel{
		{Ref: Ref{"tiny", "shop", 1}, Label: LabelData, Note: "console\tspecs"},
		{Ref: Ref{"tiny", "shop", 0}, Label: LabelLayout},
		{Ref: Ref{"tiny", "other", 0}, Label: LabelUnknown},
	}
	var b bytes.Buffer
	if err := WriteTables(&b, ls); err != nil {
		t.Fatal(err)
	}
	got, err := ParseTables(&b, "t.tsv")
	if err != nil {
		t.Fatal(err)
	}
	ls[0].Note = "console specs" // a tab in a note is written as a space
	for i := range got {
		if got[i].Line != i+2 {
			t.Errorf("label %d: line %d, want %d", i, got[i].Line, i+2)
		}
		got[i].Line = 0
	}
	if !reflect.DeepEqual(got, ls) {
		t.Errorf("tables round trip:\n got %+v\nwant %+v", got, ls)
	}
	cs := []CellLabel{
		{Ref: Ref{"tiny", "shop", 1}, Row: 0, Col: 1, Role: tables.Header},
		{Ref: Ref{"tiny", "shop", 1}, Row: 3, Col: 0, Role: tables.FinalImportant},
	}
	b.Reset()
	if err := WriteCells(&b, cs); err != nil {
		t.Fatal(err)
	}
	gotC, err := ParseCells(&b, "c.tsv")
	if err != nil {
		t.Fatal(err)
	}
	for i := range gotC {
		gotC[i].Line = 0
	}
	if !reflect.DeepEqual(gotC, cs) {
		t.Errorf("cells round trip:\n got %+v\nwant %+v", gotC, cs)
	}
}

func TestParseErrors(t *testing.T) {
	tablesCases := []struct{ in, want string }{
		{"# c\ns\tp\t0\n", "t.tsv:2: 3 fields"},
		{"s\tp\tx\tdata\n", `t.tsv:1: table index "x"`},
		{"s\tp\t0\tdata\n\ns\tp\t-1\tdata\n", "t.tsv:3: table index"},
		{"s\tp\t0\tDATA\n", `t.tsv:1: label "DATA": want data, layout or ?`},
		{"s\tp\t0\tdata\ns\tp\t1\tlayout\ns\tp\t0\t?\n", "t.tsv:3: s/p table 0 is already labelled at line 1"},
		{"\tp\t0\tdata\n", "t.tsv:1: empty set or page"},
		{"\ufeff# bom\ns p 0 data\n", "t.tsv:2: no tabs"},
	}
	for _, c := range tablesCases {
		_, err := ParseTables(strings.NewReader(c.in), "t.tsv")
		var e *Error
		if !errors.As(err, &e) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("ParseTables(%q): %v, want an *Error starting %q", c.in, err, c.want)
		}
	}
	cellsCases := []struct{ in, want string }{
		{"s\tp\t0\t1\t2\n", "c.tsv:1: 5 fields"},
		{"s\tp\t0\t1\tb\tdata\n", `c.tsv:1: row "1", col "b"`},
		{"s\tp\t0\t1\t2\ttitle\n", `c.tsv:1: role "title": want one of neutral, data, header, thema, finalImportant, finalNonImportant`},
		{"s\tp\t0\t1\t2\tdata\ns\tp\t0\t1\t2\theader\n", "c.tsv:2: cell [1,2] of s/p table 0 is already labelled at line 1"},
	}
	for _, c := range cellsCases {
		_, err := ParseCells(strings.NewReader(c.in), "c.tsv")
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("ParseCells(%q): %v, want an error starting %q", c.in, err, c.want)
		}
	}
}

func TestRoleNames(t *testing.T) {
	for r := tables.Neutral; r <= tables.FinalNonImportant; r++ {
		if got, ok := ParseRole(r.String()); !ok || got != r {
			t.Errorf("ParseRole(%q) = %v, %v", r.String(), got, ok)
		}
	}
}

// candidates makes n pages of set s with k tables each, the first d of
// each page scored data-ish.
func candidates(s string, n, k, d int) []Candidate {
	var out []Candidate
	for p := range n {
		for t := range k {
			score := -1.0
			if t < d {
				score = 1
			}
			out = append(out, Candidate{Ref: Ref{s, string(rune('a'+p%26)) + strings.Repeat("x", p/26), t}, Order: p, Score: score})
		}
	}
	return out
}

func TestSample(t *testing.T) {
	cands := candidates("big", 200, 6, 1)
	for _, s := range []string{"s1", "s2", "s3"} {
		cands = append(cands, candidates(s, 30, 4, 2)...)
	}
	o := SampleOptions{N: 100, Seed: 7}
	a, st := Sample(cands, o)
	b, _ := Sample(cands, o)
	if !reflect.DeepEqual(a, b) {
		t.Error("the same seed gave two samples")
	}
	if c, _ := Sample(cands, SampleOptions{N: 100, Seed: 8}); reflect.DeepEqual(a, c) {
		t.Error("two seeds gave the same sample")
	}
	if len(a) != 100 || st.Chosen[""] != 100 {
		t.Fatalf("%d tables, want 100", len(a))
	}
	if st.ChosenDataIsh[""] != 40 {
		t.Errorf("%d data-ish tables, want 40", st.ChosenDataIsh[""])
	}
	if st.Chosen["big"]-st.ChosenDataIsh["big"] > 21 {
		t.Errorf("set big has %d of the 60 others, want at most 21 (SetShare)", st.Chosen["big"]-st.ChosenDataIsh["big"])
	}
	perPage := map[[2]string]int{}
	for i, l := range a {
		if l.Label != LabelUnknown {
			t.Errorf("label %q, want ?", l.Label)
		}
		if perPage[[2]string{l.Set, l.Page}]++; perPage[[2]string{l.Set, l.Page}] > 3 {
			t.Errorf("more than 3 tables from %s/%s", l.Set, l.Page)
		}
		if i > 0 && a[i-1].Set == l.Set && a[i-1].Page == l.Page && a[i-1].Table >= l.Table {
			t.Errorf("not in table order at %d", i)
		}
	}
	// Fewer tables than asked: all of them, three a page.
	if all, _ := Sample(cands[:12], o); len(all) != 6 {
		t.Errorf("%d tables of 2 pages, want 6", len(all))
	}
}

// tinySource is a Source over testdata/sets.
func tinySource(t *testing.T) *Source {
	t.Helper()
	src, err := NewDirSource(filepath.Join("testdata", "sets"))
	if err != nil {
		t.Fatal(err)
	}
	return src
}

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestDump(t *testing.T) {
	tf := writeFile(t, "tables.tsv", "tiny\tshop\t1\tdata\ntiny\tshop\t0\t?\ntiny\tshop\t7\tlayout\n")
	var b bytes.Buffer
	err := DumpFile(context.Background(), tinySource(t), &b, tf, "", 1, 0, DumpOptions{Cells: true, Cols: 3})
	if err == nil || !strings.Contains(err.Error(), "1 references") {
		t.Errorf("DumpFile: %v, want 1 reference not resolving", err)
	}
	got := strings.ReplaceAll(b.String(), tf, "TABLES")
	golden := filepath.Join("testdata", "dump.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("dump (go test ./tableset -update rewrites it):\n%s\nwant:\n%s", got, want)
	}
}

func TestCheck(t *testing.T) {
	tf := writeFile(t, "tables.tsv", "# labels\ntiny\tshop\t1\tdata\ntiny\tshop\t0\tlayout\ntiny\tother\t1\tdata\n"+
		"tiny\tshop\t2\tlayout\ntiny\tnone\t0\t?\n")
	cf := writeFile(t, "cells.tsv", "tiny\tshop\t1\t0\t1\theader\ntiny\tshop\t1\t9\t9\tdata\n"+
		"tiny\tshop\t0\t0\t0\tdata\ntiny\tshop\t5\t0\t0\tdata\n")
	rep, err := Check(context.Background(), tinySource(t), tf, cf)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	rep.Write(&b)
	out := strings.NewReplacer(tf, "TABLES", cf, "CELLS").Replace(b.String())
	for _, want := range []string{
		"CELLS:3: tiny/shop table 0 is labelled layout in TABLES: cells are labelled only in data tables",
		"CELLS:4: tiny/shop table 5 is not in TABLES",
		"TABLES:5: tiny/shop table 2: the page has 2 leaf tables",
		"TABLES:6: dataset tiny: page none:",
		"CELLS:2: tiny/shop table 1 has no cell whose top-left slot is [9,9] (grid 4×4)",
		"CELLS:1: tiny/shop table 1: 1 of its 13 cells labelled",
		"tables: 5 (data 2, layout 2, not labelled ? 1)",
		"6 problems",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("check report lacks %q:\n%s", want, out)
		}
	}
	if _, err := Load(context.Background(), tinySource(t), tf, cf); err == nil {
		t.Error("Load passed labels with problems")
	}
}

func TestLoad(t *testing.T) {
	src := tinySource(t)
	tf := writeFile(t, "tables.tsv", "tiny\tshop\t1\tdata\ntiny\tshop\t0\tlayout\ntiny\tother\t0\t?\n")
	// The cells: the heuristic's pre-labels, as dump --cells prints them.
	var dump bytes.Buffer
	if err := DumpFile(context.Background(), src, &dump, tf, "", 1, 1, DumpOptions{Cells: true}); err != nil {
		t.Fatal(err)
	}
	var cells []string
	for _, l := range strings.Split(dump.String(), "\n") {
		if l != "" && !strings.ContainsAny(l[:1], " =#") {
			cells = append(cells, l)
		}
	}
	cf := writeFile(t, "cells.tsv", strings.Join(cells, "\n")+"\n")
	exs, err := Load(context.Background(), src, tf, cf)
	if err != nil {
		t.Fatal(err)
	}
	if len(exs) != 2 || exs[0].Label != LabelData || len(exs[0].Cells) != 13 || exs[1].Label != LabelLayout {
		t.Fatalf("Load: %d examples, want the data table with 13 cells and the layout table", len(exs))
	}
	if exs[0].Table.Caption != "Dimensions comparison" || exs[0].Cells[1].Role != tables.Header {
		t.Errorf("example 0: caption %q, cell 1 %v", exs[0].Table.Caption, exs[0].Cells[1].Role)
	}
}

// TestShippedLabels checks the shipped labels against the shared data
// (issue 21 asks for at least 600 labelled tables and the cells of at
// least 80 data tables), and that training on them gives the embedded
// model, byte for byte.
func TestShippedLabels(t *testing.T) {
	if testing.Short() {
		t.Skip("segments some 600 pages")
	}
	src, err := NewSource()
	if err != nil {
		t.Skip(err)
	}
	tablesFile, cellsFile := filepath.Join("labels", "tables.tsv"), filepath.Join("labels", "cells.tsv")
	rep, err := Check(context.Background(), src, tablesFile, cellsFile)
	if err != nil {
		t.Fatal(err)
	}
	n := rep.Tables[LabelData] + rep.Tables[LabelLayout]
	if len(rep.Problems) > 0 || n < 600 || rep.Tables[LabelUnknown] > 0 || rep.CellTables < 80 {
		t.Errorf("labels: %d tables labelled, %d unlabelled, %d data tables with cells; problems %v",
			n, rep.Tables[LabelUnknown], rep.CellTables, rep.Problems)
	}
	exs, err := Load(context.Background(), src, tablesFile, cellsFile)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Train(context.Background(), exs, TrainOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("..", "tables", filepath.FromSlash(tables.DefaultModelFile)))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("training on the shipped labels does not give tables/%s: retrain it with sluice tables train (docs/tables.md)", tables.DefaultModelFile)
	}
}
