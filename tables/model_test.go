package tables

import (
	"context"
	"testing"

	"github.com/sluice-project/sluice/gbdt"
)

// TestDefaultModel checks that the embedded model, when the build has one,
// loads: a broken file would otherwise fall back to the heuristics quietly.
func TestDefaultModel(t *testing.T) {
	data, err := modelFS.ReadFile(DefaultModelFile)
	if err != nil {
		t.Skip("no embedded table model in this build")
	}
	if _, err := UnmarshalModel(data); err != nil {
		t.Fatalf("%s: %v", DefaultModelFile, err)
	}
	if DefaultModel() == nil {
		t.Fatal("DefaultModel is nil though the file loads")
	}
}

// TestModelRoundTrip trains a tiny model on a crafted table, writes it,
// reads it back and checks it gives the same answers, and that damaged
// files are refused.
func TestModelRoundTrip(t *testing.T) {
	p := parse(t, dsLite)
	tb := &p.Tables[0]
	f := Measure(p, tb)
	x := f.Vector(nil)
	x = append(x, Features{Rows: 1, Cols: 5}.Vector(nil)...)
	tm, err := gbdt.Train(context.Background(), x, len(TableColumns), []float64{1, 0}, nil, gbdt.Options{Trees: 3, MinLeaf: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	cx := CellVectors(p, tb)
	y := make([]float64, len(tb.Cells))
	for i, h := range HeuristicCells(p, tb) {
		y[i] = b2f(h == Header)
	}
	header, err := gbdt.Train(context.Background(), cx, len(CellColumns), y, nil, gbdt.Options{Trees: 5, MinLeaf: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewModel(tm, header)
	if err != nil {
		t.Fatal(err)
	}
	data, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	back, err := UnmarshalModel(data)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := back.Kind(p, tb), m.Kind(p, tb); got != want || got != Data {
		t.Errorf("kind after round trip %v, before %v, want data", got, want)
	}
	a, b := m.Cells(p, tb), back.Cells(p, tb)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("cell %d: %v after round trip, %v before", i, b[i], a[i])
		}
	}
	for _, bad := range [][]byte{nil, []byte("junk"), data[:len(data)-1], append(append([]byte{}, data...), 0)} {
		if _, err := UnmarshalModel(bad); err == nil {
			t.Errorf("a damaged model of %d bytes was accepted", len(bad))
		}
	}
	var nilModel *Model
	if nilModel.Kind(p, tb) != HeuristicKind(p, tb) {
		t.Error("a nil model is not the heuristic")
	}
}

// TestVectorWidths checks that the vectors have as many values as their
// columns have names: the models read them by position.
func TestVectorWidths(t *testing.T) {
	p := parse(t, dsLite)
	tb := &p.Tables[0]
	if got := len(Measure(p, tb).Vector(nil)); got != len(TableColumns) {
		t.Errorf("table vector of %d values, %d column names", got, len(TableColumns))
	}
	if got, want := len(CellVectors(p, tb)), len(tb.Cells)*len(CellColumns); got != want {
		t.Errorf("cell vectors of %d values, want %d cells × %d column names", got, len(tb.Cells), len(CellColumns))
	}
}
