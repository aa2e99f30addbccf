package train

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/dataset"
	"github.com/sluice-project/sluice/evaluate"
	"github.com/sluice-project/sluice/label"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/score"
)

// TrainPage is one page prepared for training: segmented, with labels
// derived from its gold standard (aligned with it, or, for an annotated
// set, the annotation's own labels).
//
// A page the labeller cannot learn from (its gold has no text, the page
// has no text blocks, or the gold aligns with too little of it) is still a
// test page: a benchmark scores every page of its set, and leaving out the
// pages no labeller does well on would flatter the scores. Such a page has
// ScoreOnly set to the reason and no labels; CrossValidate scores it on
// its fold, and training leaves it out (see Examples).
type TrainPage struct {
	Data    *dataset.Page
	Kind    dataset.Kind
	Example Example
	Quality float64 // share of gold tokens the alignment matched; 1 for an annotation
	// ScoreOnly, when not empty, says why the page is scored but not
	// trained on.
	ScoreOnly string
}

// Examples returns the training examples of the pages that have labels
// (those without ScoreOnly).
func Examples(pages []*TrainPage) []Example {
	var ex []Example
	for _, p := range pages {
		if p.ScoreOnly == "" {
			ex = append(ex, p.Example)
		}
	}
	return ex
}

// LoadOptions configures LoadTraining.
type LoadOptions struct {
	// MinQuality drops pages whose gold aligns worse than this (a gold text
	// the page does not contain teaches the labeller nothing). Default 0.5.
	MinQuality float64
	// Limit keeps at most this many pages per set (0: all).
	Limit int
	Jobs  int
	// Progress, when set, is called after each page.
	Progress func(set string, done, total int)
	// Styles gives the annotation style of a set's labels by set name
	// (see label.MainStyle); sets left out get DefaultStyle.
	Styles map[string]string
	// Skip, when set, is called for each page left out, with the reason:
	// a *dataset.PageError for a page that could not be read, a
	// *SkipError otherwise (an annotation that does not match its page
	// among them). It is called from one goroutine at a time.
	Skip func(set *dataset.Set, id string, reason error)
	// TypeWeights weighs the pages of a page type (dataset Gold.PageType,
	// WCXB's "product", "listing"...) in training by this factor
	// (Example.Weight); other pages weigh 1.
	TypeWeights map[string]float64
}

// SkipError says why LoadTraining left a page out of training.
type SkipError struct {
	// Path is the file at fault when the reason is in one (the annotation
	// of an annotated set), else "".
	Path string
	Err  error
	// Scored is true when the page is kept as a test page all the same
	// (TrainPage.ScoreOnly).
	Scored bool
}

// Error gives the reason, after the file at fault when there is one, as
// "FILE:LINE: message" for a line of an annotation.
func (e *SkipError) Error() string {
	var ae *dataset.AnnotationError
	switch {
	case e.Path == "":
		return e.Err.Error()
	case errors.As(e.Err, &ae) && ae.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.Path, ae.Line, ae.Msg)
	case errors.As(e.Err, &ae):
		return e.Path + ": " + ae.Msg
	}
	return e.Path + ": " + e.Err.Error()
}

func (e *SkipError) Unwrap() error { return e.Err }

// DefaultStyle is the annotation style of a data set unless told
// otherwise, as its kind says (dataset.KindSpec.DefaultStyle):
// label.CleanEvalStyle for the CleanEval task's own sets (names starting
// with "cleaneval", such as cleaneval-dev), whose annotators kept all
// running text, and label.MainStyle for every other set, which keep a
// page's main content (CleanPortalEval, though in CleanEval's format, is
// annotated that way).
func DefaultStyle(set *dataset.Set) string {
	return set.Kind.Spec().DefaultStyle(set.Name)
}

// LoadTraining reads data sets, segments every page with the default
// ingest and segment options and labels its blocks: by aligning them with
// the gold, or, for a set whose gold labels the blocks itself (an
// annotated set, dataset.KindSpec.Annotated), with the labels of the
// annotation (ApplyAnnotation), continuation included. It returns the
// pages, those to score only among them (TrainPage.ScoreOnly), and the
// number of pages left out altogether per set: unreadable, or annotated by
// hand with an annotation that does not match the page.
func LoadTraining(ctx context.Context, sets []string, opts LoadOptions) ([]*TrainPage, map[string]int, error) {
	if opts.MinQuality == 0 {
		opts.MinQuality = 0.5
	}
	if opts.Jobs <= 0 {
		opts.Jobs = runtime.GOMAXPROCS(0)
	}
	c, err := sluice.New(sluice.Options{Filter: sluice.DefaultFilter})
	if err != nil {
		return nil, nil, err
	}
	var out []*TrainPage
	skipped := map[string]int{}
	for _, name := range sets {
		set, style, err := openTrainingSet(name, opts.Styles)
		if err != nil {
			return nil, nil, err
		}
		skip := func(id string, reason error) {
			skipped[set.Name]++
			if opts.Skip != nil {
				opts.Skip(set, id, reason)
			}
		}
		pages := readPages(set, opts.Limit, skip)
		res, errs := prepareAll(ctx, c, set, pages, opts)
		for i, tp := range res {
			var why *SkipError
			switch {
			case errs[i] != nil:
				if !errors.As(errs[i], &why) || !why.Scored {
					skip(pages[i].ID, errs[i])
					continue
				}
			case tp.Quality < opts.MinQuality:
				why = &SkipError{Err: fmt.Errorf("the gold aligns with only %.0f%% of its words (--min-quality %g)", 100*tp.Quality, opts.MinQuality), Scored: true}
			}
			if why != nil {
				if opts.Skip != nil {
					opts.Skip(set, pages[i].ID, why)
				}
				tp.ScoreOnly = why.Err.Error()
				tp.Example.Labels = nil
			}
			tp.Example.Style = style
			if w, ok := opts.TypeWeights[tp.Data.Gold.PageType]; ok && tp.Data.Gold.PageType != "" {
				tp.Example.Weight = w
			}
			out = append(out, tp)
		}
	}
	return out, skipped, ctx.Err()
}

// openTrainingSet opens the data set name and returns it with its
// annotation style: the one styles gives for its name (or for name as
// given), else DefaultStyle.
func openTrainingSet(name string, styles map[string]string) (*dataset.Set, string, error) {
	set, err := dataset.Open(name)
	if err != nil {
		return nil, "", err
	}
	style, ok := styles[set.Name]
	if !ok {
		style, ok = styles[name]
	}
	if !ok {
		style = DefaultStyle(set)
	}
	if err := label.CheckStyle(style); err != nil {
		return nil, "", fmt.Errorf("%s: %w", set.Name, err)
	}
	return set, style, nil
}

// readPages reads the pages of a set, at most limit of them (0: all),
// passing those that cannot be read to skip with their id.
func readPages(set *dataset.Set, limit int, skip func(id string, reason error)) []*dataset.Page {
	return evaluate.ReadPages(set, limit, func(err error) {
		var pe *dataset.PageError
		id := ""
		if errors.As(err, &pe) {
			id = pe.ID
		}
		skip(id, err)
	})
}

// prepareAll prepares the pages of a set on opts.Jobs goroutines
// (evaluate.MapPages), calling opts.Progress after each, and returns what
// prepare returns for each.
func prepareAll(ctx context.Context, c *sluice.Cleaner, set *dataset.Set, pages []*dataset.Page, opts LoadOptions) ([]*TrainPage, []error) {
	var progress func(done, total int)
	if opts.Progress != nil {
		progress = func(done, total int) { opts.Progress(set.Name, done, total) }
	}
	return evaluate.MapPages(ctx, pages, opts.Jobs, progress, func(ctx context.Context, p *dataset.Page) (*TrainPage, error) {
		return prepare(ctx, c, set, p)
	})
}

// prepare segments a page and labels its blocks. An annotated page is
// kept even when all its blocks are [o]: a person said so, and a page
// annotated by hand that cannot be segmented, or whose annotation does not
// match it, is left out rather than scored. A page that cannot be learnt
// from is returned all the same, with a *SkipError whose Scored is set:
// the page, as the cleaner sees it (no blocks when it could not be
// segmented), is a test page.
func prepare(ctx context.Context, c *sluice.Cleaner, set *dataset.Set, p *dataset.Page) (*TrainPage, error) {
	kind := set.Kind
	annotated := kind.Spec().Annotated()
	scoreOnly := func(pg *page.Page, err error) (*TrainPage, error) {
		return &TrainPage{Data: p, Kind: kind, Example: Example{Page: pg, Group: siteGroup(p)}}, &SkipError{Err: err, Scored: true}
	}
	seg, err := c.Segment(ctx, sluice.Input{Data: p.HTML, URL: p.URL})
	switch {
	case err != nil && annotated:
		return nil, &SkipError{Err: err}
	case err != nil:
		return scoreOnly(&page.Page{}, err)
	case len(seg.Page.Blocks) == 0 && annotated:
		return nil, &SkipError{Err: errors.New("the page has no text blocks")}
	case len(seg.Page.Blocks) == 0:
		return scoreOnly(seg.Page, errors.New("the page has no text blocks"))
	}
	if annotated {
		labels, err := ApplyAnnotation(seg.Page, p.Gold.Annotation)
		if err != nil {
			return nil, &SkipError{Path: set.GoldPath(p.ID), Err: err}
		}
		return &TrainPage{Data: p, Kind: kind, Example: Example{Page: seg.Page, Labels: labels, Group: siteGroup(p)}, Quality: 1}, nil
	}
	if strings.TrimSpace(p.Gold.Text) == "" {
		return scoreOnly(seg.Page, errors.New("no gold text"))
	}
	labels, q := Align(seg.Page, &p.Gold, kind.Spec().Alignment())
	return &TrainPage{Data: p, Kind: kind, Example: Example{Page: seg.Page, Labels: labels, Group: siteGroup(p)}, Quality: q}, nil
}

// Folds assigns pages to k folds so that pages of one site never fall in
// two folds (sites from dataset.Page.Site; pages without one are their own
// group), the sites dealt in the order of seed (see AssignFoldsSeeded,
// Config.FoldSeed; 0 is the fixed order).
func Folds(pages []*TrainPage, k int, seed uint64) []int {
	groups := make([]string, len(pages))
	for i, p := range pages {
		groups[i] = siteGroup(p.Data)
	}
	return AssignFoldsSeeded(groups, k, seed)
}

// siteGroup is the group of a page for fold assignment: its set and site,
// or its set and id when the set does not say its site.
func siteGroup(p *dataset.Page) string {
	if p.Site == "" {
		return p.Set + "#" + p.ID
	}
	return p.Set + "/" + p.Site
}

// CVResult is the outcome of a cross-validation.
type CVResult struct {
	Folds []FoldResult `json:"folds"`
	// Overall pools the test pages of every fold.
	Overall FoldResult `json:"overall"`
	// Thresholds are the decision thresholds the scores are given at, per
	// annotation style: the one CrossValidate was given, or the ones it
	// chose (see ThresholdGrid).
	Thresholds map[string]float64 `json:"thresholds"`
	// Sweep holds, when CrossValidate chose the thresholds, the macro F1 of
	// each set's main metric at each threshold of the grid.
	Sweep []SweepPoint `json:"sweep,omitempty"`
	// Marginals are the held-out marginals of every page (in the order
	// of the pages given), and Fold the fold each was held out of.
	Marginals [][][]float64 `json:"-"`
	Fold      []int         `json:"-"`
	// Pages holds each page's held-out score (in the order of the pages
	// given), for finding the pages a model fails on.
	Pages []PageScore `json:"pages"`
}

// PageScore is one page's held-out score in a cross-validation.
type PageScore struct {
	Set      string `json:"set"`
	ID       string `json:"id"`
	PageType string `json:"page_type,omitempty"`
	Fold     int    `json:"fold"`
	// Metric is the set's main metric, and P, R and F1 its scores.
	Metric string  `json:"metric"`
	P      float64 `json:"p"`
	R      float64 `json:"r"`
	F1     float64 `json:"f1"`
	// Fallback: the labeller kept nothing, and the page was cleaned by
	// the heuristic pipeline, as sluice.Cleaner does.
	Fallback bool `json:"fallback,omitempty"`
	// ScoreOnly is why the page was not trained on (TrainPage.ScoreOnly).
	ScoreOnly string `json:"score_only,omitempty"`
}

// SweepPoint is the macro F1 (of each set's main metric) of every set at
// one decision threshold.
type SweepPoint struct {
	Threshold float64            `json:"threshold"`
	F1        map[string]float64 `json:"f1"`
}

// ThresholdGrid are the decision thresholds (the expected-F1 rule first)
// among which CrossValidate chooses, for each annotation style, the one whose held-out scores are
// best: the mean over the style's sets of the macro F1 of their main
// metric, so that each set counts the same whatever its size.
var ThresholdGrid = []float64{label.ExpectedF1, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7}

// FoldResult holds the scores of one fold's test pages (or of all).
type FoldResult struct {
	Fold      int           `json:"fold"`
	Pages     int           `json:"pages"`
	TrainTime time.Duration `json:"train_time_ns"`
	// Accuracy is block labelling accuracy over the five labels, Content
	// over content vs noise, against the aligned gold labels.
	Accuracy float64 `json:"accuracy"`
	Content  float64 `json:"content_accuracy"`
	// Sets holds, per data set, the cleaning scores of the test pages.
	Sets map[string]*SetScores `json:"sets"`

	confusion score.Confusion
}

// SetScores are the cleaning scores of one set's test pages.
type SetScores struct {
	Metric    string                    `json:"metric"`
	Main      score.Report              `json:"main"`
	Labelled  score.Report              `json:"cleaneval_labelled,omitempty"`
	PageTypes map[string]*score.Summary `json:"-"`
	// Accuracy and Content are the block labelling accuracies of the set's
	// pages (all labels; content vs noise), against the aligned labels.
	Accuracy float64 `json:"accuracy"`
	Content  float64 `json:"content_accuracy"`
	// Classes holds, for L3S-GN1, the content-vs-noise accuracy of the
	// blocks of each annotated span class (AlignClasses): the
	// boilerplate class counts as right when dropped, the headline and
	// full-text classes when kept, and the other classes (supplemental,
	// related content, comments) are reported as the share kept.
	Classes   []ClassAccuracy `json:"classes,omitempty"`
	main      score.Summary
	labelled  score.Summary
	confusion score.Confusion
	classes   [dataset.ClassComments + 1]struct{ blocks, kept int }
}

// ClassAccuracy is the share of one L3S-GN1 span class's blocks that the
// labeller kept as content.
type ClassAccuracy struct {
	Class  int     `json:"class"`
	Name   string  `json:"name"`
	Blocks int     `json:"blocks"`
	Kept   float64 `json:"kept"`
}

// l3sClassNames names the L3S-GN1 span classes, as the data set does.
var l3sClassNames = [...]string{"boilerplate", "headline", "full text", "supplemental", "related content", "user comments"}

// CrossValidate trains k labellers, each on all folds but one, and scores
// each on its held-out fold, at threshold (label.ExpectedF1 for the
// expected-F1 rule). With threshold 0 it chooses the decision
// threshold of each annotation style from ThresholdGrid on the held-out
// labellings, and gives the scores at those (the choice is made on the
// same pages the scores are from, so they are slightly optimistic; a
// threshold is one number per style, against thousands of weights).
func CrossValidate(ctx context.Context, pages []*TrainPage, k int, cfg Config, threshold float64, logf func(string, ...any)) (*CVResult, error) {
	if k < 2 {
		return nil, fmt.Errorf("cross-validation needs at least 2 folds, not %d", k)
	}
	if err := checkThreshold(threshold); err != nil {
		return nil, err
	}
	fold := Folds(pages, k, cfg.FoldSeed)
	labs := make([]*label.Labeller, k)
	marg := make([][][]float64, len(pages))
	var trainTime []time.Duration
	for f := range k {
		var train []Example
		for i, p := range pages {
			if fold[i] != f && p.ScoreOnly == "" {
				train = append(train, p.Example)
			}
		}
		t0 := time.Now()
		lab, err := Train(ctx, train, cfg)
		if err != nil {
			return nil, fmt.Errorf("fold %d: %w", f, err)
		}
		trainTime = append(trainTime, time.Since(t0))
		labs[f] = lab
		for i, p := range pages {
			if fold[i] != f {
				continue
			}
			if marg[i], err = lab.Marginals(p.Example.Page, p.Example.Style); err != nil {
				return nil, fmt.Errorf("fold %d: %s/%s: %w", f, p.Data.Set, p.Data.ID, err)
			}
		}
		if logf != nil {
			logf("fold %d: trained on %d pages in %s", f, len(train), trainTime[f].Round(time.Second))
		}
	}
	res, err := ScoreHeldOut(pages, fold, labs, marg, threshold, logf)
	if err != nil {
		return nil, err
	}
	for f := range res.Folds {
		res.Folds[f].TrainTime = trainTime[f]
		res.Overall.TrainTime += trainTime[f]
	}
	return res, nil
}

// ScoreHeldOut scores held-out labellings as CrossValidate does: pages[i]
// was held out of fold[i], whose labeller is labs[fold[i]], and marg[i] are
// its marginals (as label.Labeller.Marginals gives them); threshold as for
// CrossValidate. It lets a decision rule be studied on the marginals of one
// cross-validation (see CVResult.Marginals) without training again.
func ScoreHeldOut(pages []*TrainPage, fold []int, labs []*label.Labeller, marg [][][]float64, threshold float64, logf func(string, ...any)) (*CVResult, error) {
	if err := checkThreshold(threshold); err != nil {
		return nil, err
	}
	if len(fold) != len(pages) || len(marg) != len(pages) {
		return nil, fmt.Errorf("%d pages with %d folds and %d marginals", len(pages), len(fold), len(marg))
	}
	for i, f := range fold {
		if f < 0 || f >= len(labs) || labs[f] == nil {
			return nil, fmt.Errorf("page %d: fold %d has no labeller", i, f)
		}
	}
	k := len(labs)
	res := &CVResult{Overall: FoldResult{Fold: -1, Sets: map[string]*SetScores{}}, Thresholds: map[string]float64{}, Marginals: marg, Fold: fold,
		Pages: make([]PageScore, len(pages))}
	for _, p := range pages {
		res.Thresholds[styleOf(p)] = threshold
	}
	if threshold == 0 {
		res.sweep(pages, fold, labs, marg)
	}
	for f := range k {
		fr := FoldResult{Fold: f, Sets: map[string]*SetScores{}}
		for i, p := range pages {
			if fold[i] != f {
				continue
			}
			t := res.Thresholds[styleOf(p)]
			res.Pages[i] = scorePage(labs[f], p, marg[i], t, &fr, &res.Overall)
			res.Pages[i].Fold = f
			fr.Pages++
		}
		fr.finish()
		if logf != nil {
			logf("fold %d: %d test pages, accuracy %.2f, content accuracy %.2f", f, fr.Pages, 100*fr.Accuracy, 100*fr.Content)
		}
		res.Folds = append(res.Folds, fr)
		res.Overall.Pages += fr.Pages
	}
	res.Overall.finish()
	return res, nil
}

func checkThreshold(t float64) error {
	if t != label.ExpectedF1 && (t < 0 || t > 1) {
		return fmt.Errorf("threshold %g: must be between 0 and 1, or label.ExpectedF1", t)
	}
	return nil
}

func styleOf(p *TrainPage) string {
	if p.Example.Style == "" {
		return label.MainStyle
	}
	return p.Example.Style
}

// sweep scores every held-out page at every threshold of the grid, fills
// r.Sweep and sets r.Thresholds to each style's best.
func (r *CVResult) sweep(pages []*TrainPage, fold []int, labs []*label.Labeller, marg [][][]float64) {
	nt := len(ThresholdGrid)
	f1 := make([]float64, len(pages)*nt)
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				p := pages[i]
				m, _ := evaluate.Lookup(evaluate.Main(p.Kind))
				pg := clonePage(p.Example.Page)
				for j, t := range ThresholdGrid {
					decide(labs[fold[i]], pg, marg[i], t)
					f1[i*nt+j] = m.Score(evaluate.OutputOf(pg), &p.Data.Gold).F1()
				}
			}
		}()
	}
	for i := range pages {
		next <- i
	}
	close(next)
	wg.Wait()

	// Mean F1 per set and threshold, then per style the mean over its sets.
	type acc struct {
		sum   []float64
		n     int
		style string
	}
	sets := map[string]*acc{}
	for i, p := range pages {
		a := sets[p.Data.Set]
		if a == nil {
			a = &acc{sum: make([]float64, nt), style: styleOf(p)}
			sets[p.Data.Set] = a
		}
		for j := range nt {
			a.sum[j] += f1[i*nt+j]
		}
		a.n++
	}
	r.Sweep = make([]SweepPoint, nt)
	styleSum := map[string][]float64{}
	for j, t := range ThresholdGrid {
		r.Sweep[j] = SweepPoint{Threshold: t, F1: map[string]float64{}}
		for name, a := range sets {
			v := a.sum[j] / float64(a.n)
			r.Sweep[j].F1[name] = v
			if styleSum[a.style] == nil {
				styleSum[a.style] = make([]float64, nt)
			}
			styleSum[a.style][j] += v
		}
	}
	for style, sum := range styleSum {
		best := 0
		for j := range sum {
			if sum[j] > sum[best] {
				best = j
			}
		}
		r.Thresholds[style] = ThresholdGrid[best]
	}
}

// heuristic scores the pages the labeller keeps nothing of, as
// sluice.Cleaner does.
var heuristic = sync.OnceValue(func() *sluice.Cleaner {
	c, err := sluice.New(sluice.Options{Filter: sluice.DefaultFilter})
	if err != nil {
		panic(err) // DefaultFilter parses
	}
	return c
})

// decide labels pg from its marginals at a threshold, and, when that keeps
// nothing, with the heuristic pipeline, whose choice stands unless the
// marginals judge it boilerplate too (sluice.FallbackFloor), as
// sluice.Cleaner does: the scores are those of the cleaner a user runs.
// It reports whether the page went to the heuristics.
func decide(lab *label.Labeller, pg *page.Page, marg [][]float64, threshold float64) (fallback bool) {
	lab.Decide(pg, marg, threshold)
	for i := range pg.Blocks {
		if pg.Blocks[i].Label != page.Other {
			return false
		}
	}
	heuristic().Fallback(pg)
	return true
}

// scorePage labels a test page from its marginals, scores it once, adds
// the scores to each of frs (its fold's and the overall result) and
// returns them.
func scorePage(lab *label.Labeller, p *TrainPage, marg [][]float64, threshold float64, frs ...*FoldResult) PageScore {
	pg := clonePage(p.Example.Page)
	fallback := decide(lab, pg, marg, threshold)
	align := p.Kind.Spec().Alignment()
	var classes []int
	if align == dataset.AlignSpans {
		classes = AlignClasses(p.Example.Page, &p.Data.Gold)
	}
	metric := evaluate.Main(p.Kind)
	m, _ := evaluate.Lookup(metric)
	out := evaluate.OutputOf(pg)
	c := m.Score(out, &p.Data.Gold)
	// A gold that labels its segments scores the labels too (CleanEval's
	// labelled mode).
	labelled := align == dataset.AlignSegments
	var lc score.Counts
	if labelled {
		lc = score.CleanEval(out.CleanEval, evaluate.GoldCleanEval(&p.Data.Gold), score.Labelled)
	}
	for _, fr := range frs {
		ss := fr.Sets[p.Data.Set]
		if ss == nil {
			ss = &SetScores{Metric: metric, PageTypes: map[string]*score.Summary{}}
			fr.Sets[p.Data.Set] = ss
		}
		for i, g := range p.Example.Labels {
			fr.confusion.Add(g, pg.Blocks[i].Label)
			ss.confusion.Add(g, pg.Blocks[i].Label)
		}
		for i, cl := range classes {
			if cl < 0 || cl >= len(ss.classes) {
				continue
			}
			ss.classes[cl].blocks++
			if pg.Blocks[i].Label != page.Other {
				ss.classes[cl].kept++
			}
		}
		ss.main.Add(c)
		if pt := p.Data.Gold.PageType; pt != "" {
			if ss.PageTypes[pt] == nil {
				ss.PageTypes[pt] = &score.Summary{}
			}
			ss.PageTypes[pt].Add(c)
		}
		if labelled {
			ss.labelled.Add(lc)
		}
	}
	return PageScore{Set: p.Data.Set, ID: p.Data.ID, PageType: p.Data.Gold.PageType, Metric: metric,
		P: c.Precision(), R: c.Recall(), F1: c.F1(), Fallback: fallback, ScoreOnly: p.ScoreOnly}
}

func (fr *FoldResult) finish() {
	fr.Accuracy = fr.confusion.Accuracy()
	fr.Content = fr.confusion.ContentAccuracy()
	for _, ss := range fr.Sets {
		ss.Accuracy = ss.confusion.Accuracy()
		ss.Content = ss.confusion.ContentAccuracy()
		ss.Classes = ss.Classes[:0]
		for c, n := range ss.classes {
			if n.blocks > 0 {
				ss.Classes = append(ss.Classes, ClassAccuracy{Class: c, Name: l3sClassNames[c], Blocks: n.blocks, Kept: float64(n.kept) / float64(n.blocks)})
			}
		}
		ss.Main = ss.main.Report()
		if ss.labelled.Pages() > 0 {
			ss.Labelled = ss.labelled.Report()
		}
	}
}

// Confusion returns the block-label confusion matrix of the fold.
func (fr *FoldResult) Confusion() *score.Confusion { return &fr.confusion }

// clonePage copies a page's blocks so that labelling does not change the
// training copy.
func clonePage(p *page.Page) *page.Page {
	c := *p
	c.Blocks = append([]page.Block(nil), p.Blocks...)
	return &c
}
