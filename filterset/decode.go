package filterset

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/filter"
)

// The fields of a filter set and of its model table.
var (
	setFields   = []string{"version", "name", "description", "filter", "params", "model", "threshold"}
	modelFields = []string{"file", "style"}
)

// decoder turns a read file into a Set, collecting every problem.
type decoder struct {
	d *doc
	e errs
}

func decode(d *doc) (*Set, error) {
	dc := &decoder{d: d}
	s := &Set{doc: d}
	root := d.root
	dc.unknown("", root, setFields)
	dc.version(s)
	if v, ok := dc.str("name", root["name"], true); ok {
		s.Name = v
		if !namePattern.MatchString(v) {
			dc.e.add(d.val("name"), "name %q: use letters, digits, \".\", \"_\" and \"-\" (at most 64, starting with a letter or digit)", v)
		}
	}
	s.Description, _ = dc.str("description", root["description"], false)
	s.Filter, _ = dc.str("filter", root["filter"], false)
	dc.model(s)
	dc.params(s)
	dc.threshold(s)
	switch {
	case root["filter"] != nil && root["model"] != nil:
		dc.e.add(d.key("model"), "both filter and model: a set cleans with a filter pipeline or with the trained model; remove one")
	case root["filter"] == nil && root["model"] == nil:
		dc.e.add(Pos{Line: 1, Col: 1}, "neither filter nor model: give filter = \"EXPRESSION\" (see sluice filters) or a model table")
	case root["params"] != nil && root["model"] != nil:
		dc.e.add(d.key("params"), "params are for the filters of a pipeline, not the trained model")
	}
	if _, isStr := root["filter"].(string); isStr && s.Model == nil {
		dc.pipeline(s)
	}
	if err := dc.e.err(); err != nil {
		return nil, err
	}
	return s, nil
}

// unknown reports the keys of table m (at path) that are not in fields.
func (dc *decoder) unknown(path string, m map[string]any, fields []string) {
	for k := range m {
		if slices.Contains(fields, k) {
			continue
		}
		msg := fmt.Sprintf("unknown field %q", k)
		if near := nearest(k, fields); near != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", near)
		} else {
			msg += " (the fields are " + strings.Join(fields, ", ") + ")"
		}
		dc.e.add(dc.d.key(joinPath(path, k)), "%s", msg)
	}
}

func joinPath(path, k string) string {
	if path == "" {
		return k
	}
	return path + pathSep + k
}

func (dc *decoder) version(s *Set) {
	v, ok := dc.d.root["version"]
	if !ok {
		dc.e.add(Pos{Line: 1, Col: 1}, "no version: a filter set file starts with version = %d", Version)
		return
	}
	x, ok := dc.num("version", v)
	switch {
	case !ok:
	case x != math.Trunc(x) || x < 1:
		dc.e.add(dc.d.val("version"), "version %s: a whole number from 1", filter.FormatParam(x))
	case x > Version:
		dc.e.add(dc.d.val("version"), "version %s is newer than this sluice reads (%d): upgrade sluice", filter.FormatParam(x), Version)
	default:
		s.Version = int(x)
	}
}

func (dc *decoder) model(s *Set) {
	v, ok := dc.d.root["model"]
	if !ok {
		return
	}
	m, ok := dc.table("model", v)
	if !ok {
		return
	}
	dc.unknown("model", m, modelFields)
	s.Model = &Model{}
	s.Model.File, _ = dc.str(join("model", "file"), m["file"], false)
	s.Model.Style, _ = dc.str(join("model", "style"), m["style"], false)
}

func (dc *decoder) threshold(s *Set) {
	v, ok := dc.d.root["threshold"]
	if !ok {
		return
	}
	at := dc.d.val("threshold")
	if str, isStr := v.(string); isStr {
		switch {
		case str != "ef" && str != "expected-f1":
			dc.e.add(at, "threshold %q: a number above 0 and at most 1, or \"ef\" (the expected-F1 rule of the model)", str)
		case dc.d.root["model"] == nil:
			dc.e.add(at, "threshold \"ef\": the expected-F1 rule needs the trained model's probabilities; a filter pipeline takes a number")
		default:
			s.Threshold = sluice.ExpectedF1
		}
		return
	}
	x, ok := dc.num("threshold", v)
	if ok && !(x > 0 && x <= 1) {
		dc.e.add(at, "threshold %s is out of range: a number above 0 and at most 1 (leave it out for the default)", filter.FormatParam(x))
		return
	}
	s.Threshold = x
}

// params reads the parameters table and checks each filter and value.
func (dc *decoder) params(s *Set) {
	v, ok := dc.d.root["params"]
	if !ok {
		return
	}
	tbl, ok := dc.table("params", v)
	if !ok {
		return
	}
	s.Params = map[string]filter.Params{}
	for _, name := range slices.Sorted(maps.Keys(tbl)) {
		path := join("params", name)
		vals, ok := dc.table(path, tbl[name])
		if !ok {
			continue
		}
		known, err := filter.ParamsOf(name)
		if err != nil {
			dc.e.add(dc.d.key(path), "params: %v", err)
			continue
		}
		ps := filter.Params{}
		for _, pn := range slices.Sorted(maps.Keys(vals)) {
			if x, ok := dc.param(name, known, pn, vals[pn]); ok {
				ps[pn] = x
			}
		}
		s.Params[name] = ps
	}
}

// param reads the value of parameter pn of filter name.
func (dc *decoder) param(name string, known []filter.Param, pn string, v any) (float64, bool) {
	path := join("params", name, pn)
	i := slices.IndexFunc(known, func(p filter.Param) bool { return p.Name == pn })
	if i < 0 {
		err := filter.CheckParams(name, filter.Params{pn: 0})
		var pe *filter.ParamError
		if errors.As(err, &pe) {
			dc.e.add(dc.d.key(path), "%s: parameter %q: %s", name, pn, pe.Msg)
		}
		return 0, false
	}
	p := known[i]
	var x float64
	if p.Kind == filter.Bool {
		b, ok := v.(bool)
		if !ok {
			dc.e.add(dc.d.val(path), "%s.%s is a switch: true or false, got %s", name, pn, describe(v))
			return 0, false
		}
		if b {
			x = 1
		}
	} else {
		var ok bool
		if x, ok = dc.num(path, v); !ok {
			return 0, false
		}
	}
	if err := p.Check(x); err != nil {
		dc.e.add(dc.d.val(path), "%s: %v", name, err)
		return 0, false
	}
	return x, true
}

// pipeline checks the expression and, when nothing else is wrong, builds
// the set's filter with its parameters, placing the errors.
func (dc *decoder) pipeline(s *Set) {
	_, err := filter.Parse(s.Filter)
	var f filter.Filter
	if err == nil {
		if len(dc.e.list) > 0 {
			return
		}
		f, err = filter.ParseWith(s.Filter, s.Params)
	}
	var (
		xe *filter.ParseError
		pe *filter.ParamError
	)
	switch {
	case err == nil:
		s.pipeline = f
	case errors.As(err, &xe):
		dc.e.add(dc.exprPos(s.Filter, xe.Column), "filter: %s", xe.Msg)
	case errors.As(err, &pe):
		dc.e.add(dc.d.key(join("params", pe.Filter)), "params: %v", pe)
	default:
		dc.e.add(dc.d.val("filter"), "filter: %v", err)
	}
}

// exprPos is the position of column col of the filter expression in the
// file: exact when the expression is written as one plain string (no
// escapes, one line), else the start of the string.
func (dc *decoder) exprPos(expr string, col int) Pos {
	at := dc.d.val("filter")
	data, off := dc.d.data, at.off
	if off >= len(data) || (data[off] != '"' && data[off] != '\'') {
		return at
	}
	q := data[off]
	body := data[off+1:]
	if len(body) <= len(expr) || string(body[:len(expr)]) != expr || body[len(expr)] != q || strings.ContainsAny(expr, "\\\n\"'") {
		return at
	}
	prefix := []rune(expr)[:min(max(col-1, 0), len([]rune(expr)))]
	return posAt(data, off+1+len(string(prefix)))
}

// str reads a string field; required reports a missing one.
func (dc *decoder) str(path string, v any, required bool) (string, bool) {
	if v == nil {
		if required {
			dc.e.add(Pos{Line: 1, Col: 1}, "no %s: a filter set needs %s = \"...\"", path, path)
		}
		return "", false
	}
	s, ok := v.(string)
	if !ok {
		dc.e.add(dc.d.val(path), "%s must be a string, got %s", strings.ReplaceAll(path, pathSep, "."), describe(v))
	}
	return s, ok
}

// num reads a number, integer or not.
func (dc *decoder) num(path string, v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			return x, true
		}
	case int64:
		return float64(x), true
	}
	dc.e.add(dc.d.val(path), "%s must be a number, got %s", strings.ReplaceAll(path, pathSep, "."), describe(v))
	return 0, false
}

// table reads a table (a JSON object).
func (dc *decoder) table(path string, v any) (map[string]any, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		dc.e.add(dc.d.val(path), "%s must be a table (an object), got %s", strings.ReplaceAll(path, pathSep, "."), describe(v))
	}
	return m, ok
}

// describe names the type of a value for an error.
func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return "the string " + strconv.Quote(x)
	case bool:
		return "the boolean " + strconv.FormatBool(x)
	case float64, int64:
		return fmt.Sprintf("the number %v", x)
	case map[string]any:
		return "a table"
	case []any:
		return "a list"
	}
	return fmt.Sprintf("a %T", v)
}

// nearest returns the field within two edits of k, if any.
func nearest(k string, fields []string) string {
	best, bestD := "", 3
	for _, f := range fields {
		if d := editDistance(strings.ToLower(k), f); d < bestD {
			best, bestD = f, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
