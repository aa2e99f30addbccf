package filterset

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/filter"
)

// The example sets in docs/filter-sets load, and say what the README says.
func TestLoadExamples(t *testing.T) {
	s, err := Load("../docs/filter-sets/news-strict.toml")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]filter.Params{"lqf": {"threshold": 0.4, "lone_words": 6}, "targetnode": {"descend_share": 0.6}}
	if s.Version != 1 || s.Name != "news-strict" || s.Filter != "lqf>targetnode" || s.Threshold != 0.5 || !reflect.DeepEqual(s.Params, want) || s.Model != nil {
		t.Errorf("news-strict.toml: %+v", s)
	}
	if got, want := s.Summary(), "news-strict: lqf>targetnode lqf.lone_words=6 lqf.threshold=0.4 targetnode.descend_share=0.6, threshold 0.5"; got != want {
		t.Errorf("Summary:\n got %s\nwant %s", got, want)
	}
	m, err := Load("../docs/filter-sets/cleaneval-model.json")
	if err != nil {
		t.Fatal(err)
	}
	if m.Model == nil || m.Model.Style != "cleaneval" || m.Model.File != "" || m.Threshold != sluice.ExpectedF1 || m.Pipeline() != nil {
		t.Errorf("cleaneval-model.json: %+v", m)
	}
	for _, set := range []*Set{s, m} {
		c, err := set.Cleaner(sluice.Options{})
		if err != nil {
			t.Fatalf("%s: %v", set.Name, err)
		}
		res, err := c.Clean(context.Background(), sluice.Input{Data: []byte(millPage)})
		if err != nil || !strings.Contains(res.Text(), "The wheel turned again") {
			t.Errorf("%s: cleaned %v, %v", set.Name, res, err)
		}
	}
}

const millPage = `<html><body>
<ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/about">About</a></li></ul>
<div><h1>The wheel turned again</h1>
<p>After sixty years of silence the wheel of the old corn mill turned again
this spring, thanks to four summers of work by local volunteers who rebuilt
the launder and recast the broken cogs.</p>
<p>Visitors can watch it grind flour on the second Sunday of every month,
<a href="/visit">book a visit</a> or read <a href="/history">its history</a>.</p></div>
<p><a href="/terms">Terms of use and privacy</a></p>
</body></html>`

// A set without parameters cleans as its expression does; parameters
// change what is kept.
func TestParamsChangeCleaning(t *testing.T) {
	clean := func(o sluice.Options) string {
		t.Helper()
		c, err := sluice.New(o)
		if err != nil {
			t.Fatal(err)
		}
		res, err := c.Clean(context.Background(), sluice.Input{Data: []byte(millPage)})
		if err != nil {
			t.Fatal(err)
		}
		return res.Text()
	}
	options := func(src string) sluice.Options {
		t.Helper()
		s, err := Parse([]byte(src), TOML)
		if err != nil {
			t.Fatal(err)
		}
		o, err := s.Options(sluice.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	plain := clean(sluice.Options{Filter: "lqf"})
	if got := clean(options("version = 1\nname = \"a\"\nfilter = \"lqf\"\n")); got != plain {
		t.Errorf("set without parameters:\n%s\nwant\n%s", got, plain)
	}
	got := clean(options("version = 1\nname = \"a\"\nfilter = \"lqf\"\nparams.lqf.lone_words = 0\n"))
	if got == plain || !strings.Contains(got, "Terms of use") || strings.Contains(plain, "Terms of use") {
		t.Errorf("lone_words 0 should keep the lone footer link:\n%s\nwithout:\n%s", got, plain)
	}
}

func TestErrors(t *testing.T) {
	for _, c := range []struct {
		format Format
		src    string
		want   []string // "LINE:COL: message part", in order
	}{
		{TOML, "version = 1\nname = \"a\"\nfilter = \"lqf>>bte\"\n", []string{`3:15: filter: expected a filter name, got ">"`}},
		{JSON, "{\"version\": 1, \"name\": \"a\",\n  \"filter\": \"union(dsc, bte\"}", []string{`2:28: filter: expected ">", "," or ")", got end of expression`}},
		// An escape in the string: the start of the string, and the column
		// in the expression.
		{JSON, `{"version": 1, "name": "a", "filter": "lqf\u003e\u003ebte"}`, []string{`1:39: filter: expected a filter name`}},
		{TOML, "version = 1\nname = \"a\"\nfilter = \"lqf\"\nthreshhold = 0.4\n", []string{`4:1: unknown field "threshhold" (did you mean "threshold"?)`}},
		{JSON, "{\n \"version\": 1,\n \"name\": \"a\",\n \"filter\": \"lqf>dsc\",\n \"params\": {\"dsc\": {\"window\": 0, \"treshold\": 0.2},\n  \"lqff\": {}}\n}",
			[]string{`5:31: dsc: window 0 is out of range: it must be from 1 to 1000`, `5:34: dsc: parameter "treshold": no such parameter (known: window, threshold)`, `6:3: params: unknown filter "lqff"`}},
		// The expression is checked whatever else is wrong.
		{TOML, "version = 1\nname = \"a\"\nfilter = \"lqf>>bte\"\n\n[params.lqf]\nthreshold = 1.5\n", []string{`3:15: filter: expected a filter name`, `6:13: lqf: threshold 1.5 is out of range`}},
		{TOML, "version = 1\nname = \"a\"\nfilter = \"lqf\"\n\n[params.bte]\ntag_weight = 2\n", []string{`5:9: params: filter "bte": parameters for a filter the expression "lqf" does not use`}},
		{TOML, "version = 1\nname = \"a\"\nfilter = \"accb\"\n[params]\naccb = {range = 3}\naccb-r40 = {range = 4}\n", []string{`6:1: params: filter "accb-r40": parameters given twice, as "accb" and "accb-r40"`}},
		{TOML, "version = 1\nname = \"a\"\nfilter = \"targetnode\"\n[params.targetnode]\ninto_leaves = 1\ndescend_share = \"half\"\n",
			[]string{`5:15: targetnode.into_leaves is a switch: true or false, got the number 1`, `6:17: params.targetnode.descend_share must be a number, got the string "half"`}},
		{TOML, "version = 2\nname = \"a b\"\nfilter = \"lqf\"\nthreshold = \"ef\"\n", []string{
			`1:11: version 2 is newer than this sluice reads (1)`, `2:8: name "a b": use letters`, `4:13: threshold "ef": the expected-F1 rule needs the trained model`}},
		{TOML, "name = \"a\"\n", []string{`1:1: no version`, `1:1: neither filter nor model`}},
		{TOML, "version = 1\nname = \"a\"\nfilter = \"lqf\"\nthreshold = 1.5\n[model]\nstyle = 3\nfiel = \"x\"\n", []string{
			`4:13: threshold 1.5 is out of range`, `5:2: both filter and model`, `6:9: model.style must be a string, got the number 3`, `7:1: unknown field "fiel" (did you mean "file"?)`}},
		{TOML, "version = 1\nname = \"a\"\nfilter = \"lqf\"\nfilter = \"bte\"\n", []string{`4:1: TOML syntax:`}},
		{TOML, "version = 1\nname = \"a\nfilter = \"lqf\"\n", []string{`2:10: TOML syntax: basic strings cannot have new lines`}},
		{JSON, "{\"version\": 1, \"name\": \"a\", \"name\": \"b\", \"filter\": \"lqf\"}", []string{`1:29: duplicate key "name"`}},
		{JSON, "{\"version\": 1,\n \"name\": \"a\" \"filter\": \"lqf\"}", []string{`2:14: JSON syntax: invalid character '"' after object key:value pair`}},
		{JSON, "[1, 2]", []string{`1:1: a filter set is a JSON object`}},
		{JSON, "{\"version\": 1, \"name\": \"a\", \"filter\": \"lqf\"", []string{`JSON syntax: unexpected end of file`}},
		{JSON, "{\"version\": 1, \"name\": \"é\", \"model\": {}, \"params\": {}}", []string{`1:24: name "é"`, `1:42: params are for the filters of a pipeline`}},
	} {
		_, err := Parse([]byte(c.src), c.format)
		var list ErrorList
		if !errors.As(err, &list) {
			t.Errorf("%s:\n%s\nerror %v, want an ErrorList", c.format, c.src, err)
			continue
		}
		if len(list) != len(c.want) {
			t.Errorf("%s:\n%s\n got %d errors:\n%v\nwant %d: %q", c.format, c.src, len(list), err, len(c.want), c.want)
			continue
		}
		for i, w := range c.want {
			got := list[i].Error()
			if !strings.Contains(got, w) || (strings.Contains(w, ":") && w[0] >= '0' && w[0] <= '9' && !strings.HasPrefix(got, w[:strings.IndexByte(w, ' ')])) {
				t.Errorf("%s:\n%s\nerror %d: got %s\nwant %s", c.format, c.src, i, got, w)
			}
		}
	}
}

// Load names the file in each error and resolves a model file against
// the set's directory; a style the model lacks points at the style.
func TestLoadModelErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	p := write("bad.toml", "version = 1\nname = \"m\"\n\n[model]\nstyle = \"loose\"\n")
	s, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Cleaner(sluice.Options{})
	if err == nil || !strings.HasPrefix(err.Error(), p+":5:9: the model knows no style \"loose\" (it knows main, cleaneval)") {
		t.Errorf("style: %v", err)
	}
	p = write("file.toml", "version = 1\nname = \"m\"\n\n[model]\nfile = \"no.model\"\n")
	s, err = Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "no.model"); s.Model.File != want {
		t.Errorf("model file %s, want %s", s.Model.File, want)
	}
	if _, err = s.Cleaner(sluice.Options{}); err == nil || !strings.HasPrefix(err.Error(), p+":5:8: model file: open ") {
		t.Errorf("model file: %v", err)
	}
	p = write("syntax.json", "{\"version\": 1,,}")
	if _, err = Load(p); err == nil || !strings.HasPrefix(err.Error(), p+":1:15: JSON syntax") {
		t.Errorf("syntax: %v", err)
	}
	if _, err = Load(write("set.yaml", "")); err == nil || !strings.Contains(err.Error(), "ends in .toml or .json") {
		t.Errorf("yaml: %v", err)
	}
}

// Marshal writes what Parse reads back, in both formats.
func TestMarshalRoundTrip(t *testing.T) {
	for _, src := range []string{
		"version = 1\nname = \"a\"\ndescription = \"x \\\"y\\\"\\n\"\nfilter = \"vote(dsc,bte,accb-r40:2;2)\"\nthreshold = 0.4\n[params.dsc]\nwindow = 20\nthreshold = 0.25\n[params.accb-r40]\nrange = 30\n",
		"version = 1\nname = \"m\"\nthreshold = \"ef\"\n[model]\nfile = \"/x/y.model\"\nstyle = \"cleaneval\"\n",
		"version = 1\nname = \"t\"\nfilter = \"targetnode\"\nparams.targetnode.into_leaves = true\n",
	} {
		s, err := Parse([]byte(src), TOML)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range []Format{TOML, JSON} {
			data, err := s.Marshal(f)
			if err != nil {
				t.Fatal(err)
			}
			back, err := Parse(data, f)
			if err != nil {
				t.Fatalf("%s:\n%s\n%v", f, data, err)
			}
			if !sameSet(s, back) {
				t.Errorf("%s round trip:\n%s\ngave %+v, want %+v", f, data, back, s)
			}
		}
	}
}

// sameSet compares the fields a file holds.
func sameSet(a, b *Set) bool {
	return a.Version == b.Version && a.Name == b.Name && a.Description == b.Description && a.Filter == b.Filter &&
		a.Threshold == b.Threshold && reflect.DeepEqual(a.Model, b.Model) &&
		(len(a.Params) == 0 && len(b.Params) == 0 || reflect.DeepEqual(a.Params, b.Params))
}
