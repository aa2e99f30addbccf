package filterset

import (
	"encoding/json"
	"fmt"

	"github.com/pelletier/go-toml/v2"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/filter"
)

// fileSet is the layout of a file, fields in the order they are written.
type fileSet struct {
	Version     int                       `toml:"version" json:"version"`
	Name        string                    `toml:"name" json:"name"`
	Description string                    `toml:"description,omitempty" json:"description,omitempty"`
	Filter      string                    `toml:"filter,omitempty" json:"filter,omitempty"`
	Threshold   any                       `toml:"threshold,omitempty" json:"threshold,omitempty"`
	Params      map[string]map[string]any `toml:"params,omitempty" json:"params,omitempty"`
	Model       *fileModel                `toml:"model,omitempty" json:"model,omitempty"`
}

type fileModel struct {
	File  string `toml:"file,omitempty" json:"file,omitempty"`
	Style string `toml:"style,omitempty" json:"style,omitempty"`
}

// Marshal writes the set in the given format, as Parse reads it back:
// whole-number parameters as integers, switches as true or false.
func (s *Set) Marshal(format Format) ([]byte, error) {
	f := fileSet{Version: Version, Name: s.Name, Description: s.Description, Filter: s.Filter}
	switch s.Threshold {
	case 0:
	case sluice.ExpectedF1:
		f.Threshold = "ef"
	default:
		f.Threshold = s.Threshold
	}
	if s.Model != nil {
		f.Model = &fileModel{File: s.Model.File, Style: s.Model.Style}
	}
	for name, ps := range s.Params {
		if f.Params == nil {
			f.Params = map[string]map[string]any{}
		}
		known, _ := filter.ParamsOf(name)
		vals := map[string]any{}
		for k, x := range ps {
			vals[k] = paramValue(known, k, x)
		}
		f.Params[name] = vals
	}
	switch format {
	case TOML:
		return toml.Marshal(f)
	case JSON:
		b, err := json.MarshalIndent(f, "", "  ")
		return append(b, '\n'), err
	}
	return nil, fmt.Errorf("filterset: unknown format %q (toml or json)", format)
}

// paramValue is how parameter k's value x is written.
func paramValue(known []filter.Param, k string, x float64) any {
	for _, p := range known {
		if p.Name != k {
			continue
		}
		switch p.Kind {
		case filter.Bool:
			return x != 0
		case filter.Int:
			return int64(x)
		}
	}
	return x
}
