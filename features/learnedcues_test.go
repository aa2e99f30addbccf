package features

import (
	"fmt"
	"maps"
	"math"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/crf"
	"github.com/sluice-project/sluice/internal/pagetest"
)

// withCues switches LearnedCues on in cfg and gives it a small learned cue
// table covering navPage's classes.
func withCues(cfg Config) Config {
	cfg.Off = map[Group]bool{}
	cfg.Cues = map[string]float32{"navigation": -2.5, "nav": -2, "article": 1.2, "body": 0.8, "footer": -1.8}
	cfg.TextCues = map[string]float32{"share": -2.2, "reply": -1.9, "river": 0.7, "residents": 1.1}
	return cfg
}

// everyGroup is DefaultConfig with every group on, ClassID too.
func everyGroup() Config {
	cfg := DefaultConfig()
	cfg.Off = map[Group]bool{}
	return cfg
}

// cueSite is a page of one site for TestLearnCues: a menu under
// class "site-nav", a story under "story-body" (and, on the sites that
// have it, a box under class "only<n>").
func cueSite(t *testing.T, n int, extra string) CueSample {
	t.Helper()
	p := pagetest.Parse(t, fmt.Sprintf(`<html><body>
<div class="site-nav x%d"><a href="/">Home</a> <a href="/a">About us</a></div>
<div class="story-body"><p>The river rose by two metres overnight, and the town closed the old bridge.</p></div>
%s</body></html>`, n, extra))
	content := make([]bool, len(p.Blocks))
	for i, b := range p.Blocks {
		content[i] = strings.HasPrefix(b.Text, "The river")
	}
	return CueSample{Page: p, Content: content, Group: fmt.Sprintf("site%d.example", n)}
}

func TestLearnCues(t *testing.T) {
	var samples []CueSample
	for n := range 4 {
		extra := ""
		if n < 2 {
			extra = `<div class="only"><p>Two sites have this box.</p></div>`
		}
		samples = append(samples, cueSite(t, n, extra))
	}
	table := LearnCues(samples, CueOptions{})
	for range 5 {
		if again := LearnCues(samples, CueOptions{}); !maps.Equal(again, table) {
			t.Fatalf("a second run gives another table:\n%v\n%v", again, table)
		}
	}
	for _, tok := range []string{"story", "body"} {
		if !(table[tok] > 0.5) {
			t.Errorf("%s = %v, want clearly positive", tok, table[tok])
		}
	}
	for _, tok := range []string{"site", "nav"} {
		if !(table[tok] < -0.5) {
			t.Errorf("%s = %v, want clearly negative", tok, table[tok])
		}
	}
	for _, tok := range []string{"only", "x"} {
		if _, ok := table[tok]; ok {
			t.Errorf("%s is in the table: on fewer than 3 sites (or one letter)", tok)
		}
	}
	// Four votes shrunk by two groups' worth of the average: the content
	// share of "story" is (4*1 + 2*avg) / 6.
	avg := 0.0
	for _, s := range samples {
		var c, w float64
		for i, b := range s.Page.Blocks {
			w += float64(b.Words)
			if s.Content[i] {
				c += float64(b.Words)
			}
		}
		avg += c / w / 4
	}
	if want := odds((4+2*avg)/6) - odds(avg); math.Abs(float64(table["story"])-want) > 1e-5 {
		t.Errorf("story = %v, want %v", table["story"], want)
	}
	if got := LearnCues(nil, CueOptions{}); got != nil {
		t.Errorf("no samples: %v", got)
	}
	if got := LearnCues(samples, CueOptions{MinSites: 5}); len(got) != 0 {
		t.Errorf("MinSites 5 of 4 sites: %v", got)
	}
}

func TestLearnedCuesAttrs(t *testing.T) {
	p := pagetest.Parse(t, navPage)
	byText := func(attrs [][]crf.Attr, prefix string) []string {
		t.Helper()
		var out []string
		for _, a := range attrs[blockOf(t, p, prefix)] {
			if strings.HasPrefix(a.Name, "lc.") {
				out = append(out, a.Name)
			}
		}
		return out
	}
	e := extractor(t, withCues(DefaultConfig()))
	attrs := e.Attrs(p)
	// "Home" sits under a div with id "top-nav" and class "navigation":
	// top -, nav -2, navigation -2.5.
	if got, want := strings.Join(byText(attrs, "Home"), " "), "lc.max=-2 lc.min=-3 lc.in=-3"; got != want {
		t.Errorf("Home: %s, want %s", got, want)
	}
	// "article-body": article 1.2, body 0.8, their mean 1.
	if got, want := strings.Join(byText(attrs, "The river rose"), " "), "lc.max=1 lc.min=0.6 lc.in=1"; got != want {
		t.Errorf("paragraph: %s, want %s", got, want)
	}
	if got := byText(attrs, "Great article"); len(got) != 0 {
		t.Errorf("comment (no known token): %v", got)
	}
	noTable := DefaultConfig()
	delete(noTable.Off, LearnedCues)
	if got := byText(extractor(t, noTable).Attrs(p), "Home"); len(got) != 0 {
		t.Errorf("no table: %v", got)
	}
	if got := byText(extractor(t, withCues(DefaultConfig())).Attrs(p), "Home"); len(got) == 0 {
		t.Errorf("on, with a table: no lc attributes")
	}
	byDefault := DefaultConfig()
	byDefault.Cues = withCues(Config{}).Cues
	if got := byText(extractor(t, byDefault).Attrs(p), "Home"); len(got) == 0 {
		t.Errorf("on by default, with a table: no lc attributes")
	}
	off := byDefault
	off.Off = map[Group]bool{LearnedCues: true}
	if got := byText(extractor(t, off).Attrs(p), "Home"); len(got) != 0 {
		t.Errorf("switched off, but: %v", got)
	}
	bad := DefaultConfig()
	bad.Cues = map[string]float32{"nav": float32(math.NaN())}
	if _, err := NewExtractor(bad); err == nil || !strings.Contains(err.Error(), `"nav"`) {
		t.Errorf("NaN cue: error %v", err)
	}
}

// odds is the log-odds of p (cuetable keeps it within 1% of 0 and 1, which
// the shares of this test are).
func odds(p float64) float64 { return math.Log(p / (1 - p)) }
