package tables

import (
	"bytes"
	"embed"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"

	"github.com/sluice-project/sluice/gbdt"
	"github.com/sluice-project/sluice/page"
)

// Model is the pair of trained classifiers of Kitten's section 3.1: one
// tells data tables from layout tables (over TableColumns), and one, the
// header model, tells header cells from data cells in data tables (over
// CellColumns, which include the heuristic's role, so the trees learn
// where the heuristic goes wrong). A nil *Model stands for the
// heuristics (HeuristicKind, HeuristicCells). A Model is immutable and
// safe for concurrent use.
type Model struct {
	table  *gbdt.Model
	header *gbdt.Model // nil: the heuristic's roles stand
}

// NewModel assembles a Model from a table classifier and a header model
// (nil for none: the cells keep the heuristic's roles). It checks the
// models' widths.
func NewModel(table, header *gbdt.Model) (*Model, error) {
	if table == nil || table.NumFeatures() != len(TableColumns) {
		return nil, fmt.Errorf("tables: the table model must read %d features", len(TableColumns))
	}
	if header != nil && header.NumFeatures() != len(CellColumns) {
		return nil, fmt.Errorf("tables: the header model reads %d features, want %d", header.NumFeatures(), len(CellColumns))
	}
	return &Model{table: table, header: header}, nil
}

// DataProb is the table model's probability that a table with features f
// is a data table.
func (m *Model) DataProb(f Features) float64 {
	return m.table.Prob(f.Vector(make([]float32, 0, len(TableColumns))))
}

// Kind classifies table t of page p: by the table model, or by
// HeuristicKind when m is nil. A table that has not two rows and two
// columns, or whose grid is larger than MaxGrid, is layout either way.
func (m *Model) Kind(p *page.Page, t *page.Table) Kind {
	if m == nil {
		return HeuristicKind(p, t)
	}
	f := Measure(p, t)
	if !f.Fits || f.Rows < 2 || f.Cols < 2 {
		return Layout
	}
	if m.DataProb(f) >= 0.5 {
		return Data
	}
	return Layout
}

// Cells types the cells of table t: by HeuristicCells when m is nil, else
// by the heuristic corrected by the header model. Empty cells are the
// heuristic's (neutral, or data for a missing value); thema, finalImportant and finalNonImportant cells are the
// heuristic's (the annotated set holds too few of them to learn from);
// each cell the heuristic calls header or data is header when the header
// model gives it a probability of 0.5 or more, else data. Then Kitten's
// fix-up rule applies. It returns nil when the grid is empty or larger
// than MaxGrid.
func (m *Model) Cells(p *page.Page, t *page.Table) []Role {
	if m == nil {
		return HeuristicCells(p, t)
	}
	v := newVectorizer(p, t)
	if v == nil {
		return nil
	}
	h, g := v.h, v.g
	row := make([]float32, 0, len(CellColumns))
	roles := make([]Role, len(t.Cells))
	for i := range t.Cells {
		switch {
		case t.Cells[i].Chars == 0:
			roles[i] = h[i] // neutral, or data for a missing value
			continue
		case h[i] != DataCell && h[i] != Header:
			roles[i] = h[i]
			continue
		}
		roles[i] = h[i]
		if m.header != nil {
			roles[i] = DataCell
			if m.header.Prob(v.row(row[:0], i)) >= 0.5 {
				roles[i] = Header
			}
		}
	}
	c := typer{p: p, t: t, g: g, roles: roles}
	c.fixUp()
	return roles
}

// modelMagic starts a tables model file.
const modelMagic = "sluice-tables-model 2\n"

// MarshalBinary writes the model: the magic line, then the table model and
// the header model, each as a little-endian uint32 length (0 for an absent
// model) and gbdt's own format, which is checksummed.
func (m *Model) MarshalBinary() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString(modelMagic)
	for _, g := range []*gbdt.Model{m.table, m.header} {
		var b []byte
		if g != nil {
			var err error
			if b, err = g.MarshalBinary(); err != nil {
				return nil, err
			}
		}
		buf.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(b))))
		buf.Write(b)
	}
	return buf.Bytes(), nil
}

// UnmarshalModel reads a model MarshalBinary wrote.
func UnmarshalModel(data []byte) (*Model, error) {
	rest, ok := bytes.CutPrefix(data, []byte(modelMagic))
	if !ok {
		return nil, errors.New("tables: not a tables model file")
	}
	var ms [2]*gbdt.Model // the table model, the header model
	for i := range ms {
		if len(rest) < 4 {
			return nil, errors.New("tables: model file truncated")
		}
		n := binary.LittleEndian.Uint32(rest)
		rest = rest[4:]
		if uint64(n) > uint64(len(rest)) {
			return nil, errors.New("tables: model file truncated")
		}
		if n > 0 {
			g, err := gbdt.Unmarshal(rest[:n])
			if err != nil {
				return nil, fmt.Errorf("tables: model %d: %w", i, err)
			}
			ms[i] = g
		}
		rest = rest[n:]
	}
	if len(rest) > 0 {
		return nil, errors.New("tables: trailing bytes after the model")
	}
	return NewModel(ms[0], ms[1])
}

//go:embed model
var modelFS embed.FS

// DefaultModelFile is the path, inside the package's embedded files, of the
// model trained on sluice's annotated table set (tableset/labels).
const DefaultModelFile = "model/tables.model"

var defaultModel = sync.OnceValue(func() *Model {
	data, err := modelFS.ReadFile(DefaultModelFile)
	if err != nil {
		return nil
	}
	m, err := UnmarshalModel(data)
	if err != nil {
		return nil // TestDefaultModel fails the build's tests instead
	}
	return m
})

// DefaultModel returns the embedded model trained on sluice's annotated
// table set, or nil (the heuristics) when the build has none.
func DefaultModel() *Model { return defaultModel() }

// Classify tells a data table from a layout table with the default model
// (DefaultModel, or the heuristic when there is none).
func Classify(p *page.Page, t *page.Table) Kind { return DefaultModel().Kind(p, t) }

// TypeCells gives each cell of table t a role with the default model
// (DefaultModel, or the heuristic when there is none).
func TypeCells(p *page.Page, t *page.Table) []Role { return DefaultModel().Cells(p, t) }
