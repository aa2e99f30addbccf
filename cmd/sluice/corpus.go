package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/corpus"
	"github.com/sluice-project/sluice/inputs"
	"github.com/sluice-project/sluice/internal/progress"
	"github.com/sluice-project/sluice/site"
)

// corpusCmd is sluice corpus: its flags, and what validate makes of them.
type corpusCmd struct {
	cmdIO
	args []string

	out, format, filter, model, maxRecord, partSize, siteMemory, memory, sitePrior string
	style, filterSet, languages                                                    string
	jobs, partRecords, siteBatch, dedupParas, nearWindow, sitePages                int
	force, resume, quiet, verbose, jsonSummary                                     bool
	site                                                                           corpusSite
	links, images, noTables, blockLangs                                            bool
	nearDup, prior                                                                 float64

	maxRecordBytes, partBytes, siteBytes, memoryBytes int64
	cleaner                                           *sluice.Cleaner
}

func cmdCorpus(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runCommand("corpus", &corpusCmd{cmdIO: cmdIO{stdin, stdout, stderr}}, args, stdout, stderr)
}

func (c *corpusCmd) flagSet() *flag.FlagSet {
	fs := newFlagSet("corpus")
	fs.StringVar(&c.out, "o", "", "write the corpus into `DIR` (required; created if needed)")
	fs.StringVar(&c.format, "format", corpus.FormatJSONL, "output `format`: jsonl, jsonl.gz, jsonl.zst (each line compressed on its own), cleaneval or warc")
	fs.StringVar(&c.format, "f", corpus.FormatJSONL, "short for --format")
	fs.IntVar(&c.jobs, "j", runtime.GOMAXPROCS(0), "clean this many pages in parallel")
	fs.BoolVar(&c.links, "links", false, "jsonl: each block's links (anchor text and address), as sluice clean --links")
	fs.BoolVar(&c.images, "images", false, "jsonl: each block's images (address and alt text), as sluice clean --images")
	fs.BoolVar(&c.noTables, "no-tables", false, "leave the data tables out, their cells' text too")
	fs.StringVar(&c.languages, "language", "", "keep only the pages in these `languages` (ISO 639-1 codes, comma-separated: en,fr), as told from their text; the others are skipped as \"language\"")
	fs.BoolVar(&c.blockLangs, "block-languages", false, "jsonl: the language of each block in another than its page's (adds about a quarter to the cleaning time: docs/langid.md)")
	fs.IntVar(&c.dedupParas, "dedup-paragraphs", 0, "drop from each page the paragraphs that `N` earlier pages held (1: keep only the first copy; 0: off), as CCNet does; with --site, after the site model")
	fs.Float64Var(&c.nearDup, "near-dup", 0, "skip a page whose kept text resembles an earlier page's at least this much (`similarity` 0 to 1, Jaccard of word shingles by MinHash; 0.8 catches syndicated copies; 0: off); the first page of a group, in the order written, is kept")
	fs.IntVar(&c.nearWindow, "near-dup-window", corpus.DefaultNearDuplicateWindow, "with --near-dup: compare a page with the last `N` pages written (about 2.6 KB each, from --memory); raise it for input sorted by host, where copies on other hosts are far apart")
	fs.StringVar(&c.maxRecord, "max-record", "16M", "skip records (and HTML files) larger than `SIZE` as \"too large\" (K, M, G: KiB, MiB, GiB)")
	fs.IntVar(&c.partRecords, "part-records", corpus.DefaultPartRecords, "start a new part after `N` pages (jsonl, warc)")
	fs.StringVar(&c.memory, "memory", defaultMemory, memoryHelp)
	fs.StringVar(&c.partSize, "part-size", "512M", "start a new part after `SIZE` bytes (jsonl, warc)")
	fs.StringVar(&c.filter, "filter", "", "clean with a heuristic filter pipeline `expression` instead of the trained model (see \"sluice filters\")")
	fs.StringVar(&c.model, "model", "", "clean with the labeller model in `FILE` (written by sluice train) instead of the embedded one")
	fs.StringVar(&c.style, "style", "", "what counts as content, for the model: main (the default: the main content) or cleaneval (all running text, as CleanEval kept it)")
	fs.StringVar(&c.filterSet, "filter-set", "", "clean as the filter set in `FILE` (.toml or .json) says: a pipeline with its parameters, or a model with its style (see \"sluice filters --help\")")
	fs.Var(&c.site, "site", "clean the pages of one host against each other with a model of what recurs on many of them (see above; --site=model is the same, --site=whole learns from the whole input first)")
	fs.IntVar(&c.sitePages, "site-pages", site.DefaultLearnPages, "with --site=whole: learn a host's model from its first `N` pages")
	fs.IntVar(&c.siteBatch, "site-batch", site.DefaultBatchSize, "with --site: correct a host's pages `N` at a time")
	fs.StringVar(&c.siteMemory, "site-memory", "128M", "with --site: hold at most `SIZE` of cleaned pages (K, M, G)")
	fs.StringVar(&c.sitePrior, "site-prior", "", "with --site and the trained model: the weight `W` of the path prior, from 0 (off) to 1 (default 0.9)")
	fs.BoolVar(&c.force, "force", false, "start the output over: remove the corpus files already in DIR")
	fs.BoolVar(&c.resume, "resume", true, "resume the output in DIR (--resume=false is --force)")
	fs.BoolVar(&c.quiet, "q", false, "do not report failed records one by one")
	fs.BoolVar(&c.verbose, "v", false, "report skipped records one by one too")
	fs.BoolVar(&c.jsonSummary, "json", false, "print the summary as JSON (as in DIR/summary.json)")
	return fs
}

// validate checks the flags, reads the sizes and makes the cleaner.
func (c *corpusCmd) validate(args []string) error {
	c.args = args
	if c.out == "" {
		return errors.New("-o DIR is required: the directory the corpus goes to (see sluice corpus --help)")
	}
	if err := checkJobs(c.jobs); err != nil {
		return err
	}
	if len(args) == 0 {
		return errors.New("no inputs: give WARC or ARC files, directories, or - for a list on standard input")
	}
	var err error
	if c.maxRecordBytes, err = parseSize(c.maxRecord); err != nil {
		return fmt.Errorf("--max-record: %w", err)
	}
	if c.memoryBytes, err = parseMemory(c.memory); err != nil {
		return err
	}
	if c.partBytes, err = parseSize(c.partSize); err != nil {
		return fmt.Errorf("--part-size: %w", err)
	}
	if c.partRecords <= 0 {
		return fmt.Errorf("--part-records %d: must be at least 1", c.partRecords)
	}
	if c.siteBytes, err = parseSize(c.siteMemory); err != nil {
		return fmt.Errorf("--site-memory: %w", err)
	}
	if c.siteBatch <= 0 {
		return fmt.Errorf("--site-batch %d: must be at least 1", c.siteBatch)
	}
	if c.prior, err = corpus.ParsePrior(c.sitePrior); err != nil {
		return err
	}
	for _, a := range args {
		if _, err := os.Stat(a); err != nil && (a == "model" || a == "multifile") {
			return fmt.Errorf("%s: no such input; --site takes no separate value (--site alone is the site model; WC Cleaner's multiple-file mode is sluice clean --site multifile)", a)
		}
	}
	if c.nearDup < 0 || c.nearDup > 1 {
		return fmt.Errorf("--near-dup %v: give a similarity between 0 (off) and 1", c.nearDup)
	}
	switch c.format {
	case corpus.FormatJSONL, corpus.FormatJSONLGzip, corpus.FormatJSONLZstd, corpus.FormatCleanEval, corpus.FormatWARC:
	default:
		return fmt.Errorf("--format: unknown output format %q; the formats are %s", c.format, strings.Join(corpus.Formats(), ", "))
	}
	c.cleaner, err = newCleaner(sluice.Options{Filter: c.filter, Style: c.style, Links: c.links, Images: c.images}, c.model, c.filterSet)
	if err != nil {
		return err
	}
	if _, err := corpus.SiteModelOptions(c.cleaner, site.Options{Prior: c.prior}); errors.Is(err, corpus.ErrPriorNeedsModel) {
		return fmt.Errorf("--site-prior %s: the path prior needs the trained model deciding by the expected-F1 rule, not --filter or a fixed --threshold", c.sitePrior)
	} else if err != nil {
		return err
	}
	return nil
}

// run builds the corpus, until done or interrupted, and prints the summary.
func (c *corpusCmd) run(ctx context.Context) int {
	paths, err := c.paths()
	if err != nil {
		fmt.Fprintf(c.stderr, "sluice corpus: -: %v\n", err)
		return exitFailed
	}
	bar := newCorpusBar(c.stderr)
	c.setGC()
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	sum, err := corpus.Run(ctx, c.out, paths, c.options(bar))
	bar.finish()
	if sum == nil {
		fmt.Fprintf(c.stderr, "sluice corpus: %v\n", err)
		return exitFailed
	}
	if c.jsonSummary {
		enc := json.NewEncoder(c.stdout)
		enc.SetIndent("", "  ")
		enc.Encode(sum)
	} else {
		sum.WriteText(c.stdout)
	}
	for _, e := range sum.InputErrors {
		fmt.Fprintf(c.stderr, "sluice corpus: %s: %s\n", e.Input, e.Error)
	}
	switch {
	case errors.Is(err, context.Canceled):
		fmt.Fprintf(c.stderr, "sluice corpus: interrupted; the finished inputs are recorded in %s/manifest.json: run the same command again to resume\n", c.out)
		return exitFailed
	case err != nil:
		fmt.Fprintf(c.stderr, "sluice corpus: %v\n", err)
		return exitFailed
	case len(sum.InputErrors) > 0:
		return exitFailed
	}
	return exitOK
}

// paths returns the inputs: the arguments, with "-" replaced by the list
// read from stdin.
func (c *corpusCmd) paths() ([]string, error) {
	var paths []string
	for _, a := range c.args {
		if a != "-" {
			paths = append(paths, a)
			continue
		}
		list, err := inputs.ReadList(c.stdin)
		if err != nil {
			return nil, err
		}
		paths = append(paths, list...)
	}
	return paths, nil
}

// setGC sets the collector's GOGC to corpus.GCPercent and its soft memory
// limit to --memory, unless GOGC and GOMEMLIMIT are set.
func (c *corpusCmd) setGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(corpus.GCPercent)
	}
	setMemoryLimit(c.memoryBytes)
}

// options are the corpus.Options of the flags, reporting through bar.
func (c *corpusCmd) options(bar *corpusBar) corpus.Options {
	return corpus.Options{
		Cleaner:             c.cleaner,
		Format:              c.format,
		Jobs:                c.jobs,
		MaxRecordBytes:      c.maxRecordBytes,
		Memory:              c.memoryBytes,
		PartRecords:         c.partRecords,
		PartBytes:           c.partBytes,
		Force:               c.force || !c.resume,
		Site:                c.site != "",
		SiteWhole:           c.site == "whole",
		SiteLearn:           site.LearnOptions{MaxPages: c.sitePages, Model: site.Options{Prior: c.prior}},
		NoTables:            c.noTables,
		Languages:           splitList(c.languages),
		BlockLanguages:      c.blockLangs,
		NearDuplicate:       c.nearDup,
		NearDuplicateWindow: c.nearWindow,
		ParagraphDedup:      c.dedupParas,
		SiteGroup:           site.GroupOptions{BatchSize: c.siteBatch, Model: site.Options{Prior: c.prior}},
		SiteBytes:           c.siteBytes,
		Progress:            bar.update,
		Notice:              func(s string) { bar.println("sluice corpus: " + s) },
		Report: func(p corpus.Problem) {
			if c.quiet || !p.Failed && !c.verbose {
				return
			}
			bar.println("sluice corpus: " + p.String())
		},
	}
}

// corpusSite is corpus --site, a flag that may be given alone: --site or
// --site=model is the site model, --site=whole the same learned from the
// whole input first, --site=false none. WC Cleaner's multiple-file mode is
// sluice clean's (--site multifile); --site=multifile is refused with a
// pointer to it.
type corpusSite string

func (f *corpusSite) IsBoolFlag() bool { return true }

func (f *corpusSite) String() string {
	if f == nil || *f == "" {
		return "false"
	}
	return string(*f)
}

func (f *corpusSite) Set(s string) error {
	switch strings.ToLower(s) {
	case "true", "model", "1":
		*f = "model"
	case "whole":
		*f = "whole"
	case "false", "0":
		*f = ""
	case "multifile":
		return errors.New("WC Cleaner's multiple-file mode is not in sluice corpus; clean the pages of one site with sluice clean --site multifile (--site alone is the site model)")
	default:
		return errors.New("give --site (the site model), --site=whole or --site=false")
	}
	return nil
}

// parseSize reads a size flag: inputs.ParseSize.
func parseSize(s string) (int64, error) { return inputs.ParseSize(s) }

// corpusBar draws the progress of a corpus run on one line of a terminal
// (progress.Line, corpus.Progress.String).
type corpusBar struct{ line *progress.Line }

func newCorpusBar(w io.Writer) *corpusBar { return &corpusBar{progress.NewLine(w)} }

func (b *corpusBar) println(s string) { b.line.Println(s) }
func (b *corpusBar) finish()          { b.line.Finish() }

func (b *corpusBar) update(p corpus.Progress) {
	if b.line.Enabled() && !p.Done {
		b.line.Set(p.String())
	}
}
