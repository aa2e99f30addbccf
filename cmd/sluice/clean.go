package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"slices"
	"strings"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/inputs"
	"github.com/sluice-project/sluice/internal/atomicfile"
	"github.com/sluice-project/sluice/internal/freelist"
	"github.com/sluice-project/sluice/internal/outdir"
	"github.com/sluice-project/sluice/internal/progress"
	"github.com/sluice-project/sluice/parallel"
	"github.com/sluice-project/sluice/parsertext"
	"github.com/sluice-project/sluice/proxy"
	"github.com/sluice-project/sluice/render"
	"github.com/sluice-project/sluice/tables"
)

// cleanCmd is sluice clean: its flags, and what validate makes of them.
type cleanCmd struct {
	cmdIO
	args []string

	format, filter, model, outDir, contentType, url, drop string
	filterSet, dropPattern, logRemoved                    string
	memory                                                string
	style                                                 string
	precision, recall                                     bool
	header, urlLine, dropped, keepHidden, noAlt, dropOnly bool
	withMetadata, allowPrivate, noTables, keepConsent     bool
	abbr, quiet, links, images, blockLangs, keepFallback  bool
	siteFlags                                             // --site multifile and its modes
	jobs                                                  int
	threshold                                             thresholdFlag
	memoryBytes                                           int64
	tables                                                render.Tables

	cleaner  *sluice.Cleaner
	fetch    *http.Client    // for addresses
	removed  *parsertext.Log // with --log-removed
	renderer render.Renderer
	out      *outdir.Dir            // with -o
	skipped  int                    // files left out below the input directories
	emptied  int                    // inputs cleaned to nothing (no main content)
	inBufs   *freelist.List[[]byte] // files' bytes, read into again (see clean)
}

func cmdClean(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runCommand("clean", &cleanCmd{cmdIO: cmdIO{stdin, stdout, stderr}}, args, stdout, stderr)
}

func (c *cleanCmd) flagSet() *flag.FlagSet {
	fs := newFlagSet("clean")
	fs.StringVar(&c.format, "format", "text", "output `format`: cleaneval, text, markdown, json, html, parser, xml (trafilatura's <doc>) or tei (TEI P5)")
	fs.StringVar(&c.format, "f", "text", "short for --format")
	fs.StringVar(&c.filter, "filter", "", "clean with a heuristic filter pipeline `expression` instead of the trained model (see \"sluice filters\"; the best measured is "+sluice.DefaultFilter+")")
	fs.StringVar(&c.model, "model", "", "clean with the labeller model in `FILE` (written by sluice train) instead of the embedded one")
	fs.StringVar(&c.filterSet, "filter-set", "", "clean as the filter set in `FILE` (.toml or .json) says: a pipeline with its parameters, or a model with its style (see \"sluice filters --help\"); --threshold, --precision and --recall override its threshold")
	fs.BoolVar(&c.precision, "precision", false, "favour precision: keep only blocks the model is sure of (threshold 0.75)")
	fs.BoolVar(&c.recall, "recall", false, "favour recall: keep blocks the model is unsure of too (threshold 0.25)")
	fs.StringVar(&c.outDir, "o", "", "write one output file per input into `DIR` (created if needed)")
	fs.BoolVar(&c.header, "cleaneval-header", false, "cleaneval format: the \"URL:\" line and the <text id=URL title=...> wrapper, as Victor writes them")
	fs.BoolVar(&c.urlLine, "cleaneval-url", false, "cleaneval format: only the \"URL:\" line, as the CleanEval gold files have it")
	fs.BoolVar(&c.dropped, "include-dropped", false, "json format: list the dropped blocks too")
	fs.Var(&c.tables, "tables", "how data tables are written (`MODE`): blocks (each cell a paragraph), linear (one clause per row), grid (markdown pipe table, html, xml and tei <table>, json \"tables\" with cell roles) or default (blocks in cleaneval and text, grid in markdown, html, json, xml and tei, linear in parser)")
	fs.StringVar(&c.contentType, "content-type", "", "HTTP Content-Type of the inputs (its charset wins over the page's)")
	fs.StringVar(&c.url, "url", "", "the page's `URL` for the metadata (default: the CleanEval wrapper's id)")
	fs.StringVar(&c.drop, "drop", "", "comma-separated `elements` to remove before cleaning, besides the default ones ("+strings.Join(sluice.DefaultDrop(), ",")+")")
	fs.BoolVar(&c.withMetadata, "with-metadata", false, "text and markdown formats: start each page with its metadata (title, url, description, language, file) as YAML front matter (json, xml and tei always have it)")
	fs.BoolVar(&c.dropOnly, "drop-only", false, "--drop replaces the default elements instead of adding to them")
	fs.StringVar(&c.dropPattern, "drop-pattern", "", "remove the div elements whose id or a class name matches the regular `expression` before cleaning (Kitten's: "+sluice.DefaultDropPattern+"; default: none)")
	fs.StringVar(&c.logRemoved, "log-removed", "", "parser format: write the list items removed (link-list items of fewer than 5 words) to `FILE`, one JSON object a line")
	fs.BoolVar(&c.keepHidden, "keep-hidden", false, "keep elements hidden by their attributes (hidden, display:none)")
	fs.BoolVar(&c.keepConsent, "keep-consent", false, "keep the panels of cookie-consent managers (told by id and class names such as onetrust-banner-sdk or cookie-notice)")
	fs.BoolVar(&c.keepFallback, "keep-fallback", false, "of a page the model keeps nothing of, keep the text the heuristic pipeline chooses even when the model judges it boilerplate too (by default such a page, a footer or a script's empty shell, comes out empty, with a warning); also makes the description of a page whose body has no text its text")
	fs.BoolVar(&c.noAlt, "no-alt", false, "drop the alt text of images")
	fs.BoolVar(&c.abbr, "abbr-titles", false, "append the titles of abbr and acronym elements to their text")
	fs.BoolVar(&c.links, "links", false, "markdown, html, json, xml and tei formats: keep the links ([anchor](href), <a href>, \"links\" per block, <ref target>)")
	fs.BoolVar(&c.images, "images", false, "markdown, html, json, xml and tei formats: keep the images with their src and alt (![alt](src), <img>, \"images\" per block, <graphic>)")
	fs.Var(&c.threshold, "threshold", "keep blocks scoring at least this (0 to 1; lower keeps more), or ef: keep on each page the blocks that maximise the expected F1 under the model; default: the model's rule for the style, chosen by cross-validation, or 0.5 with --filter")
	fs.StringVar(&c.style, "style", "", "what counts as content, for the model: main (the default: the main content, as most benchmarks annotate it) or cleaneval (all running text, as CleanEval's annotators kept it: listings, teasers, comments)")
	fs.IntVar(&c.jobs, "j", runtime.GOMAXPROCS(0), "clean this many inputs in parallel")
	fs.StringVar(&c.memory, "memory", defaultMemory, memoryHelp)
	fs.BoolVar(&c.quiet, "q", false, "do not print warnings")
	fs.BoolVar(&c.noTables, "no-tables", false, "leave the data tables out, their cells' text too (layout tables are read as text)")
	fs.BoolVar(&c.blockLangs, "block-languages", false, "json: the language of each block in another than its page's (adds about a quarter to the cleaning time: docs/langid.md)")
	fs.BoolVar(&c.allowPrivate, "allow-private", false, "fetch addresses on private, loopback and link-local networks too (refused by default)")
	c.siteFlags.register(fs)
	return fs
}

// validate makes the cleaner and the renderer the flags ask for.
func (c *cleanCmd) validate(args []string) error {
	c.args = args
	if err := c.checkSite(); err != nil {
		return err
	}
	if err := checkJobs(c.jobs); err != nil {
		return err
	}
	var err error
	if c.memoryBytes, err = parseMemory(c.memory); err != nil {
		return err
	}
	if c.outDir != "" {
		if err := outdir.Check(c.outDir, args); err != nil {
			return err
		}
	}
	opts := sluice.Options{Filter: c.filter, KeepHidden: c.keepHidden, KeepConsent: c.keepConsent, KeepFallback: c.keepFallback, NoImageAlt: c.noAlt, AbbrTitles: c.abbr, Links: c.links, Images: c.images, Threshold: float64(c.threshold), Style: c.style, DropPattern: c.dropPattern}
	switch {
	case c.keepFallback && c.filter != "":
		return errors.New("--keep-fallback is for the trained model: a --filter pipeline always keeps the text its fallback chooses")
	case c.precision && c.recall:
		return errors.New("--precision and --recall pull opposite ways; give one")
	case (c.precision || c.recall) && c.threshold != 0:
		return errors.New("--threshold and --precision or --recall all set the threshold; give one")
	case c.precision:
		opts.Threshold = 0.75
	case c.recall:
		opts.Threshold = 0.25
	}
	if c.drop != "" || c.dropOnly {
		opts.Drop = splitList(c.drop)
		if !c.dropOnly {
			opts.Drop = append(sluice.DefaultDrop(), opts.Drop...)
		}
	}
	if c.cleaner, err = newCleaner(opts, c.model, c.filterSet); err != nil {
		return err
	}
	if err := c.readReference(); err != nil {
		return err
	}
	ropts := render.Options{CleanEvalHeader: c.header || c.urlLine, CleanEvalWrapper: c.header, IncludeDropped: c.dropped, Tables: c.tables, Metadata: c.withMetadata, BlockLanguages: c.blockLangs}
	if c.logRemoved != "" {
		if c.removed, err = newRemovalLog(c.logRemoved, c.format); err != nil {
			return err
		}
		ropts.Parser.Removed = c.removed.Removed
	}
	c.renderer, err = render.Lookup(c.format, ropts)
	if err != nil {
		return fmt.Errorf("--format: %w", err)
	}
	switch c.renderer.(type) {
	case render.Text, render.Markdown:
	default:
		if c.withMetadata {
			return fmt.Errorf("--with-metadata: only the text and markdown formats take a front matter (json, xml and tei have the metadata always), not %s", c.format)
		}
	}
	switch c.renderer.(type) {
	case render.Markdown, render.HTML, *render.JSON, render.XML, render.TEI:
	default:
		if c.links || c.images {
			flag := "--images"
			if c.links {
				flag = "--links"
			}
			return fmt.Errorf("%s: only the markdown, html, json, xml and tei formats keep links and images, not %s", flag, c.format)
		}
	}
	if _, json := c.renderer.(*render.JSON); c.dropped && !json {
		return fmt.Errorf("--include-dropped: only the json format lists the dropped blocks, not %s", c.format)
	}
	return nil
}

// run cleans the inputs in parallel and writes the results in input order.
func (c *cleanCmd) run(ctx context.Context) int {
	if c.site != "" {
		return c.runSite(ctx)
	}
	srcs, bad, code := c.start()
	if code >= 0 {
		return code
	}
	if c.out != nil {
		defer c.out.Close()
	}
	failed := bad
	// Several inputs to one output form a stream, with the format's
	// separators; a single input is written as a standalone document.
	var stream *render.Stream
	if c.outDir == "" && len(srcs) > 1 {
		stream = render.NewStream(c.stdout, c.renderer)
	}
	bar := progress.New(c.stderr, "clean", len(srcs))
	defer bar.Finish()
	i := 0
	// Inputs are admitted to cleaning by their estimated cost within
	// --memory, which is also the runtime's soft limit.
	setMemoryLimit(c.memoryBytes)
	mem := parallel.NewBudget(c.memoryBytes - 128<<20)
	weight := func(s inputs.Source) int64 { return sourceCost(s, 16<<20) }
	for o, err := range parallel.Map(ctx, slices.Values(srcs), c.clean, parallel.Options[inputs.Source]{Jobs: c.jobs, Budget: mem, Weight: weight}) {
		s := srcs[i]
		i++
		bar.Add(1)
		c.warn(s, o.warn)
		if err != nil {
			fmt.Fprintf(c.stderr, "sluice clean: %s: %v\n", s.Name, err)
			failed++
			continue
		}
		if o.res != nil && o.res.Empty() {
			c.emptied++
		}
		ok, stop := c.output(stream, i-1, s, o)
		if !ok {
			failed++
		}
		if stop {
			break // the output is gone; the remaining inputs cannot be written
		}
	}
	failed += c.closeOutputs(stream, failed)
	return c.finish(failed, len(srcs)+bad)
}

// start finds the inputs, reporting those that cannot be (failed counts
// them), prepares fetching addresses and opens the output directory of -o.
// code is the exit code when nothing can be done, else -1.
func (c *cleanCmd) start() (srcs []inputs.Source, failed, code int) {
	srcs, errs := c.expand()
	c.inBufs = freelist.New[[]byte](0)
	if slices.ContainsFunc(srcs, func(s inputs.Source) bool { return s.URL != "" }) {
		c.fetch = proxy.NewFetchClient(proxy.FetchOptions{AllowPrivate: c.allowPrivate, MaxBody: 16 << 20, EnvProxy: true})
	}
	for _, e := range errs {
		fmt.Fprintf(c.stderr, "sluice clean: %v\n", e)
	}
	if c.outDir != "" {
		if c.out, code = c.openOutDir(srcs); c.out == nil {
			return nil, 0, code
		}
	}
	return srcs, len(errs), -1
}

// warn prints the warnings of source s, unless -q.
func (c *cleanCmd) warn(s inputs.Source, warn []string) {
	if !c.quiet {
		for _, w := range warn {
			fmt.Fprintf(c.stderr, "sluice clean: %s: warning: %s\n", s.Name, w)
		}
	}
}

// output writes the cleaned source i, s, and reports a failure to write
// it or the damage of its input: ok is false then, and stop true when
// nothing more can be written (the stream is gone).
func (c *cleanCmd) output(stream *render.Stream, i int, s inputs.Source, o cleaned) (ok, stop bool) {
	ok = true
	if c.removed != nil {
		c.removed.SetInput(s.Name)
	}
	if err := c.write(stream, i, o.res); err != nil {
		fmt.Fprintf(c.stderr, "sluice clean: %s: writing output: %v\n", s.Name, err)
		ok, stop = false, stream != nil
	}
	if o.damaged != nil {
		fmt.Fprintf(c.stderr, "sluice clean: %s: damaged: %v; its text before the damage was written\n", s.Name, o.damaged)
		ok = false
	}
	return ok, stop
}

// closeOutputs closes the stream of several inputs, makes the files of -o
// durable and writes the log of --log-removed; it returns the failures (a
// failure to close the stream counts only when nothing failed before).
func (c *cleanCmd) closeOutputs(stream *render.Stream, failed int) int {
	n := 0
	if stream != nil {
		if err := stream.Close(); err != nil && failed == 0 {
			fmt.Fprintf(c.stderr, "sluice clean: writing output: %v\n", err)
			n++
		}
	}
	if err := c.out.Sync(); err != nil {
		fmt.Fprintf(c.stderr, "sluice clean: %v\n", err)
		n++
	}
	if c.removed != nil { // written whole, replacing the file, at the end
		if err := atomicfile.WriteFile(c.logRemoved, c.removed.Bytes(), 0o644); err != nil {
			fmt.Fprintf(c.stderr, "sluice clean: --log-removed %s: %v\n", c.logRemoved, err)
			n++
		}
	}
	return n
}

// expand finds the inputs, leaving the output directory out and warning of
// the files left out below the directories.
func (c *cleanCmd) expand() ([]inputs.Source, []error) {
	w := inputs.Walker{Exclude: c.outDir, URLs: true, OnSkip: func(p, reason string) {
		c.skipped++
		if !c.quiet {
			fmt.Fprintf(c.stderr, "sluice clean: %s: warning: skipped: %s\n", p, reason)
		}
	}}
	return w.Expand(c.args)
}

// openOutDir names the outputs and opens the output directory, or says
// why not (nil and the exit code): nothing is written when two inputs
// would have the same output or an output would replace an input.
func (c *cleanCmd) openOutDir(srcs []inputs.Source) (*outdir.Dir, int) {
	out, errs := outdir.Plan(c.outDir, srcs, render.Ext(c.format))
	if len(errs) > 0 {
		for _, e := range errs {
			fmt.Fprintf(c.stderr, "sluice clean: -o %s: %v\n", c.outDir, e)
		}
		fmt.Fprintf(c.stderr, "sluice clean: nothing written: each input needs an output name of its own (see -o in sluice clean --help)\n")
		return nil, exitUsage
	}
	if err := out.Open(); err != nil {
		fmt.Fprintf(c.stderr, "sluice clean: -o: %v\n", err)
		return nil, exitFailed
	}
	return out, exitOK
}

// finish reports what was skipped and failed, and returns the exit code.
func (c *cleanCmd) finish(failed, inputs int) int {
	if c.skipped > 0 && !c.quiet {
		fmt.Fprintf(c.stderr, "sluice clean: %d files below the input directories skipped (see the warnings above; name a file as an argument to clean it)\n", c.skipped)
	}
	if c.emptied > 0 && inputs > 1 && !c.quiet {
		fmt.Fprintf(c.stderr, "sluice clean: %d of %d inputs kept nothing (no main content found; see the warnings above): their outputs are empty\n", c.emptied, inputs)
	}
	if failed > 0 {
		fmt.Fprintf(c.stderr, "sluice clean: %d of %d inputs failed\n", failed, inputs)
		return exitFailed
	}
	return exitOK
}

// cleaned is one input cleaned: the result and the warnings on the way.
type cleaned struct {
	res     *sluice.Result
	warn    []string
	damaged error // the input was damaged; res is its text before the damage
}

// clean reads and cleans one input. A damaged input that still gave bytes
// (a gzip file cut short) is cleaned from them, and reported as damaged:
// the run fails, as sluice corpus does for it.
func (c *cleanCmd) clean(ctx context.Context, s inputs.Source) (cleaned, error) {
	var o cleaned
	buf := c.inBufs.Get()
	in, damaged, err := c.input(ctx, s, *buf)
	o.damaged = damaged
	if err == nil {
		o.res, err = c.cleaner.Clean(ctx, in)
	}
	// Clean keeps nothing of in.Data, so a file's buffer reads a later
	// one (about a tenth of a run's allocation), unless it is large.
	if s.URL == "" && cap(in.Data) <= maxKeptInput {
		*buf = in.Data[:0]
		c.inBufs.Put(buf)
	}
	if err == nil {
		c.finishPage(s, o.res)
	}
	if o.res != nil {
		o.warn = append(o.warn, o.res.Warnings...)
	}
	return o, err
}

// maxKeptInput is the largest file buffer clean keeps for the next file;
// the free list keeps a few, so that some MiB stay held at most.
const maxKeptInput = 1 << 20

// input reads source s, a file (into buf's memory, see inputs.ReadInto) or
// an address, as the page to clean; a damaged file that still gave bytes
// is read with damaged set.
func (c *cleanCmd) input(ctx context.Context, s inputs.Source, buf []byte) (in sluice.Input, damaged, err error) {
	in = sluice.Input{ContentType: c.contentType, URL: c.url}
	if s.URL != "" {
		var pg *proxy.Page
		if pg, err = proxy.Fetch(ctx, c.fetch, s.URL, ""); err == nil {
			in.Data, in.ContentType, in.URL = pg.Body, cmp.Or(c.contentType, pg.ContentType), cmp.Or(c.url, pg.URL)
		}
		return in, nil, fetchHint(err)
	}
	if in.Data, err = inputs.ReadInto(buf, s.Path, c.stdin, maxRead); err != nil && len(in.Data) > 0 {
		damaged, err = err, nil
	}
	return in, damaged, err
}

// finishPage applies --no-tables to the cleaned page of s and records the
// file it came from.
func (c *cleanCmd) finishPage(s inputs.Source, res *sluice.Result) {
	if c.noTables {
		tables.DropData(res.Page)
	}
	if s.Path != "" {
		res.Page.Meta.File = s.Name
	}
}

// fetchHint adds to a refusal of a private address how to lift it.
func fetchHint(err error) error {
	var ref *proxy.Refusal
	if errors.As(err, &ref) && ref.Rule.Liftable() {
		return fmt.Errorf("%w (--allow-private fetches it)", err)
	}
	return err
}

// write writes the result of source i: to the stream, to stdout, or to
// its file in the output directory.
func (c *cleanCmd) write(stream *render.Stream, i int, res *sluice.Result) error {
	switch {
	case stream != nil:
		return stream.WritePage(res.Page)
	case c.out == nil:
		return c.renderer.Render(c.stdout, res.Page)
	}
	return c.out.Write(i, func(w io.Writer) error { return c.renderer.Render(w, res.Page) })
}

func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}
