package filterset

import (
	"errors"
	"os"
	"testing"
)

// FuzzParse reads arbitrary bytes as TOML and as JSON: never a panic;
// every error an ErrorList with positions inside the file; a set that
// parses writes itself back as a set that parses the same.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"../docs/filter-sets/news-strict.toml", "../docs/filter-sets/cleaneval-model.json"} {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{
		"version = 1\nname = \"a\"\nfilter = \"lqf>>bte\"\n",
		"version = 1\nname = \"a\"\nfilter = 'vote(dsc,bte,accb:2;2)'\nthreshold = 0.4\nparams.dsc = {window = 1_0, threshold = 2e-1}\n",
		"version = 1\nname = \"t\"\nfilter = \"targetnode\"\n[params.targetnode]\ninto_leaves = true\n[[x]]\n",
		`{"version": 1, "name": "a", "filter": "union(dsc,bte)", "params": {"bte": {"tag_weight": 2}}}`,
		`{"version": 1, "name": "a", "model": {"style": "cleaneval", "file": "m"}, "threshold": "ef"}`,
		`{"version": 1e400, "name": [1, {"a": null}], "x": "\u00e9\ud800"}`,
		"{\"version\": 1,,}", "", "[", "{", "version = 1\nname = \"\xff\"\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, format := range []Format{TOML, JSON} {
			s, err := Parse(data, format)
			if err != nil {
				var list ErrorList
				if !errors.As(err, &list) || len(list) == 0 {
					t.Fatalf("%s: error %v is not an ErrorList", format, err)
				}
				for _, e := range list {
					if e.Pos.Line < 1 || e.Pos.Col < 1 || e.Pos.off > len(data) {
						t.Fatalf("%s: error %q has no position inside the file", format, e)
					}
				}
				continue
			}
			out, err := s.Marshal(format)
			if err != nil {
				t.Fatalf("%s: Marshal: %v", format, err)
			}
			back, err := Parse(out, format)
			if err != nil {
				t.Fatalf("%s: %q parses, its Marshal %q does not: %v", format, data, out, err)
			}
			if !sameSet(s, back) {
				t.Fatalf("%s: %q gave %+v, its Marshal %q gave %+v", format, data, s, out, back)
			}
		}
	})
}
