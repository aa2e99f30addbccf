package filter

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// ParamKind is the kind of values a filter parameter takes.
type ParamKind uint8

const (
	// Float parameters take any number in their range.
	Float ParamKind = iota
	// Int parameters take whole numbers.
	Int
	// Bool parameters are switches: 0 is off (false), 1 is on (true).
	Bool
)

func (k ParamKind) String() string {
	switch k {
	case Int:
		return "int"
	case Bool:
		return "bool"
	}
	return "float"
}

// Param describes one tunable parameter of a registered filter: a constant
// of the method that a filter set may change. Default is the value the
// registered filter uses, so a filter built without parameters scores as
// it always did.
type Param struct {
	Name     string // lower case, words joined by "_": "min_words"
	Kind     ParamKind
	Default  float64
	Min, Max float64 // the allowed range, both ends included
	Doc      string  // one line: what the parameter does
}

// Check reports whether x is a value the parameter accepts.
func (p Param) Check(x float64) error {
	switch {
	case math.IsNaN(x) || math.IsInf(x, 0):
		return fmt.Errorf("%s must be a finite number", p.Name)
	case p.Kind == Bool && x != 0 && x != 1:
		return fmt.Errorf("%s is a switch: true or false (1 or 0), got %s", p.Name, FormatParam(x))
	case p.Kind == Int && x != math.Trunc(x):
		return fmt.Errorf("%s must be a whole number, got %s", p.Name, FormatParam(x))
	case x < p.Min || x > p.Max:
		return fmt.Errorf("%s %s is out of range: it must be from %s to %s", p.Name, FormatParam(x), FormatParam(p.Min), FormatParam(p.Max))
	}
	return nil
}

// FormatParam writes a parameter value the shortest way that reads back,
// without an exponent unless the number is huge or tiny.
func FormatParam(x float64) string {
	if a := math.Abs(x); a != 0 && (a < 1e-6 || a >= 1e15) {
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

// Params are the values of a filter's parameters, by parameter name
// (Bool parameters: 0 or 1). A parameter left out has its default.
type Params map[string]float64

// ParamError is the error for a parameter a filter does not have or a value
// it does not accept.
type ParamError struct {
	Filter string // the filter as named by the caller
	Param  string // the parameter; "" when the filter itself is at fault
	Msg    string
}

func (e *ParamError) Error() string {
	if e.Param == "" {
		return fmt.Sprintf("filter %q: %s", e.Filter, e.Msg)
	}
	return fmt.Sprintf("filter %q: parameter %q: %s", e.Filter, e.Param, e.Msg)
}

// spec is a registered filter: its parameters and its constructor, which
// receives every parameter's value.
type spec struct {
	params []Param
	make   func(Params) Filter
}

// RegisterParams makes a filter constructor available under name, with the
// parameters it takes; make receives a value for each of them (the default
// when the caller gave none). It panics on a duplicate name or a parameter
// whose default is outside its range, programming errors caught at
// start-up.
func RegisterParams(name string, params []Param, make func(Params) Filter) {
	if _, dup := registry[name]; dup || aliases[name] != "" {
		panic("filter: duplicate registration of " + name)
	}
	for i, p := range params {
		if err := p.Check(p.Default); err != nil || p.Doc == "" {
			panic(fmt.Sprintf("filter %s: parameter %s: bad default or no doc: %v", name, p.Name, err))
		}
		for _, q := range params[:i] {
			if q.Name == p.Name {
				panic("filter " + name + ": duplicate parameter " + p.Name)
			}
		}
	}
	registry[name] = spec{params: slices.Clone(params), make: make}
}

// canonical returns the registered name of a filter named name: an alias
// stands for its filter, and a name not registered as written is tried in
// lower case, as Parse does.
func canonical(name string) (string, bool) {
	try := func(n string) (string, bool) {
		if a, ok := aliases[n]; ok {
			return a, true
		}
		_, ok := registry[n]
		return n, ok
	}
	if n, ok := try(name); ok {
		return n, true
	}
	return try(strings.ToLower(name))
}

// Canonical returns the name under which the filter called name (an alias,
// or a name in other case) is registered, or an error naming the filters
// there are.
func Canonical(name string) (string, error) {
	if n, ok := canonical(name); ok {
		return n, nil
	}
	return "", fmt.Errorf("unknown filter %q (known: %s)", name, strings.Join(Names(), ", "))
}

// ParamsOf returns the parameters of the filter called name (an alias
// will do), in their documented order; an empty list for a filter that
// takes none.
func ParamsOf(name string) ([]Param, error) {
	n, err := Canonical(name)
	if err != nil {
		return nil, err
	}
	return slices.Clone(registry[n].params), nil
}

// CheckParams checks the values p for the filter called name: every
// parameter must be one the filter has, and every value in its range. The
// error is a *ParamError naming the first parameter at fault in sorted
// order.
func CheckParams(name string, p Params) error {
	n, err := Canonical(name)
	if err != nil {
		return &ParamError{Filter: name, Msg: err.Error()}
	}
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := checkParam(name, registry[n].params, k, p[k]); err != nil {
			return err
		}
	}
	return nil
}

func checkParam(filter string, params []Param, name string, x float64) error {
	i := slices.IndexFunc(params, func(q Param) bool { return q.Name == name })
	if i < 0 {
		known := "it takes none"
		if len(params) > 0 {
			names := make([]string, len(params))
			for j, q := range params {
				names[j] = q.Name
			}
			known = "known: " + strings.Join(names, ", ")
		}
		return &ParamError{Filter: filter, Param: name, Msg: "no such parameter (" + known + ")"}
	}
	if err := params[i].Check(x); err != nil {
		return &ParamError{Filter: filter, Param: name, Msg: err.Error()}
	}
	return nil
}

// LookupWith returns a new instance of the filter called name with the
// parameter values p (nil or empty: the defaults, as Lookup). Errors are a
// *ParamError for a parameter the filter lacks or a value out of its range.
func LookupWith(name string, p Params) (Filter, error) {
	n, err := Canonical(name)
	if err != nil {
		return nil, err
	}
	if err := CheckParams(name, p); err != nil {
		return nil, err
	}
	s := registry[n]
	full := make(Params, len(s.params))
	for _, q := range s.params {
		full[q.Name] = q.Default
		if x, ok := p[q.Name]; ok {
			full[q.Name] = x
		}
	}
	return s.make(full), nil
}

// ParseWith is Parse with parameters: params gives, by filter name (as
// Canonical resolves it), the parameter values of every instance of that
// filter in the expression. A filter named in params must occur in the
// expression, so that a misspelt name cannot pass unnoticed. Errors are a
// *ParseError for the expression and a *ParamError for the parameters.
func ParseWith(expr string, params map[string]Params) (Filter, error) {
	resolved := make(map[string]Params, len(params))
	given := make(map[string]string, len(params)) // canonical name -> as given
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		n, ok := canonical(k)
		if !ok {
			return nil, &ParamError{Filter: k, Msg: fmt.Sprintf("unknown filter (known: %s)", strings.Join(Names(), ", "))}
		}
		if prev, dup := given[n]; dup {
			return nil, &ParamError{Filter: k, Msg: fmt.Sprintf("parameters given twice, as %q and %q", prev, k)}
		}
		if err := CheckParams(k, params[k]); err != nil {
			return nil, err
		}
		given[n], resolved[n] = k, params[k]
	}
	ps := &parser{src: expr, params: resolved, used: map[string]bool{}}
	f, err := ps.parse()
	if err != nil {
		return nil, err
	}
	for _, k := range keys {
		if n, _ := canonical(k); !ps.used[n] {
			return nil, &ParamError{Filter: k, Msg: fmt.Sprintf("parameters for a filter the expression %q does not use", expr)}
		}
	}
	return f, nil
}
