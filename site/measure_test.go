package site_test

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/dataset"
	"github.com/sluice-project/sluice/evaluate"
	"github.com/sluice-project/sluice/filter"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/site"
	"github.com/sluice-project/sluice/structure"
)

// sitePage is one page of cleanportaleval, segmented once and labelled
// once by the default cleaner.
type sitePage struct {
	d   *dataset.Page
	seg *page.Page
	lab *page.Page
}

func loadPortal(t *testing.T) (map[string][]*sitePage, *sluice.Cleaner) {
	t.Helper()
	set, err := dataset.Open("cleanportaleval")
	if err != nil {
		t.Skipf("no cleanportaleval: %v", err)
	}
	var opts sluice.Options
	if f := os.Getenv("SLUICE_SITE_TEST_MODEL"); f != "" { // a model trained without these pages (docs/site.md)
		if opts.Model, err = os.ReadFile(f); err != nil {
			t.Fatal(err)
		}
	}
	c, err := sluice.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	sites := map[string][]*sitePage{}
	for p, err := range set.Pages() {
		if err != nil {
			t.Logf("skipped: %v", err)
			continue
		}
		res, err := c.Segment(context.Background(), sluice.Input{Data: p.HTML, URL: p.URL})
		if err != nil {
			t.Logf("%s: %v", p.ID, err)
			continue
		}
		lab := clonePage(res.Page)
		c.Score(lab)
		sites[p.Site] = append(sites[p.Site], &sitePage{d: p, seg: res.Page, lab: lab})
	}
	if len(sites) == 0 {
		t.Skip("no cleanportaleval pages")
	}
	return sites, c
}

func clonePage(p *page.Page) *page.Page {
	c := *p
	c.Blocks = append([]page.Block(nil), p.Blocks...)
	return &c
}

// leaveOneOut builds the model of the pages of a site other than page i,
// as the default cleaner labelled them (the path prior reads the labels;
// the template does not).
func leaveOneOut(pages []*sitePage, i int, opts site.Options) *site.Model {
	b := site.NewBuilder(opts)
	for j, q := range pages {
		if j != i {
			b.Add(q.lab)
		}
	}
	return b.Build()
}

// reference returns the reference page for page i: the median size among
// the other pages of its site.
func reference(pages []*sitePage, i int) *page.Page {
	var sizes []int
	var idx []int
	for j, q := range pages {
		if j != i {
			sizes = append(sizes, len(q.d.HTML))
			idx = append(idx, j)
		}
	}
	r := site.Reference(sizes)
	if r < 0 {
		return nil
	}
	return pages[idx[r]].seg
}

// variant labels a copy of page i of a site.
type variant struct {
	name string
	run  func(pages []*sitePage, i int) *page.Page
}

func variants(t *testing.T, c *sluice.Cleaner, opts site.Options) []variant {
	lt, err := sluice.New(sluice.Options{Filter: "lqf>targetnode"})
	if err != nil {
		t.Fatal(err)
	}
	lqf, err := filter.Lookup("lqf")
	if err != nil {
		t.Fatal(err)
	}
	tn, err := filter.Lookup("targetnode")
	if err != nil {
		t.Fatal(err)
	}
	runFilter := func(f filter.Filter, p *page.Page) {
		s := filter.Run(f, p)
		for k := range p.Blocks {
			p.Blocks[k].Score = s[k]
		}
		structure.Label(p, structure.Threshold)
	}
	// What sluice corpus --site uses with each cleaner
	// (corpus.SiteModelOptions): the path prior for the model, the rescue
	// of prose for the pipelines.
	withPrior, withRescue := opts, opts
	withPrior.Prior = site.DefaultPrior
	withRescue.Rescue = true
	return []variant{
		{"default", func(ps []*sitePage, i int) *page.Page {
			return clonePage(ps[i].lab)
		}},
		{"default+template", func(ps []*sitePage, i int) *page.Page {
			p := clonePage(ps[i].lab)
			leaveOneOut(ps, i, opts).Apply(p, false)
			return p
		}},
		{"default+site", func(ps []*sitePage, i int) *page.Page {
			p := clonePage(ps[i].lab)
			leaveOneOut(ps, i, withPrior).Apply(p, false)
			return p
		}},
		{"lqf>targetnode", func(ps []*sitePage, i int) *page.Page {
			p := clonePage(ps[i].seg)
			lt.Score(p)
			return p
		}},
		{"lqf>targetnode+site", func(ps []*sitePage, i int) *page.Page {
			p := clonePage(ps[i].seg)
			lt.Score(p)
			leaveOneOut(ps, i, withRescue).Apply(p, false)
			return p
		}},
		{"default+site+rescue", func(ps []*sitePage, i int) *page.Page {
			p := clonePage(ps[i].lab)
			o := withPrior
			o.Rescue = true
			leaveOneOut(ps, i, o).Apply(p, false)
			return p
		}},
		{"site>lqf>targetnode", func(ps []*sitePage, i int) *page.Page {
			p := clonePage(ps[i].seg)
			m := leaveOneOut(ps, i, opts)
			runFilter(filter.Serial(site.Filter{Model: m}, lqf, tn), p)
			return p
		}},
		{"multifile", func(ps []*sitePage, i int) *page.Page {
			p := clonePage(ps[i].seg)
			common := site.MultiFile(p, reference(ps, i))
			for k := range p.Blocks {
				p.Blocks[k].Score = 1
				if common[k] {
					p.Blocks[k].Score = 0
				}
			}
			structure.Label(p, structure.Threshold)
			return p
		}},
		{"default+multifile", func(ps []*sitePage, i int) *page.Page {
			p := clonePage(ps[i].seg)
			c.Score(p)
			site.Remove(p, site.MultiFile(p, reference(ps, i)))
			return p
		}},
	}
}

type figures struct {
	perSite map[string][]float64 // variant index → macro F1
	overall []float64
}

func measure(t *testing.T, sites map[string][]*sitePage, vs []variant) figures {
	metric, err := evaluate.Lookup("cleaneval")
	if err != nil {
		t.Fatal(err)
	}
	names := sortedKeys(sites)
	f := figures{perSite: map[string][]float64{}, overall: make([]float64, len(vs))}
	total := 0
	for _, s := range names {
		pages := sites[s]
		sums := make([]float64, len(vs))
		var mu sync.Mutex
		var wg sync.WaitGroup
		for i := range pages {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for k, v := range vs {
					p := v.run(pages, i)
					f1 := metric.Score(evaluate.OutputOf(p), &pages[i].d.Gold).F1()
					mu.Lock()
					sums[k] += f1
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		for k := range vs {
			f.overall[k] += sums[k]
			sums[k] /= float64(len(pages))
		}
		f.perSite[s] = sums
		total += len(pages)
	}
	for k := range vs {
		f.overall[k] /= float64(total)
	}
	return f
}

func logFigures(t *testing.T, sites map[string][]*sitePage, vs []variant, f figures) {
	var sb strings.Builder
	fmt.Fprintf(&sb, "CleanEval text-only macro F1 on cleanportaleval\n%-22s", "site (pages)")
	for _, v := range vs {
		fmt.Fprintf(&sb, " %20s", v.name)
	}
	total := 0
	for _, s := range sortedKeys(f.perSite) {
		fmt.Fprintf(&sb, "\n%-22s", fmt.Sprintf("%s (%d)", s, len(sites[s])))
		for _, x := range f.perSite[s] {
			fmt.Fprintf(&sb, " %20.4f", x)
		}
		total += len(sites[s])
	}
	fmt.Fprintf(&sb, "\n%-22s", fmt.Sprintf("all (%d)", total))
	for _, x := range f.overall {
		fmt.Fprintf(&sb, " %20.4f", x)
	}
	t.Log(sb.String())
}

// TestCleanPortalEval measures the site model and WC Cleaner's multi-file
// method on the four sites of cleanportaleval, leave-one-out: each page is
// judged by a model of the other pages of its site, and compared with a
// reference page chosen among them (the median size). It guards the claim
// that the site model raises the F1 of page-by-page cleaning, for the
// default cleaner and for the lqf>targetnode pipeline. Run with -v for the
// figures, a sweep of the threshold and the gold text the model drops.
func TestCleanPortalEval(t *testing.T) {
	if testing.Short() {
		t.Skip("data set measurement")
	}
	sites, c := loadPortal(t)
	vs := variants(t, c, site.Options{})
	f := measure(t, sites, vs)
	logFigures(t, sites, vs, f)
	const def, defSite, lt, ltSite = 0, 2, 3, 4
	// The embedded model was trained on these pages, so it leaves little
	// template to remove: the site model must not make it worse by more
	// than three tenths of a point (with the boosted model of 2026-11-25
	// it read 0.8994 against 0.8996, with the context trees of 2026-11-26
	// 0.8967 against 0.8980, the loss all on tv.msnbc.com, with the model
	// retrained on 2026-12-02 0.9015 against 0.9043, on bbc.co.uk and
	// tv.msnbc.com). The heuristic pipeline, which never saw them, must
	// gain.
	if f.overall[defSite] < f.overall[def]-0.003 {
		t.Errorf("site model: F1 %.4f, below page-by-page cleaning %.4f", f.overall[defSite], f.overall[def])
	}
	// A model that never saw the sites (docs/experiments.md, "Site
	// models": 0.8912 → 0.8986 with the path prior) must gain.
	if os.Getenv("SLUICE_SITE_TEST_MODEL") != "" && f.overall[defSite] <= f.overall[def] {
		t.Errorf("site model with a model trained without these pages: F1 %.4f, not above page-by-page cleaning %.4f", f.overall[defSite], f.overall[def])
	}
	if f.overall[ltSite] <= f.overall[lt] {
		t.Errorf("site model: F1 %.4f, not above lqf>targetnode %.4f", f.overall[ltSite], f.overall[lt])
	}
	if !testing.Verbose() {
		return
	}
	// The threshold and the key, with the default cleaner and with
	// lqf>targetnode.
	var sb strings.Builder
	sb.WriteString("site model settings: macro F1 of default+site, lqf>targetnode+site")
	for _, key := range []site.Key{site.TextKey, site.PathKey} {
		for _, share := range []float64{0.1, 0.2, 0.3, 0.5, 1} {
			opts := site.Options{Key: key, Share: share}
			all := variants(t, c, opts)
			f := measure(t, sites, []variant{all[defSite], all[ltSite]})
			fmt.Fprintf(&sb, "\n  key %-4s share %.1f: %.4f %.4f", key, share, f.overall[0], f.overall[1])
		}
	}
	t.Log(sb.String())
	logDroppedGold(t, sites, c)
}

// logDroppedGold logs the blocks kept by the default cleaner that the site
// model drops although the gold has them as a segment.
func logDroppedGold(t *testing.T, sites map[string][]*sitePage, c *sluice.Cleaner) {
	norm := func(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }
	var sb strings.Builder
	n, all := 0, 0
	for _, s := range sortedKeys(sites) {
		pages := sites[s]
		for i, sp := range pages {
			p := clonePage(sp.lab)
			tmpl := leaveOneOut(pages, i, site.Options{}).Template(p, false)
			gold := map[string]bool{}
			for _, seg := range sp.d.Gold.Segments {
				gold[norm(seg.Text)] = true
			}
			for k, b := range p.Blocks {
				if !tmpl[k] || !b.Label.Kept() {
					continue
				}
				all++
				if gold[norm(b.Text)] {
					n++
					fmt.Fprintf(&sb, "\n  %s: %q", sp.d.ID, b.Text)
				}
			}
		}
	}
	t.Logf("kept blocks dropped by the site model: %d, of which gold segments: %d%s", all, n, sb.String())
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// TestCleanPortalEvalMultiFile guards the figures of docs/site-multifile.md
// (which come from scripts/multifile-eval.sh): WC Cleaner's multiple-file
// mode over each site of cleanportaleval at once, the median page as the
// reference, in its modes. It must stay above the thesis's own level
// (F1 0.66 in its Table 3.3), and the from-target mode above the plain one.
func TestCleanPortalEvalMultiFile(t *testing.T) {
	if testing.Short() {
		t.Skip("data set measurement")
	}
	sites, _ := loadPortal(t)
	metric, err := evaluate.Lookup("cleaneval")
	if err != nil {
		t.Fatal(err)
	}
	modes := []struct {
		name string
		opts site.MultiFileOptions
	}{
		{"multifile", site.MultiFileOptions{}},
		{"from-target", site.MultiFileOptions{FromTarget: true}},
		{"prune", site.MultiFileOptions{Prune: true}},
		{"sparse", site.MultiFileOptions{Sparse: true}},
	}
	f1 := make([]float64, len(modes))
	n := 0
	for _, s := range sortedKeys(sites) {
		ps := sites[s]
		n += len(ps)
		for k, m := range modes {
			pages := make([]*page.Page, len(ps))
			sizes := make([]int, len(ps))
			for i, p := range ps {
				pages[i], sizes[i] = clonePage(p.seg), len(p.d.HTML)
			}
			if _, err := site.CleanMultiFile(pages, sizes, nil, m.opts); err != nil {
				t.Fatalf("%s, %s: %v", s, m.name, err)
			}
			for i, p := range pages {
				f1[k] += metric.Score(evaluate.OutputOf(p), &ps[i].d.Gold).F1()
			}
		}
	}
	for k, m := range modes {
		f1[k] /= float64(n)
		t.Logf("%-12s CleanEval text-only macro F1 %.4f", m.name, f1[k])
	}
	if f1[0] < 0.66 {
		t.Errorf("multifile: F1 %.4f, below 0.66", f1[0])
	}
	if f1[1] <= f1[0] {
		t.Errorf("from-target: F1 %.4f, not above the plain mode's %.4f", f1[1], f1[0])
	}
}
