// Package filterset reads and writes filter sets: named, stored ways of
// cleaning that the command line (sluice clean --filter-set), the server
// and the workbench share. A set is either a heuristic filter pipeline (an
// expression of package filter, the parameters of its filters and a
// threshold) or the trained model (a model file or the embedded one, a
// style and a threshold).
//
// A set is one file, TOML or JSON (by its extension), with a version:
//
//	version = 1
//	name = "news-strict"
//	description = "LQF then the target node, with a stricter link quota"
//	filter = "lqf>targetnode"
//	threshold = 0.5
//
//	[params.lqf]
//	threshold = 0.4
//	min_words = 12
//
// or, for the model,
//
//	version = 1
//	name = "cleaneval"
//	threshold = "ef"     # a number, or ef: the expected-F1 rule
//
//	[model]
//	style = "cleaneval"  # default: main
//	file = "my.model"    # default: the embedded model
//
// Reading checks everything it can without cleaning a page: unknown fields
// (a misspelt key must not pass silently), types, the version, the
// expression, each filter's parameters and their ranges; every problem is
// an *Error at the line and column of the key or value at fault.
package filterset

import (
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/filter"
)

// Version is the version of the file format this package reads and writes.
const Version = 1

// MaxFileSize is the largest filter-set file Load reads.
const MaxFileSize = 1 << 20

// Set is a filter set. Build one with Parse or Load (which check it); the
// fields are what the file says.
type Set struct {
	Version     int
	Name        string // letters, digits, ".", "_" and "-", at most 64
	Description string
	// Filter is the pipeline expression of a heuristic set (see
	// filter.Parse); "" for a model set.
	Filter string
	// Params are the parameters of the pipeline's filters, by filter name
	// as the file writes it (see filter.ParamsOf); Bool parameters are 0
	// or 1.
	Params map[string]filter.Params
	// Model is the trained model of a model set; nil for a heuristic one.
	Model *Model
	// Threshold is the score at and above which a block is kept (0: the
	// default of sluice.Options), or, for a model set, sluice.ExpectedF1.
	Threshold float64

	pipeline filter.Filter // the built pipeline of a heuristic set
	doc      *doc          // where the fields are, for later errors
	file     string        // the file Load read
}

// Model is the trained model of a model set.
type Model struct {
	// File is a model file written by sluice train; "" for the model
	// embedded in sluice. Load resolves a relative path against the
	// directory of the set's file.
	File string
	// Style is the annotation style to label in (see sluice.Options);
	// "" for the model's default, label.MainStyle.
	Style string
}

// Format is a file format of filter sets.
type Format string

// The formats.
const (
	TOML Format = "toml"
	JSON Format = "json"
)

// FormatOf returns the format of a file by its extension: .toml or .json.
func FormatOf(path string) (Format, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".toml":
		return TOML, nil
	case ".json":
		return JSON, nil
	}
	return "", &Error{File: path, Msg: "a filter set file ends in .toml or .json"}
}

// Parse reads and checks a filter set in the given format. Its error is an
// ErrorList, every problem found with its line and column.
func Parse(data []byte, format Format) (*Set, error) {
	var (
		d   *doc
		err error
	)
	switch format {
	case TOML:
		d, err = readTOML(data)
	case JSON:
		d, err = readJSON(data)
	default:
		return nil, fmt.Errorf("filterset: unknown format %q (toml or json)", format)
	}
	if err != nil {
		return nil, err
	}
	return decode(d)
}

// Load reads and checks the filter set in the file at path, its format
// chosen by the extension. Errors are an ErrorList whose entries name the
// file. A model file named by a relative path is taken relative to the
// set file's directory.
func Load(path string) (*Set, error) {
	format, err := FormatOf(path)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileSize {
		return nil, &Error{File: path, Msg: fmt.Sprintf("larger than %d bytes: not a filter set", MaxFileSize)}
	}
	s, err := Parse(data, format)
	if err != nil {
		return nil, withFile(err, path)
	}
	s.file = path
	if s.Model != nil && s.Model.File != "" && !filepath.IsAbs(s.Model.File) {
		s.Model.File = filepath.Join(filepath.Dir(path), s.Model.File)
	}
	return s, nil
}

var namePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// Pipeline returns the filter pipeline of a heuristic set, built with its
// parameters; nil for a model set.
func (s *Set) Pipeline() filter.Filter { return s.pipeline }

// Options returns base with what the set decides: the pipeline and its
// threshold, or the model (its file read), style and threshold. The
// threshold of base, when not 0, wins over the set's.
func (s *Set) Options(base sluice.Options) (sluice.Options, error) {
	o := base
	o.Filter, o.Pipeline, o.Model, o.Style = "", nil, nil, ""
	if o.Threshold == 0 {
		o.Threshold = s.Threshold
	}
	if s.Model == nil {
		o.Pipeline = s.pipeline
		return o, nil
	}
	o.Style = s.Model.Style
	if s.Model.File != "" {
		data, err := os.ReadFile(s.Model.File)
		if err != nil {
			return o, s.errorAt(join("model", "file"), "model file: %v", err)
		}
		o.Model = data
	}
	return o, nil
}

// Cleaner builds the cleaner the set describes, with base's other options
// (see Options). A model the set's style does not fit, or a model file
// that does not load, is an *Error at the place in the file that names it.
func (s *Set) Cleaner(base sluice.Options) (*sluice.Cleaner, error) {
	o, err := s.Options(base)
	if err != nil {
		return nil, err
	}
	c, err := sluice.New(o)
	if err == nil || s.Model == nil {
		return c, err
	}
	// Say which field is at fault: the model, or the style it lacks.
	o.Style = ""
	plain, perr := sluice.New(o)
	switch {
	case perr != nil && s.Model.File != "":
		return nil, s.errorAt(join("model", "file"), "model file %s: %v", s.Model.File, perr)
	case perr == nil && !slices.Contains(plain.Styles(), s.Model.Style):
		return nil, s.errorAt(join("model", "style"), "the model knows no style %q (it knows %s)", s.Model.Style, strings.Join(plain.Styles(), ", "))
	}
	return nil, s.errorAt("", "%v", err)
}

// errorAt returns an *Error at the value at path (the file as a whole when
// path is "" or the set was not read from a file).
func (s *Set) errorAt(path, format string, args ...any) error {
	e := &Error{File: s.file, Msg: fmt.Sprintf(format, args...)}
	if s.doc != nil && path != "" {
		e.Pos = s.doc.val(path)
	}
	return e
}

// Summary describes the set in one line: its name, the pipeline or model
// with the parameters that differ from the defaults, and the threshold.
func (s *Set) Summary() string {
	var sb strings.Builder
	sb.WriteString(s.Name)
	sb.WriteString(": ")
	if s.Model != nil {
		sb.WriteString("model")
		if s.Model.File != "" {
			sb.WriteString(" " + s.Model.File)
		}
		if s.Model.Style != "" {
			sb.WriteString(", style " + s.Model.Style)
		}
	} else {
		sb.WriteString(s.pipeline.Name())
		for _, f := range slices.Sorted(maps.Keys(s.Params)) {
			p := s.Params[f]
			for _, k := range slices.Sorted(maps.Keys(p)) {
				fmt.Fprintf(&sb, " %s.%s=%s", f, k, filter.FormatParam(p[k]))
			}
		}
	}
	switch s.Threshold {
	case 0:
	case sluice.ExpectedF1:
		sb.WriteString(", threshold ef")
	default:
		sb.WriteString(", threshold " + filter.FormatParam(s.Threshold))
	}
	return sb.String()
}
