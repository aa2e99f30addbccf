// Package filter holds the content-scoring methods of sluice: each looks at a
// segmented page and returns, for every block, a content score in [0,1]
// (0 boilerplate, 1 main content; 0.5 and above counts as kept).
//
// Every method is one file and registers itself by name in init, so the CLI
// and the benchmark can list and run them all. Combinations (serial,
// union, intersection, weighted vote) are arithmetic on the score vectors.
package filter

import (
	"fmt"
	"sort"
	"strings"

	"github.com/sluice-project/sluice/page"
)

// Keep is the score at and above which a block counts as content.
const Keep = 0.5

// Filter scores the blocks of a page.
//
// Score writes one score per block of p into out (len(out) == len(p.Blocks)).
// active, when not nil, has one entry per block: blocks with active[i] false
// have been removed by an earlier filter in a serial chain and must be treated
// as absent (their text and the tags before them count for nothing), and their
// out entry must be left as it is. Implementations must not keep per-page
// state between calls: a Filter is shared by concurrent goroutines.
type Filter interface {
	Name() string
	Score(p *page.Page, active []bool, out []float64)
}

var (
	registry = map[string]spec{}
	aliases  = map[string]string{}
)

// RegisterAlias makes alias another name of the registered filter name
// (the name used in a paper, say). Names leaves aliases out.
func RegisterAlias(alias, name string) {
	if _, dup := registry[alias]; dup {
		panic("filter: alias " + alias + " is a filter name")
	}
	aliases[alias] = name
}

// Aliases returns the aliases and the filter names they stand for.
func Aliases() map[string]string {
	out := make(map[string]string, len(aliases))
	for a, n := range aliases {
		out[a] = n
	}
	return out
}

// Register makes a filter constructor available under name, for a filter
// that takes no parameters (see RegisterParams). It panics on a duplicate
// name, which is a programming error caught at start-up.
func Register(name string, f func() Filter) {
	RegisterParams(name, nil, func(Params) Filter { return f() })
}

// Names returns the registered filter names, sorted.
func Names() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Lookup returns a new instance of the filter registered as name (or
// under an alias), with its default parameters.
func Lookup(name string) (Filter, error) {
	if n, ok := aliases[name]; ok {
		name = n
	}
	s, ok := registry[name]
	if !ok {
		return nil, fmt.Errorf("unknown filter %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	return s.make(defaults(s.params)), nil
}

// defaults returns the default value of every parameter.
func defaults(params []Param) Params {
	p := make(Params, len(params))
	for _, q := range params {
		p[q.Name] = q.Default
	}
	return p
}

// Run scores every block of p with f and returns the scores.
func Run(f Filter, p *page.Page) []float64 {
	out := make([]float64, len(p.Blocks))
	f.Score(p, nil, out)
	return out
}
