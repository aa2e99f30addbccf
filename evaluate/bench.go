package evaluate

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/dataset"
	"github.com/sluice-project/sluice/filter"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/render"
	"github.com/sluice-project/sluice/score"
)

// CombinE lists the filter combinations CombinE evaluated (Gottron 2009),
// in sluice's expression syntax; bench runs them with the single filters.
var CombinE = []string{
	"3*dsc", "3*bte", "3*accb", "lqf>dsc", "lqf>bte", "lqf>accb",
	"union(dsc,bte,accb)", "inter(dsc,bte,accb)", "vote(dsc,bte,accb)", "vote(dsc,bte,accb:2;2)",
}

// Model names the embedded trained labeller in a pipeline list, in its
// main style; "model:STYLE" names it in another annotation style (such as
// "model:cleaneval", see label.CleanEvalStyle). Its scores on the shared
// sets are on pages it was trained on: cross-validation (sluice train
// --cv) gives the fair figure.
const Model = "model"

// DefaultPipelines returns what bench runs by default: the embedded model
// in each of its styles, sluice's best heuristic pipeline, every registered
// filter, and CombinE's combinations.
func DefaultPipelines() []string { return defaultPipelines(nil) }

// defaultPipelines is DefaultPipelines with the styles of model (nil for
// the embedded one).
func defaultPipelines(model []byte) []string {
	out := []string{Model}
	if c, err := sluice.New(sluice.Options{Model: model}); err == nil {
		for _, st := range c.Styles()[1:] {
			out = append(out, Model+":"+st)
		}
	}
	out = append(out, sluice.DefaultFilter)
	for _, n := range filter.Names() {
		if n != sluice.DefaultFilter {
			out = append(out, n)
		}
	}
	return append(out, CombinE...)
}

// BenchConfig says what to run.
type BenchConfig struct {
	Pipelines []string // filter expressions; default DefaultPipelines()
	Sets      []string // data set names or directories; default every set
	Jobs      int      // pages cleaned in parallel; default GOMAXPROCS
	Limit     int      // at most this many pages per set; 0 means all
	// CJK is how the word-based metrics cut Han, kana, Thai... text
	// (score.CJKChars, every character a token, by default).
	CJK score.CJK
	// Progress, when set, is called after each page with the pages done
	// and the total of the current set.
	Progress func(set string, done, total int)
	// Model is the labeller (a model file of sluice train) that the
	// model pipelines ("model", "model:STYLE") run; nil for the embedded
	// one.
	Model []byte
}

// BenchResult is the outcome of a bench run, as written to JSON.
type BenchResult struct {
	Date      string      `json:"date"`
	GoVersion string      `json:"go_version"`
	Sets      []SetResult `json:"sets"`
}

// SetResult holds one data set's figures for every pipeline.
type SetResult struct {
	Set    string `json:"set"`
	Metric string `json:"metric"`
	Pages  int    `json:"pages"`
	Failed int    `json:"failed"` // pages the cleaner rejected (empty, binary)
	// Unreadable lists the pages the data set reader could not read (a
	// missing gold file...): they are not scored.
	Unreadable []string `json:"unreadable,omitempty"`
	// Languages are the page languages the set records (dataset.Page.Lang,
	// "" for a page without one), sorted; empty when it records none.
	Languages []string         `json:"languages,omitempty"`
	Pipelines []PipelineResult `json:"pipelines"`
}

// PipelineResult is one pipeline on one set.
type PipelineResult struct {
	Pipeline string       `json:"pipeline"`
	Score    score.Report `json:"score"`
	// PagesPerSec is pages cleaned per second of one core: ingest,
	// segmentation, scoring and rendering, timed per page.
	PagesPerSec float64 `json:"pages_per_sec"`
	// Emptied counts the pages with gold text of which nothing was kept.
	Emptied int `json:"emptied"`
	// ByLanguage is the score of the pages of each language, in a set of
	// more than one (SetResult.Languages).
	ByLanguage map[string]score.Report `json:"by_language,omitempty"`
}

// Bench runs every pipeline over every set and scores each with the set's
// main metric.
func Bench(ctx context.Context, cfg BenchConfig) (*BenchResult, error) {
	if len(cfg.Pipelines) == 0 {
		cfg.Pipelines = defaultPipelines(cfg.Model)
	}
	if len(cfg.Sets) == 0 {
		sets, err := dataset.Sets()
		if err != nil {
			return nil, err
		}
		cfg.Sets = sets
	}
	if cfg.Jobs <= 0 {
		cfg.Jobs = runtime.GOMAXPROCS(0)
	}
	cleaners := make([]*sluice.Cleaner, len(cfg.Pipelines))
	for i, expr := range cfg.Pipelines {
		opts := sluice.Options{Filter: expr}
		switch style, ok := strings.CutPrefix(expr, Model+":"); {
		case ok:
			opts.Filter, opts.Style = "", style
		case expr == Model:
			opts.Filter = ""
		}
		if opts.Filter == "" {
			opts.Model = cfg.Model
		}
		c, err := sluice.New(opts)
		if err != nil {
			return nil, fmt.Errorf("pipeline %q: %w", expr, err)
		}
		cleaners[i] = c
	}
	res := &BenchResult{Date: time.Now().UTC().Format(time.RFC3339), GoVersion: runtime.Version()}
	for _, name := range cfg.Sets {
		set, err := dataset.Open(name)
		if err != nil {
			return nil, err
		}
		sr, err := benchSet(ctx, set, cfg, cleaners)
		if err != nil {
			return nil, err
		}
		res.Sets = append(res.Sets, *sr)
	}
	return res, nil
}

// pageResult is what one page gives for every pipeline.
type pageResult struct {
	counts  []score.Counts
	nanos   []int64 // per pipeline: segmentation time plus its own time
	empty   []bool
	failed  bool
	hasGold bool
}

func benchSet(ctx context.Context, set *dataset.Set, cfg BenchConfig, cleaners []*sluice.Cleaner) (*SetResult, error) {
	metric, err := Lookup(Main(set.Kind))
	if err != nil {
		return nil, err
	}
	metric.CJK = cfg.CJK
	var unreadable []string
	pages := ReadPages(set, cfg.Limit, func(err error) { unreadable = append(unreadable, err.Error()) })
	var progress func(done, total int)
	if cfg.Progress != nil {
		progress = func(done, total int) { cfg.Progress(set.Name, done, total) }
	}
	results, _ := MapPages(ctx, pages, cfg.Jobs, progress, func(ctx context.Context, p *dataset.Page) (pageResult, error) {
		return benchPage(ctx, p, cleaners, metric), nil
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	sr := &SetResult{Set: set.Name, Metric: metric.Label(), Pages: len(pages), Unreadable: unreadable, Languages: languages(pages)}
	for k, c := range cleaners {
		sr.Pipelines = append(sr.Pipelines, sr.summarise(k, c.Filter(), pages, results, metric))
	}
	return sr, nil
}

// languages returns the distinct languages of pages, sorted: none when no
// page records one.
func languages(pages []*dataset.Page) []string {
	var out []string
	known := false
	for _, p := range pages {
		known = known || p.Lang != ""
		if !slices.Contains(out, p.Lang) {
			out = append(out, p.Lang)
		}
	}
	if !known {
		return nil
	}
	slices.Sort(out)
	return out
}

// summarise sums pipeline k's page results into its figures (per language
// too, in a set of several), counting failed pages in sr.Failed once (for
// k = 0).
func (sr *SetResult) summarise(k int, name string, pages []*dataset.Page, results []pageResult, metric Metric) PipelineResult {
	var sum score.Summary
	var byLang map[string]*score.Summary
	if len(sr.Languages) > 1 {
		byLang = map[string]*score.Summary{}
		for _, l := range sr.Languages {
			byLang[l] = &score.Summary{}
		}
	}
	var nanos int64
	pr := PipelineResult{Pipeline: name}
	for i := range results {
		r := &results[i]
		var c score.Counts
		if r.failed {
			if k == 0 {
				sr.Failed++
			}
			c = metric.Score(&Output{}, &pages[i].Gold) // nothing extracted
		} else {
			c = r.counts[k]
			nanos += r.nanos[k]
			if r.empty[k] && r.hasGold {
				pr.Emptied++
			}
		}
		sum.Add(c)
		if byLang != nil {
			byLang[pages[i].Lang].Add(c)
		}
	}
	pr.Score = sum.Report()
	for l, s := range byLang {
		if pr.ByLanguage == nil {
			pr.ByLanguage = map[string]score.Report{}
		}
		pr.ByLanguage[l] = s.Report()
	}
	if nanos > 0 {
		pr.PagesPerSec = float64(len(pages)-sr.Failed) / (float64(nanos) / 1e9)
	}
	return pr
}

// benchPage segments a page once and scores it with every pipeline.
func benchPage(ctx context.Context, p *dataset.Page, cleaners []*sluice.Cleaner, metric Metric) pageResult {
	r := pageResult{hasGold: strings.TrimSpace(p.Gold.Text) != ""}
	t0 := time.Now()
	seg, err := cleaners[0].Segment(ctx, sluice.Input{Data: p.HTML, URL: p.URL})
	if err != nil {
		r.failed = true
		return r
	}
	segNanos := time.Since(t0).Nanoseconds()
	r.counts = make([]score.Counts, len(cleaners))
	r.nanos = make([]int64, len(cleaners))
	r.empty = make([]bool, len(cleaners))
	for k, c := range cleaners {
		t := time.Now()
		c.Score(seg.Page)
		out := OutputOf(seg.Page)
		r.nanos[k] = segNanos + time.Since(t).Nanoseconds()
		r.counts[k] = metric.Score(out, &p.Gold)
		r.empty[k] = strings.TrimSpace(out.Text) == ""
	}
	return r
}

var (
	ceRenderer, _   = render.Lookup("cleaneval", render.Options{})
	textRenderer, _ = render.Lookup("text", render.Options{})
)

// OutputOf renders a labelled page as the metrics read it.
func OutputOf(p *page.Page) *Output {
	var ce, txt strings.Builder
	ceRenderer.Render(&ce, p)
	textRenderer.Render(&txt, p)
	return &Output{CleanEval: ce.String(), Text: txt.String()}
}
