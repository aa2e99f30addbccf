// Package sluice turns raw web pages into clean, structured text: it removes
// boilerplate (navigation, ads, footers, link lists) and keeps the main
// content with its structure (headings, paragraphs, list items).
//
// A Cleaner is built once from Options and is safe for concurrent use:
//
//	c, err := sluice.New(sluice.Options{})
//	res, err := c.Clean(ctx, sluice.Input{Data: html})
//	render.Lookup("text", render.Options{}) ... // write res.Page
//
// The pipeline is ingest (charset, parse, preclean) → segment (text blocks)
// → filter (per-block content scores) → structure (labels) → render.
package sluice

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/sluice-project/sluice/filter"
	"github.com/sluice-project/sluice/htmltree"
	"github.com/sluice-project/sluice/ingest"
	"github.com/sluice-project/sluice/internal/freelist"
	"github.com/sluice-project/sluice/label"
	"github.com/sluice-project/sluice/metadata"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/segment"
	"github.com/sluice-project/sluice/structure"
)

// DefaultFilter is the best heuristic filter pipeline measured on the
// shared data sets (see README). It is not what cleans when Options.Filter
// is empty (the trained model does): it cleans the pages the model does
// not label (more blocks than MaxModelBlocks), and it is what callers who
// want a heuristic without choosing one should pass.
const DefaultFilter = "lqf>targetnode"

// FallbackFilter scores a page whose pipeline kept nothing: WC Cleaner's
// density target node always contains text when the page has any, so a
// page with text never comes out of a filter pipeline empty. (Of the
// trained model's pages it may: see FallbackFloor.)
const FallbackFilter = "targetnode"

// ExpectedF1 is the Options.Threshold that asks the trained model to keep,
// on each page, the blocks that maximise the page's expected F1 (see
// label.ExpectedF1) rather than those above a fixed threshold.
const ExpectedF1 = label.ExpectedF1

// Options configure a Cleaner. The zero value means the documented defaults.
type Options struct {
	// Filter, when set, cleans with a heuristic filter pipeline instead of
	// the trained labeller: a filter expression (see package filter: a name
	// such as "bte", "a>b" for serial, "union(a,b)", "vote(a,b,c:2;2)").
	// DefaultFilter is the best pipeline measured.
	Filter string
	// Pipeline, when not nil, is a ready filter pipeline used as Filter's
	// expression would be: one built with parameters (filter.ParseWith,
	// package filterset). Filter must then be empty.
	Pipeline filter.Filter
	// Model is a model file written by "sluice train" (label.Labeller's
	// Save). Default, when neither Model nor Filter is set: the model
	// embedded in sluice, trained on the shared data sets.
	Model []byte
	// Drop lists the elements removed before segmentation ("#comment" for
	// comments), in place of the default list; New refuses a name that is
	// not an element name. Default: ingest.DefaultDrop (DefaultDrop
	// returns a copy, to extend it).
	Drop []string
	// DropPattern, when set, is a regular expression (RE2 syntax, as
	// package regexp reads it) for the id and class names of div elements
	// removed with their content before segmentation, as Kitten drops the
	// divs whose id contains "menu" (DefaultDropPattern): it matches
	// anywhere in the id or in any one class name, unless anchored ("^",
	// "$"). New fails on an invalid expression. Default: no div dropped;
	// the trained model and the filters judge menus better on the shared
	// data sets (see docs/parser-text.md).
	DropPattern string
	// KeepHidden keeps elements marked hidden by their own attributes
	// (hidden, aria-hidden, inline display:none). Default: dropped.
	KeepHidden bool
	// KeepConsent keeps the panels of cookie-consent managers, which are
	// told by their id and class names ("onetrust-banner-sdk",
	// "cookie-notice", "gdpr-consent"; see ingest.Options.DropConsent).
	// Default: dropped, unless one holds a third of the page's text.
	KeepConsent bool
	// NoImageAlt drops the alt text of images. Default: kept as text.
	NoImageAlt bool
	// AbbrTitles appends the titles of abbr and acronym elements to their
	// text. Default: off.
	AbbrTitles bool
	// Links records the links inside the blocks (page.Page.Links: each
	// <a href>'s anchor text and href as written), which the markdown and
	// html formats of package render write as links and the json format
	// lists with each block. Default: off, at no cost.
	Links bool
	// Images records the images inside the blocks (page.Page.Images: each
	// <img>'s src and alt), which markdown and html write as images and
	// json lists with each block. Default: off, at no cost.
	Images bool
	// MaxBytes caps the input size; longer inputs are cut (with a warning).
	// Default: 16 MiB (a larger page is cut there, with a warning; parsing
	// takes about 20 bytes of memory per input byte). Negative means no cap.
	MaxBytes int
	// Threshold is the score at and above which a block is kept, or, for
	// the trained model, ExpectedF1: per page, the blocks that maximise
	// the expected F1 under the model's probabilities.
	// Default: for the trained model, the rule of its Style chosen by
	// cross-validation when it was trained (0.5 if none was); for filter
	// pipelines, 0.5.
	Threshold float64
	// Style is the annotation style the trained model labels in: what
	// counts as content (see package label). label.MainStyle (the default)
	// keeps a page's main content, as most extraction benchmarks do;
	// label.CleanEvalStyle keeps all of its running text, as CleanEval's
	// annotators did (listings, teasers, comments). The model must have been
	// trained with pages of the style; filter pipelines take none.
	Style string
	// MaxModelBlocks is the most blocks a page may have for the trained
	// model to label it: a page with more is cleaned by the heuristic
	// pipeline (DefaultFilter), with a warning. Labelling takes some 250
	// bytes per block besides the page itself, and a page of many tiny
	// blocks ("<p>a</p>" repeated) has a block every few bytes. Default:
	// DefaultMaxModelBlocks. Negative means no limit.
	MaxModelBlocks int
	// KeepFallback keeps, of a page the trained model keeps nothing of,
	// the text the heuristic pipeline chooses in its place, even when the
	// model judges that text boilerplate too. Default: such a page comes
	// out empty, with a warning (see FallbackFloor), as a page with no
	// main content should. It also gives a page whose body has no text
	// at all (one that scripts fill in) its description as its text
	// (segment.Options.Description); by default such a page comes out
	// empty, with a warning, and its description is in its metadata.
	KeepFallback bool
	// Parser is the HTML parser: "html" (x/net/html's html.Parse, the
	// tree sluice has always cleaned) or "arena" (package htmltree: the
	// same tree in an arena built from the tokenizer, faster; see
	// docs/htmltree.md for how its pages compare). Default: the
	// environment's SLUICE_PARSER when set, else "arena". New refuses
	// another name. "html" is kept for a release, for pages the new tree
	// gets wrong: it gives the same blocks, labels and text on every
	// shared page, with less exact byte spans (Block.Source).
	Parser string
}

// ParserEnv is the environment variable that chooses Options.Parser when
// it is empty, so that every command (clean, eval, corpus, serve) can be
// switched without a flag of its own.
const ParserEnv = "SLUICE_PARSER"

// DefaultDropPattern is Kitten's Options.DropPattern: the divs whose id or
// class name contains "menu". It is not applied unless asked for.
const DefaultDropPattern = "menu"

// DefaultMaxModelBlocks is the default of Options.MaxModelBlocks. A page
// of 100,000 blocks has at least a megabyte of markup; the pages of the
// shared data sets have a few thousand at most.
const DefaultMaxModelBlocks = 100_000

// CleanCost estimates the most memory cleaning an input of n bytes takes,
// for callers that admit pages to cleaning by memory (sluice corpus, the
// server): the live heap of Clean measured on the worst pages, a block
// every 11 bytes, is at most about 33 times the input's size
// (BenchmarkPathological in memory_test.go), and 2 MiB covers a small
// page's fixed costs.
func CleanCost(n int) int64 { return 40*int64(n) + 2<<20 }

// Cleaner cleans pages. It holds only configuration and is safe for
// concurrent use.
type Cleaner struct {
	labeller  *label.Labeller // nil: filter and structure decide
	filter    filter.Filter
	fallback  filter.Filter
	ingest    ingest.Options
	segment   segment.Options
	threshold float64 // of the labeller
	style     string
	maxBlocks int // of a page the labeller labels; 0 for no limit
	// keepFallback keeps the fallback pipeline's text of a page the model
	// kept nothing of, whatever the model says of it (Options.KeepFallback)
	keepFallback bool
	// threshold of the filter pipelines (and of the fallback)
	filterThreshold float64
	// builders are htmltree Builders for the arena parser, reused from
	// page to page (their trees die with Segment; the page copies what it
	// keeps): scratch, not state. A free list keeps them across garbage
	// collections, which emptied a sync.Pool every few dozen pages and
	// had the next pages grow a tree's arrays again.
	builders *freelist.List[htmltree.Builder]
}

// New builds a Cleaner; it fails on an unknown filter expression.
func New(opts Options) (*Cleaner, error) {
	var lab *label.Labeller
	switch {
	case opts.Pipeline != nil && opts.Filter != "":
		return nil, fmt.Errorf("sluice: both a filter expression (%q) and a ready pipeline (%s): give one", opts.Filter, opts.Pipeline.Name())
	case opts.Pipeline != nil:
		opts.Filter = opts.Pipeline.Name()
	case opts.Filter != "":
	case opts.Model != nil:
		l, err := label.Load(opts.Model)
		if err != nil {
			return nil, err
		}
		lab = l
	default:
		l, err := defaultLabeller()
		if err != nil {
			return nil, err
		}
		lab = l
	}
	expr := opts.Filter
	if expr == "" {
		expr = DefaultFilter
	}
	f := opts.Pipeline
	if f == nil {
		var err error
		if f, err = filter.Parse(expr); err != nil {
			return nil, err
		}
	}
	fb, err := filter.Lookup(FallbackFilter)
	if err != nil {
		return nil, err
	}
	switch {
	case opts.Threshold == ExpectedF1 && lab == nil:
		return nil, fmt.Errorf("sluice: the expected-F1 rule needs the trained model's probabilities; filter %q gives scores", opts.Filter)
	case opts.Threshold != ExpectedF1 && (opts.Threshold < 0 || opts.Threshold > 1):
		return nil, fmt.Errorf("sluice: threshold %g: must be between 0 and 1, or ExpectedF1", opts.Threshold)
	}
	c := &Cleaner{labeller: lab, filter: f, fallback: fb, segment: segment.DefaultOptions(),
		threshold: opts.Threshold, filterThreshold: opts.Threshold, style: opts.Style, keepFallback: opts.KeepFallback,
		builders: freelist.New[htmltree.Builder](0)}
	switch {
	case opts.Style != "" && lab == nil:
		return nil, fmt.Errorf("sluice: style %q: styles are for the trained model, not filter pipelines", opts.Style)
	case lab != nil && !lab.HasStyle(opts.Style):
		return nil, fmt.Errorf("sluice: the model knows no style %q (it knows %s)", opts.Style, strings.Join(lab.Styles(), ", "))
	}
	if c.threshold == 0 && lab != nil {
		c.threshold = lab.Threshold(opts.Style)
	}
	if c.ingest, err = ingestOptions(opts); err != nil {
		return nil, err
	}
	c.segment.ImageAlt = !opts.NoImageAlt
	c.segment.AbbrTitles = opts.AbbrTitles
	c.segment.Links, c.segment.Images = opts.Links, opts.Images
	c.segment.Description = opts.KeepFallback
	c.segment.FreeTree = true // Segment needs the tree no more
	c.maxBlocks = DefaultMaxModelBlocks
	switch {
	case opts.MaxModelBlocks > 0:
		c.maxBlocks = opts.MaxModelBlocks
	case opts.MaxModelBlocks < 0:
		c.maxBlocks = 0
	}
	if c.filterThreshold <= 0 {
		c.filterThreshold = structure.Threshold
	}
	return c, nil
}

// dropName is what Options.Drop accepts: an HTML element name (custom
// elements included) or "#comment".
var dropName = regexp.MustCompile(`^(?:[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*|#comment)$`)

// CheckDrop refuses a name of Options.Drop that is not an element name
// (letters, digits and hyphens, starting with a letter) or "#comment".
func CheckDrop(names []string) error {
	for _, name := range names {
		if !dropName.MatchString(name) {
			return fmt.Errorf("sluice: drop: %q is not an element name (letters, digits and hyphens, starting with a letter; or #comment)", name)
		}
	}
	return nil
}

// ingestOptions returns the ingest options of opts.
func ingestOptions(opts Options) (ingest.Options, error) {
	o := ingest.DefaultOptions()
	if opts.Drop != nil {
		if err := CheckDrop(opts.Drop); err != nil {
			return o, err
		}
		o.Drop = opts.Drop
	}
	if opts.DropPattern != "" {
		re, err := regexp.Compile(opts.DropPattern)
		if err != nil {
			return o, fmt.Errorf("sluice: drop pattern: %w", err)
		}
		o.DropPattern = re
	}
	o.DropHidden = !opts.KeepHidden
	o.DropConsent = !opts.KeepConsent
	if o.Parser = cmp.Or(opts.Parser, os.Getenv(ParserEnv), ingest.ParserArena); o.Parser != ingest.ParserHTML && o.Parser != ingest.ParserArena {
		return o, fmt.Errorf("sluice: parser %q: want %q or %q (Options.Parser, $%s)", o.Parser, ingest.ParserHTML, ingest.ParserArena, ParserEnv)
	}
	o.Inspect = metadata.ExtractNode
	switch {
	case opts.MaxBytes > 0:
		o.MaxBytes = opts.MaxBytes
	case opts.MaxBytes < 0:
		o.MaxBytes = 0
	}
	return o, nil
}

// Filter returns what decides content: "model" for the trained labeller
// ("model:STYLE" in a style other than label.MainStyle), else the
// canonical expression of the filter pipeline.
func (c *Cleaner) Filter() string {
	if c.labeller != nil {
		if c.style != "" && c.style != label.MainStyle {
			return "model:" + c.style
		}
		return "model"
	}
	return c.filter.Name()
}

// Threshold returns the score at and above which the cleaner keeps a
// block: Options.Threshold, else the trained model's rule for its style or
// the pipelines' 0.5; ExpectedF1 when the model decides per page.
func (c *Cleaner) Threshold() float64 {
	if c.labeller != nil {
		return c.threshold
	}
	return c.filterThreshold
}

// Styles returns the annotation styles the cleaner's trained model knows,
// label.MainStyle first; nil for a filter pipeline.
func (c *Cleaner) Styles() []string {
	if c.labeller == nil {
		return nil
	}
	return c.labeller.Styles()
}

// Input is one page to clean.
type Input struct {
	// Data is the raw page, in any charset.
	Data []byte
	// ContentType is the HTTP Content-Type header, when known; its charset
	// parameter takes precedence over declarations in the page.
	ContentType string
	// URL is the page's address, when known; a CleanEval wrapper's id is
	// used otherwise.
	URL string
}

// Result is a cleaned page.
type Result struct {
	// Page holds every block with its Score and Label; blocks labelled
	// page.Other are boilerplate. Render it with package render.
	Page *page.Page
	// Warnings are problems that did not stop cleaning.
	Warnings []string
}

// Clean cleans one page. It fails only when the input is empty, binary or
// the context is done; broken HTML gives a best-effort result. The Result
// keeps nothing of in.Data: the caller may reuse it once Clean returns.
func (c *Cleaner) Clean(ctx context.Context, in Input) (*Result, error) {
	res, err := c.Segment(ctx, in)
	if err != nil {
		return nil, err
	}
	if len(res.Page.Blocks) == 0 {
		res.Warnings = append(res.Warnings, noText(res.Page))
	}
	if c.labeller != nil && !c.modelLabels(res.Page) {
		res.Warnings = append(res.Warnings, fmt.Sprintf("the page has %d blocks, more than the model's limit of %d (Options.MaxModelBlocks): cleaned with the heuristic pipeline %s", len(res.Page.Blocks), c.maxBlocks, DefaultFilter))
	}
	if mean := c.score(res.Page); mean >= 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("no main content: the model judged every block boilerplate, and the text the fallback pipeline chose too (its mean content probability %.2f, under %.2f), so nothing is kept (Options.KeepFallback keeps that text)", mean, FallbackFloor))
	}
	return res, nil
}

// noText is the warning of a page whose body has no text.
func noText(p *page.Page) string {
	const w = "no main content: the page's body has no text (a page that scripts fill in, or one cut short)"
	if p.Meta.Description != "" {
		return w + "; its description is in its metadata (Options.KeepFallback makes it the text)"
	}
	return w
}

// modelLabels reports whether the labeller labels p: it has one and p
// has no more blocks than its limit.
func (c *Cleaner) modelLabels(p *page.Page) bool {
	return c.labeller != nil && (c.maxBlocks <= 0 || len(p.Blocks) <= c.maxBlocks)
}

// Segment runs the first half of Clean: it decodes, parses and segments the
// page but scores nothing (every block has Score 0 and Label Other). Score
// finishes the work; evaluations use the pair to score one segmentation
// with several pipelines.
func (c *Cleaner) Segment(ctx context.Context, in Input) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	opts := c.ingestOptions(in)
	if opts.Parser == ingest.ParserArena {
		b := c.builders.Get()
		defer func() {
			if b.Pooled() {
				c.builders.Put(b)
			}
		}()
		opts.Builder = b
	}
	doc, err := ingest.Parse(in.Data, opts)
	if err != nil {
		return nil, err
	}
	if in.URL != "" {
		doc.Meta.URL = in.URL
	}
	p := segment.Segment(doc, c.segment)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return &Result{Page: p, Warnings: doc.Warnings}, nil
}

// Score runs the cleaner's filter pipeline and labeller over an already
// segmented page, setting every block's Score and Label.
func (c *Cleaner) Score(p *page.Page) { c.score(p) }

// score is Score; it returns, for a page the model judged boilerplate
// from end to end (see Fallback), the model's mean content probability of
// the words the fallback pipeline chose, and -1 for any other page.
func (c *Cleaner) score(p *page.Page) (judged float64) {
	if c.modelLabels(p) {
		// The style was checked by New.
		_ = c.labeller.LabelStyle(p, c.style, c.threshold)
		if keptAny(p) || len(p.Blocks) == 0 {
			return -1
		}
		// The model kept nothing: fall back as the pipelines do.
		if kept, mean := c.fallBack(p); !kept {
			return mean
		}
		return -1
	}
	c.runFilters(p)
	return -1
}

// FallbackFloor is the mean content probability the trained model must
// give the words that the fallback pipeline keeps of a page the model
// kept nothing of, for Cleaner to keep them. Under it the model judges
// the pipeline's choice boilerplate as well, and the page comes out
// empty: a page whose only text is a footer, a "JavaScript required"
// notice or a bot check, the shell of a page that a script fills in.
// Held out on the shared sets (docs/experiments.md, "Pages with no main
// content"), pages whose gold is empty are among those, and an empty
// output is the right one for them. (With the expected-F1 rule, a page
// whose text the model is merely unsure of, its likeliest block at
// label.UnsureContent or more, is decided by the model and never gets
// here: docs/page-types.md, "Pages the labeller is unsure of".)
// Options.KeepFallback keeps the pipeline's text always.
const FallbackFloor = 0.2

// Fallback cleans p, a segmented page that the trained model kept
// nothing of, with the heuristic pipeline (DefaultFilter, then
// FallbackFilter when that keeps nothing), as Score does. Every block's
// Score must hold the model's content probability, as
// label.Labeller.Decide leaves it. Unless the Cleaner was made with
// Options.KeepFallback, the pipeline's choice stands only when the model
// gives its words a mean content probability of FallbackFloor or more;
// else every block is left Other, its Score the model's probability, and
// Fallback reports false.
func (c *Cleaner) Fallback(p *page.Page) (kept bool) {
	kept, _ = c.fallBack(p)
	return kept
}

// fallBack is Fallback; it also returns the model's mean content
// probability of the words the pipeline chose (0 when it chose none).
func (c *Cleaner) fallBack(p *page.Page) (kept bool, mean float64) {
	model := make([]float64, len(p.Blocks))
	for i := range p.Blocks {
		model[i] = p.Blocks[i].Score
	}
	c.runFilters(p)
	var words, sure float64
	for i := range p.Blocks {
		if p.Blocks[i].Label != page.Other {
			w := float64(p.Blocks[i].Words)
			words += w
			sure += w * model[i]
		}
	}
	if words > 0 {
		mean = sure / words
	}
	if c.keepFallback || words == 0 || mean >= FallbackFloor {
		return true, mean
	}
	for i := range p.Blocks {
		p.Blocks[i].Score, p.Blocks[i].Label = model[i], page.Other
	}
	return false, mean
}

// runFilters scores and labels p with the filter pipeline, and with the
// fallback filter when the pipeline keeps nothing.
func (c *Cleaner) runFilters(p *page.Page) {
	scores := filter.Run(c.filter, p)
	if !anyAtLeast(scores, c.filterThreshold) {
		scores = filter.Run(c.fallback, p)
	}
	for i := range p.Blocks {
		p.Blocks[i].Score = scores[i]
	}
	structure.Label(p, c.filterThreshold)
}

func (c *Cleaner) ingestOptions(in Input) ingest.Options {
	o := c.ingest
	o.ContentType = in.ContentType
	return o
}

// Empty reports whether the cleaner kept nothing of the page: a page with
// no text, or one the model judged to have no main content (see
// FallbackFloor).
func (r *Result) Empty() bool { return !keptAny(r.Page) }

// Text returns the kept text of a cleaned page, one segment per line; a
// convenience for callers that need no particular format.
func (r *Result) Text() string {
	var out []byte
	for i, b := range r.Page.Blocks {
		if b.Label == page.Other {
			continue
		}
		if len(out) > 0 {
			if b.Label == page.Continuation && i > 0 {
				out = append(out, ' ')
			} else {
				out = append(out, '\n')
			}
		}
		out = append(out, b.Text...)
	}
	return string(out)
}

// DefaultDrop returns the elements removed before segmentation by default.
func DefaultDrop() []string { return append([]string(nil), ingest.DefaultDrop...) }

func keptAny(p *page.Page) bool {
	for i := range p.Blocks {
		if p.Blocks[i].Label != page.Other {
			return true
		}
	}
	return false
}

func anyAtLeast(scores []float64, t float64) bool {
	for _, s := range scores {
		if s >= t {
			return true
		}
	}
	return false
}
