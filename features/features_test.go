package features

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"golang.org/x/net/html/atom"

	"github.com/sluice-project/sluice/crf"
	"github.com/sluice-project/sluice/internal/pagetest"
	"github.com/sluice-project/sluice/page"
)

func extractor(t testing.TB, cfg Config) *Extractor {
	t.Helper()
	e, err := NewExtractor(cfg)
	if err != nil {
		t.Fatalf("NewExtractor: %v", err)
	}
	return e
}

// blockOf returns the index of the block whose text starts with prefix.
func blockOf(t *testing.T, p *page.Page, prefix string) int {
	t.Helper()
	for i, b := range p.Blocks {
		if strings.HasPrefix(b.Text, prefix) {
			return i
		}
	}
	t.Fatalf("no block starts with %q", prefix)
	return -1
}

func names(attrs []crf.Attr) []string {
	s := make([]string, len(attrs))
	for i, a := range attrs {
		s[i] = a.Name
	}
	return s
}

func has(attrs []crf.Attr, name string) bool {
	return slices.ContainsFunc(attrs, func(a crf.Attr) bool { return a.Name == name })
}

// value returns the name of the attribute with key, or "".
func value(attrs []crf.Attr, key string) string {
	for _, a := range attrs {
		if k, v, ok := strings.Cut(a.Name, "="); ok && k == key {
			return v
		}
	}
	return ""
}

const navPage = `<html><head><title>The river report - River Times</title></head><body>
<div id="top-nav" class="navigation"><ul>
<li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/about">About us</a></li>
</ul></div>
<div class="article-body">
<h1>The river report</h1>
<p>The river rose by two metres overnight. Residents near the old bridge were told to leave their homes before noon.</p>
<p>Officials said the water should fall again by Friday: the rain has stopped upstream.</p>
<p>Share this</p>
</div>
<div id="comments"><p>Share this</p><p>Great article, thanks!</p><p>» Reply</p></div>
<div class="footer">© 2024 River Times. All rights reserved. Contact: desk@river-times.example, +44 20 7946 0958, updated 12.03.2024 at 14:30.</div>
</body></html>`

func TestNavListAndParagraph(t *testing.T) {
	p := pagetest.Parse(t, navPage)
	e := extractor(t, everyGroup())
	attrs := e.Attrs(p)
	if len(attrs) != len(p.Blocks) {
		t.Fatalf("len(Attrs) = %d, want %d blocks", len(attrs), len(p.Blocks))
	}

	home := attrs[blockOf(t, p, "Home")]
	for _, want := range []string{"container=li", "container=a", "container=ul", "container=div",
		"container=class-list", "inner=a", "link=1", "cls=nav", "cls0=nav", "pos.first", "sent.end=alnum", "sent.begin=upper"} {
		if !has(home, want) {
			t.Errorf("nav link lacks %s; has %v", want, names(home))
		}
	}
	if has(home, "container=p") || has(home, "cls=comment") {
		t.Errorf("nav link has a paragraph or comment attribute: %v", names(home))
	}

	para := attrs[blockOf(t, p, "The river rose")]
	for _, want := range []string{"container=p", "inner=p", "sent.end=stop", "sent.begin=upper", "sent.count=2",
		"link=0", "cls=article", "cls=body", "token.alpha=1", "split.p=1", "dup=0"} {
		if !has(para, want) {
			t.Errorf("paragraph lacks %s; has %v", want, names(para))
		}
	}
	colon := attrs[blockOf(t, p, "Officials said")]
	if !has(colon, "sent.end=stop") || !has(colon, "sent.count=1") {
		t.Errorf("second paragraph: %v", names(colon))
	}
	head := attrs[blockOf(t, p, "The river report")]
	if !has(head, "container=h1") || !has(head, "container=class-header") || !has(head, "inner=h1") {
		t.Errorf("heading: %v", names(head))
	}
	foot := attrs[len(attrs)-1]
	for _, want := range []string{"pat=copyright", "pat=rights", "pat=email", "pat=phone", "pat=date", "pat=time", "pos.last", "cls=footer"} {
		if !has(foot, want) {
			t.Errorf("footer lacks %s; has %v", want, names(foot))
		}
	}
	// Every attribute is named key=value or is a flag, and names repeat
	// in no list.
	for i, list := range attrs {
		seen := map[string]bool{}
		for _, a := range list {
			if seen[a.Name] {
				t.Errorf("block %d: %s twice", i, a.Name)
			}
			seen[a.Name] = true
			if strings.ContainsAny(a.Name, " \t\n&#,:[]") {
				t.Errorf("block %d: attribute %q has a character CRF templates cannot select", i, a.Name)
			}
		}
	}
}

func TestDuplicates(t *testing.T) {
	p := pagetest.Parse(t, navPage)
	attrs := extractor(t, DefaultConfig()).Attrs(p)
	var shares []int
	for i, b := range p.Blocks {
		if b.Text == "Share this" {
			shares = append(shares, i)
		}
	}
	if len(shares) != 2 {
		t.Fatalf("want two \"Share this\" blocks, got %d", len(shares))
	}
	first, second := attrs[shares[0]], attrs[shares[1]]
	if !has(first, "dup=1") || !has(second, "dup=1") {
		t.Errorf("duplicate counts: %v / %v", value(first, "dup"), value(second, "dup"))
	}
	if !has(first, "dup.first") || has(second, "dup.first") {
		t.Errorf("dup.first on the first only: %v, %v", has(first, "dup.first"), has(second, "dup.first"))
	}

	// Case, spaces and punctuation do not matter; symbols-only blocks are
	// compared as they are.
	p = pagetest.Parse(t, `<body><p>Read more…</p><p>READ MORE</p><p>read  more!</p><p>|</p><p>|</p><p>»</p><p>Other</p></body>`)
	attrs = extractor(t, Config{}).Attrs(p)
	want := []string{"2", "2", "2", "1", "1", "0", "0"}
	for i, w := range want {
		if got := value(attrs[i], "dup"); got != w {
			t.Errorf("block %d %q: dup=%s, want %s", i, p.Blocks[i].Text, got, w)
		}
	}
}

func TestGroupRatios(t *testing.T) {
	p := pagetest.Parse(t, `<body>
<div id="a"><p>one two three four five six</p><p>seven eight</p></div>
<div id="b"><p>alpha beta</p><p><a href="/x">link words here</a></p></div>
<table><tr><td>cell one text</td><td><a href="/y">menu</a> and more</td></tr></table>
</body>`)
	attrs := extractor(t, Config{}).Attrs(p)
	// Non-link words: 8 in #a, 2 in #b, 3 + 2 in the table (in body's
	// div group): 15 in all.
	var total float64
	groups := map[int32]float64{}
	for i, b := range p.Blocks {
		r := value(attrs[i], "div.ratio")
		if r == "" {
			t.Fatalf("block %d has no div.ratio: %v", i, names(attrs[i]))
		}
		var v float64
		fmt.Sscan(r, &v)
		groups[b.DivGroup] = v
	}
	for _, v := range groups {
		total += v
	}
	// Bucketed ratios are lower bounds, so they sum to at most 1.
	if total > 1 || total < 0.7 {
		t.Errorf("div ratios of the groups sum to %v", total)
	}
	// The exact shares, before bucketing.
	s := new(scratch)
	s.stats = make([]blockStats, len(p.Blocks))
	var nl float64
	for i, b := range p.Blocks {
		scanText(b.Text, &s.stats[i], nil)
		s.stats[i].nonLink = float64(b.Words) * float64(b.Chars-b.LinkChars) / float64(b.Chars)
		nl += s.stats[i].nonLink
	}
	g := s.groupRatios(p, nl)
	var sum, tdSum float64
	for k := 0; k < len(s.groups); k += 2 {
		sum += s.groups[k].nonLink / nl
		tdSum += s.groups[k+1].nonLink / nl
	}
	if math.Abs(sum-1) > 1e-9 {
		t.Errorf("exact div ratios sum to %v, want 1", sum)
	}
	if math.Abs(tdSum-5.0/15) > 0.02 {
		t.Errorf("td ratios sum to %v, want the table's share 1/3", tdSum)
	}
	if math.Abs(g.maxDiv-8.0/15) > 0.01 {
		t.Errorf("max div ratio = %v, want 8/15", g.maxDiv)
	}
	s.resetGroups(p)
	for i, v := range s.slot {
		if v != -1 {
			t.Fatalf("slot %d = %d after reset", i, v)
		}
	}

	first := attrs[0]
	if !has(first, "div.rel=1") || !has(first, "div.max=0.5") || !has(first, "div.link=0") {
		t.Errorf("largest group: %v", names(first))
	}
	link := attrs[blockOf(t, p, "link words")]
	if value(link, "div.link") != "0.5" { // 13 link characters of 22
		t.Errorf("div.link of #b = %s, want 0.5", value(link, "div.link"))
	}
	cell := attrs[blockOf(t, p, "cell one")]
	if value(cell, "td.ratio") == "" || value(cell, "td.max") == "" || !has(cell, "container=td") {
		t.Errorf("table cell: %v", names(cell))
	}
	if value(first, "td.ratio") != "" || value(first, "td.max") == "" {
		t.Errorf("block outside tables: %v", names(first))
	}
}

// keyGroup says which group owns an attribute, from its name.
func keyGroup(e *Extractor, name string) Group {
	key, _, _ := strings.Cut(name, "=")
	for _, g := range Groups() {
		if slices.Contains(e.Keys(g), key) {
			return g
		}
	}
	return ""
}

func TestGroupsOff(t *testing.T) {
	p := pagetest.Parse(t, navPage)
	all := extractor(t, withCues(DefaultConfig()))
	full := all.Attrs(p)
	for i, list := range full {
		for _, a := range list {
			if keyGroup(all, a.Name) == "" {
				t.Errorf("block %d: attribute %s is in no group's Keys", i, a.Name)
			}
		}
	}
	for _, g := range Groups() {
		if g == Stack || g == Boost || g == Context {
			continue // added after Attrs (stack_test.go, boost_test.go), or none (context_test.go)
		}
		cfg := withCues(DefaultConfig())
		cfg.Off[g] = true
		e := extractor(t, cfg)
		if e.Keys(g) != nil {
			t.Errorf("Keys(%s) of a group switched off = %v", g, e.Keys(g))
		}
		got := e.Attrs(p)
		if len(got) != len(p.Blocks) {
			t.Fatalf("%s off: %d lists for %d blocks", g, len(got), len(p.Blocks))
		}
		removed := 0
		for i := range full {
			var want []crf.Attr
			for _, a := range full[i] {
				if keyGroup(all, a.Name) != g {
					want = append(want, a)
				}
			}
			removed += len(full[i]) - len(want)
			if !slices.Equal(got[i], want) {
				t.Errorf("%s off, block %d:\n got %v\nwant %v", g, i, names(got[i]), names(want))
			}
		}
		if removed == 0 {
			t.Errorf("switching %s off removed nothing", g)
		}
	}
}

func TestDeterministicAndConcurrent(t *testing.T) {
	p := pagetest.Parse(t, pagetest.Synthetic(rand.New(rand.NewPCG(1, 2)), 300))
	e := extractor(t, DefaultConfig())
	want := e.Attrs(p)
	if len(want) != len(p.Blocks) {
		t.Fatalf("len(Attrs) = %d, want %d", len(want), len(p.Blocks))
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 5 {
				got := e.Attrs(p)
				for i := range want {
					if !slices.Equal(got[i], want[i]) {
						errs <- fmt.Sprintf("block %d: %v != %v", i, names(got[i]), names(want[i]))
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// Another page in between leaves no trace.
	e.Attrs(pagetest.Parse(t, navPage))
	again := e.Attrs(p)
	for i := range want {
		if !slices.Equal(again[i], want[i]) {
			t.Fatalf("block %d differs after another page", i)
		}
	}
}

func TestEmptyPage(t *testing.T) {
	e := extractor(t, DefaultConfig())
	if got := e.Attrs(&page.Page{}); len(got) != 0 {
		t.Errorf("Attrs of an empty page = %v", got)
	}
	p := &page.Page{Blocks: []page.Block{{Text: "", Node: -1, DivGroup: -1, TdGroup: -1}, {Text: "x", Node: 7, DivGroup: 99, TdGroup: -5}}}
	if got := e.Attrs(p); len(got) != 2 {
		t.Errorf("Attrs of a page without nodes: %d lists", len(got))
	}
}

func TestNewExtractorErrors(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{Off: map[Group]bool{"colour": true}}, `unknown feature group "colour"`},
		{Config{Buckets: map[string][]float64{"wordz": {0}}}, `unknown bucket key "wordz"`},
		{Config{Buckets: map[string][]float64{"words": {0, 2, 1}}}, "increasing"},
		{Config{Buckets: map[string][]float64{"words": {}}}, "no bounds"},
		{Config{Buckets: map[string][]float64{"f.ccb": {0}}}, "names no configured filter"},
		{Config{Filters: []string{"nosuch"}}, "nosuch"},
		{Config{Filters: []string{"lqf", "lqf"}}, "same filter"},
	} {
		_, err := NewExtractor(tc.cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewExtractor(%+v) = %v, want an error with %q", tc.cfg, err, tc.want)
		}
	}
}

func TestFilterFeatures(t *testing.T) {
	p := pagetest.Parse(t, navPage)
	cfg := Config{Filters: []string{"lqf", "union(dsc,bte)"}, Buckets: map[string][]float64{"f.lqf": {0, 0.5}}}
	e := extractor(t, cfg)
	if got := e.Keys(FilterScore); !slices.Equal(got, []string{"f.lqf", "f.union(dsc_bte)"}) {
		t.Errorf("filter keys = %v", got)
	}
	attrs := e.Attrs(p)
	for i, list := range attrs {
		v := value(list, "f.lqf")
		if v != "0" && v != "0.5" {
			t.Errorf("block %d: f.lqf=%q, want one of the configured buckets", i, v)
		}
		if value(list, "f.union(dsc_bte)") == "" {
			t.Errorf("block %d lacks the union filter", i)
		}
	}
	home := attrs[blockOf(t, p, "Home")]
	if !has(home, "f.lqf=0") {
		t.Errorf("lqf keeps the nav link: %v", names(home))
	}
}

func BenchmarkAttrs(b *testing.B) {
	p := pagetest.Parse(b, pagetest.Synthetic(rand.New(rand.NewPCG(1, 2)), 300))
	for _, bc := range []struct {
		name string
		cfg  func() Config
	}{
		{"default", DefaultConfig},
		{"nofilters", func() Config { c := DefaultConfig(); c.Filters = nil; return c }},
		{"filtersonly", func() Config {
			c := DefaultConfig()
			for _, g := range Groups() {
				c.Off[g] = g != FilterScore
			}
			return c
		}},
		{"ccb", func() Config { c := DefaultConfig(); c.Filters = append(c.Filters, "ccb"); return c }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			e := extractor(b, bc.cfg())
			attrs := 0
			for _, l := range e.Attrs(p) {
				attrs += len(l)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				e.Attrs(p)
			}
			b.ReportMetric(float64(len(p.Blocks)), "blocks")
			b.ReportMetric(float64(attrs)/float64(len(p.Blocks)), "attrs/block")
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pages/s")
		})
	}
}

// sharedPages reads up to n pages of each shared data set that has plain
// HTML files, for a benchmark on real pages; nil when the data is absent.
func sharedPages(b *testing.B, n int) []*page.Page {
	var pages []*page.Page
	for _, dir := range []string{"../../shared/data/cleaneval-dev/html", "../../shared/data/l3s-gn1/original"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.html"))
		slices.Sort(files)
		for _, f := range files[:min(n, len(files))] {
			src, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			pages = append(pages, pagetest.Parse(b, string(src)))
		}
	}
	return pages
}

// BenchmarkAttrsShared measures Attrs on real pages of the shared data
// (skipped without it); ns/op is per page.
func BenchmarkAttrsShared(b *testing.B) {
	pages := sharedPages(b, 100)
	if len(pages) == 0 {
		b.Skip("no shared data")
	}
	blocks := 0
	for _, p := range pages {
		blocks += len(p.Blocks)
	}
	e := extractor(b, DefaultConfig())
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		e.Attrs(pages[i%len(pages)])
		i++
	}
	b.ReportMetric(float64(blocks)/float64(len(pages)), "blocks/page")
}

func TestConfigJSONRoundTrip(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Off[Pattern] = true
	data, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var back Config
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	p := pagetest.Parse(t, navPage)
	want := extractor(t, cfg).Attrs(p)
	got := extractor(t, back).Attrs(p)
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Fatalf("block %d: %v after a JSON round trip, want %v", i, names(got[i]), names(want[i]))
		}
	}
}

func TestMalformedPage(t *testing.T) {
	// A node table that is not a tree in pre-order must not hang or panic.
	p := &page.Page{
		Nodes:  []page.Node{{Tag: "body", Parent: 1, Class: "main"}, {Tag: "div", Atom: atom.Div, Parent: 0, Class: "nav"}},
		Blocks: []page.Block{{Text: "Home", Node: 1, DivGroup: 1, TdGroup: -1, Words: 1, Chars: 4}, {Text: "x", Node: 0, DivGroup: 0, TdGroup: 0, Words: 1, Chars: 1}},
	}
	attrs := extractor(t, DefaultConfig()).Attrs(p)
	if len(attrs) != 2 || !has(attrs[0], "container=div") {
		t.Errorf("attrs = %v", attrs)
	}
}
