package filter

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/page"
)

// paramPages are the pages the parameter tests score: hand-built ones
// without an element tree and ones with lists, paragraphs and divs.
func paramPages() []*page.Page {
	art, _ := fxArticle()
	ccbArt, _, _, _ := ccbtArticle()
	pages := []*page.Page{art, fxSynthetic(), ccbArt, ccbtSynthetic()}
	for _, p := range ccbtEdgePages() {
		pages = append(pages, p)
	}
	// One long paragraph among short siblings: the target node search
	// descends into it only with into_leaves.
	b := ccbtNew()
	b.Open("div").Open("h1").Text("A title").Close().Para(ccbtWords(200)).Para(ccbtWords(20)).Close()
	return append(pages, b.Page())
}

// sameScores reports whether f and g score every page alike.
func sameScores(f, g Filter, pages []*page.Page) bool {
	for _, p := range pages {
		if !slices.Equal(Run(f, p), Run(g, p)) {
			return false
		}
	}
	return true
}

// The registered filters with their default parameters, given or not,
// score as the Go constructors that were registered before filters took
// parameters.
func TestParamDefaultsUnchanged(t *testing.T) {
	before := map[string]Filter{
		"bte": BTE{}, "dsc": NewDSC(), "ttr": NewTTR(), "density": NewDensity(), "lqf": NewLQF(),
		"ccb": NewCCB(), "accb": NewACCB(), "tccb": NewTCCB(), "targetnode": NewTargetNode(),
		"targetnode-sparse": &TargetNode{Label: "targetnode-sparse", SparseDensity: wccSparseDensity},
	}
	if got := Names(); !slices.Equal(got, slices.Sorted(maps.Keys(before))) {
		t.Fatalf("registered filters %v: add the new one to this test", got)
	}
	pages := paramPages()
	for name, old := range before {
		params, err := ParamsOf(name)
		if err != nil {
			t.Fatal(err)
		}
		explicit := Params{}
		for _, p := range params {
			explicit[p.Name] = p.Default
		}
		for _, ps := range []Params{nil, explicit} {
			f, err := LookupWith(name, ps)
			if err != nil {
				t.Fatal(err)
			}
			if f.Name() != name {
				t.Errorf("%s with parameters is named %q", name, f.Name())
			}
			if !sameScores(f, old, pages) {
				t.Errorf("%s with parameters %v scores differently from before", name, ps)
			}
		}
		if len(params) == 0 {
			t.Errorf("%s declares no parameters", name)
		}
	}
}

// Every declared parameter is wired to the method: at one end of its range
// or the other it changes the scores of some test page.
func TestParamsChangeScores(t *testing.T) {
	pages := paramPages()
	for _, name := range Names() {
		def, _ := Lookup(name)
		params, _ := ParamsOf(name)
		for _, p := range params {
			changed := false
			for _, x := range []float64{p.Min, p.Max} {
				if x == p.Default {
					continue
				}
				f, err := LookupWith(name, Params{p.Name: x})
				if err != nil {
					t.Fatal(err)
				}
				changed = changed || !sameScores(f, def, pages)
			}
			if !changed {
				t.Errorf("%s: parameter %s changes no score at %v or %v", name, p.Name, p.Min, p.Max)
			}
		}
	}
}

func TestParamDocs(t *testing.T) {
	for _, name := range Names() {
		params, _ := ParamsOf(name)
		for _, p := range params {
			if p.Min > p.Max || p.Check(p.Default) != nil || p.Doc == "" || strings.ContainsAny(p.Name, " -ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
				t.Errorf("%s: parameter %+v: bad range, default, doc or name", name, p)
			}
		}
	}
	if _, err := ParamsOf("nosuch"); err == nil {
		t.Error("ParamsOf(nosuch): no error")
	}
	if ps, err := ParamsOf("ACCB-R40"); err != nil || len(ps) != 4 {
		t.Errorf("ParamsOf(ACCB-R40) = %v, %v: want accb's four", ps, err)
	}
}

func TestParamErrors(t *testing.T) {
	for _, c := range []struct {
		name   string
		params Params
		param  string // the parameter the *ParamError names
		want   string
	}{
		{"lqf", Params{"treshold": 0.4}, "treshold", `no such parameter (known: threshold, min_words, max_share, block_threshold, lone_words)`},
		{"bte", Params{"tag_weight": 0}, "tag_weight", "tag_weight 0 is out of range: it must be from 0.05 to 20"},
		{"dsc", Params{"window": 2.5}, "window", "window must be a whole number, got 2.5"},
		{"targetnode", Params{"into_leaves": 2}, "into_leaves", "into_leaves is a switch: true or false (1 or 0), got 2"},
		{"ttr", Params{"radius": 17}, "radius", "radius 17 is out of range: it must be from 0 to 16"},
		{"nosuch", Params{"x": 1}, "", `unknown filter "nosuch"`},
	} {
		_, err := LookupWith(c.name, c.params)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("LookupWith(%s, %v) = %v, want %q", c.name, c.params, err, c.want)
			continue
		}
		var pe *ParamError
		if c.name != "nosuch" && (!errors.As(err, &pe) || pe.Param != c.param || pe.Filter != c.name) {
			t.Errorf("LookupWith(%s, %v): %#v is not a *ParamError naming %s", c.name, c.params, err, c.param)
		}
	}
}

func TestParseWith(t *testing.T) {
	pages := paramPages()
	strict := Params{"threshold": 0.9}
	for _, c := range []struct {
		expr   string
		params map[string]Params
		want   Filter // scores like this
	}{
		{"dsc>bte", map[string]Params{"dsc": strict}, Serial(DSC{Window: DSCWindow, Threshold: 0.9}, BTE{})},
		// Every instance of a filter takes its parameters, whatever case
		// or alias names it.
		{"vote(DSC,bte,2*dsc)", map[string]Params{"dsc": strict},
			Vote(nil, 2, DSC{Window: DSCWindow, Threshold: 0.9}, BTE{}, Serial(DSC{Window: DSCWindow, Threshold: 0.9}, DSC{Window: DSCWindow, Threshold: 0.9}))},
		{"union(accb-r40,bte)", map[string]Params{"ACCB": {"range": 80}}, Union(&CCB{Label: "accb", IgnoreLinks: true, TagChars: ccbTagChars, Range: 80, Rounds: ccbRounds, Threshold: ccbThreshold}, BTE{})},
		{"lqf>targetnode", nil, Serial(NewLQF(), NewTargetNode())},
	} {
		f, err := ParseWith(c.expr, c.params)
		if err != nil {
			t.Fatalf("ParseWith(%q): %v", c.expr, err)
		}
		plain, _ := Parse(c.expr)
		if f.Name() != plain.Name() {
			t.Errorf("ParseWith(%q) is named %q, Parse %q", c.expr, f.Name(), plain.Name())
		}
		if !sameScores(f, c.want, pages) {
			t.Errorf("ParseWith(%q, %v) scores unlike %s with the parameters", c.expr, c.params, c.want.Name())
		}
		if c.params != nil && sameScores(f, plain, pages) {
			t.Errorf("ParseWith(%q, %v): the parameters change nothing", c.expr, c.params)
		}
	}
}

func TestParseWithErrors(t *testing.T) {
	for _, c := range []struct {
		expr   string
		params map[string]Params
		filter string // named by the *ParamError; "" for a *ParseError
		want   string
	}{
		{"lqf>bte", map[string]Params{"dsc": {"window": 3}}, "dsc", `does not use`},
		{"lqf>bte", map[string]Params{"lfq": {"window": 3}}, "lfq", `unknown filter`},
		{"accb", map[string]Params{"accb": {"range": 3}, "accb-r40": {"range": 4}}, "accb-r40", `given twice, as "accb" and "accb-r40"`},
		{"lqf>bte", map[string]Params{"bte": {"window": 3}}, "bte", `no such parameter (known: tag_weight)`},
		{"lqf>>bte", map[string]Params{"bte": {"tag_weight": 3}}, "", `column 5`},
	} {
		_, err := ParseWith(c.expr, c.params)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseWith(%q, %v) = %v, want %q", c.expr, c.params, err, c.want)
			continue
		}
		var pe *ParamError
		var xe *ParseError
		switch {
		case c.filter == "" && !errors.As(err, &xe):
			t.Errorf("ParseWith(%q): %#v is not a *ParseError", c.expr, err)
		case c.filter != "" && (!errors.As(err, &pe) || pe.Filter != c.filter):
			t.Errorf("ParseWith(%q): %#v is not a *ParamError naming %s", c.expr, err, c.filter)
		}
	}
}
