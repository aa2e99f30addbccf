package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/inputs"
	"github.com/sluice-project/sluice/render"
)

const cleanHelp = `
Usage: sluice clean [flags] [FILE|DIR|-]...

Cleans HTML pages: removes navigation, ads, footers and other boilerplate and
writes the main content with its structure (headings, paragraphs, list items).
Inputs are HTML files in any charset (plain or gzip-compressed), directories
(every .html, .htm, .txt or .gz file below them), or "-" for standard input
(the default). Output goes to standard output, documents separated as the
format defines, or with -o DIR to one file per input.

Examples:
  sluice clean testdata/example.html
  sluice clean --format cleaneval --cleaneval-header page.html
  curl -s https://example.org/ | sluice clean --format markdown
  sluice clean -o out/ --format json -j 4 pages/
  sluice clean --filter 'lqf>targetnode' page.html.gz   # a heuristic pipeline instead of the model
  sluice clean --model my.model --precision page.html
  sluice clean --style cleaneval --format cleaneval page.html   # keep all running text, as CleanEval did
  sluice clean --format json --include-dropped page.html | jq '.blocks[] | select(.label=="other") | .text'

By default blocks are labelled by the embedded trained model (a CRF over
block features); --filter uses a heuristic pipeline instead.
Formats: cleaneval, text, markdown, json, html. Filters: see "sluice filters".
Exit status: 0 when every input was cleaned, 1 when any failed (each failure
is reported on standard error with the input's name), 2 for a usage error.
`

type cleanFlags struct {
	format, filter, model, outDir, contentType, url, drop string
	style                                                 string
	precision, recall                                     bool
	header, urlLine, dropped, keepHidden, noAlt           bool
	abbr, quiet                                           bool
	jobs                                                  int
	threshold                                             thresholdFlag
}

func cmdClean(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var f cleanFlags
	fs := newFlagSet("clean", cleanHelp, stderr)
	fs.StringVar(&f.format, "format", "text", "output `format`: cleaneval, text, markdown, json or html")
	fs.StringVar(&f.format, "f", "text", "short for --format")
	fs.StringVar(&f.filter, "filter", "", "clean with a heuristic filter pipeline `expression` instead of the trained model (see \"sluice filters\"; the best measured is "+sluice.DefaultFilter+")")
	fs.StringVar(&f.model, "model", "", "clean with the labeller model in `FILE` (written by sluice train) instead of the embedded one")
	fs.BoolVar(&f.precision, "precision", false, "favour precision: keep only blocks the model is sure of (threshold 0.75)")
	fs.BoolVar(&f.recall, "recall", false, "favour recall: keep blocks the model is unsure of too (threshold 0.25)")
	fs.StringVar(&f.outDir, "o", "", "write one output file per input into `DIR` (created if needed)")
	fs.BoolVar(&f.header, "cleaneval-header", false, "cleaneval format: the \"URL:\" line and the <text id=URL title=...> wrapper, as Victor writes them")
	fs.BoolVar(&f.urlLine, "cleaneval-url", false, "cleaneval format: only the \"URL:\" line, as the CleanEval gold files have it")
	fs.BoolVar(&f.dropped, "include-dropped", false, "json format: list the dropped blocks too")
	fs.StringVar(&f.contentType, "content-type", "", "HTTP Content-Type of the inputs (its charset wins over the page's)")
	fs.StringVar(&f.url, "url", "", "the page's `URL` for the metadata (default: the CleanEval wrapper's id)")
	fs.StringVar(&f.drop, "drop", "", "comma-separated `elements` to remove before cleaning (default: "+strings.Join(sluice.DefaultDrop(), ",")+")")
	fs.BoolVar(&f.keepHidden, "keep-hidden", false, "keep elements hidden by their attributes (hidden, display:none)")
	fs.BoolVar(&f.noAlt, "no-alt", false, "drop the alt text of images")
	fs.BoolVar(&f.abbr, "abbr-titles", false, "append the titles of abbr and acronym elements to their text")
	fs.Var(&f.threshold, "threshold", "keep blocks scoring at least this (0 to 1; lower keeps more), or ef: keep on each page the blocks that maximise the expected F1 under the model; default: the model's rule for the style, chosen by cross-validation, or 0.5 with --filter")
	fs.StringVar(&f.style, "style", "", "what counts as content, for the model: main (the default: the main content, as most benchmarks annotate it) or cleaneval (all running text, as CleanEval's annotators kept it: listings, teasers, comments)")
	fs.IntVar(&f.jobs, "j", runtime.GOMAXPROCS(0), "clean this many inputs in parallel")
	fs.BoolVar(&f.quiet, "q", false, "do not print warnings")
	args, err := parseInterspersed(fs, args)
	if err != nil {
		return flagExit(err)
	}
	opts := sluice.Options{Filter: f.filter, KeepHidden: f.keepHidden, NoImageAlt: f.noAlt, AbbrTitles: f.abbr, Threshold: float64(f.threshold), Style: f.style}
	switch {
	case f.precision && f.recall:
		fmt.Fprintln(stderr, "sluice clean: --precision and --recall pull opposite ways; give one")
		return exitUsage
	case f.precision:
		opts.Threshold = 0.75
	case f.recall:
		opts.Threshold = 0.25
	}
	if f.drop != "" {
		opts.Drop = splitList(f.drop)
	}
	cl, err := newCleaner(opts, f.model)
	if err != nil {
		fmt.Fprintf(stderr, "sluice clean: %v\n", err)
		return exitUsage
	}
	r, err := render.Lookup(f.format, render.Options{CleanEvalHeader: f.header || f.urlLine, CleanEvalWrapper: f.header, IncludeDropped: f.dropped})
	if err != nil {
		fmt.Fprintf(stderr, "sluice clean: --format: %v\n", err)
		return exitUsage
	}
	srcs, errs := inputs.Expand(args)
	failed := len(errs)
	for _, e := range errs {
		fmt.Fprintf(stderr, "sluice clean: %v\n", e)
	}
	if f.outDir != "" {
		if err := os.MkdirAll(f.outDir, 0o755); err != nil {
			fmt.Fprintf(stderr, "sluice clean: -o: %v\n", err)
			return exitFailed
		}
	}
	// Several inputs to one output form a stream, with the format's
	// separators; a single input is written as a standalone document.
	var stream *render.Stream
	if f.outDir == "" && len(srcs) > 1 {
		stream = render.NewStream(stdout, r)
	}
	ext := formatExt(f.format)
	// Results are cleaned in parallel and written in input order.
	type outcome struct {
		res  *sluice.Result
		warn []string
		err  error
	}
	outs := make([]chan outcome, len(srcs))
	for i := range outs {
		outs[i] = make(chan outcome, 1)
	}
	jobs := max(1, f.jobs)
	sem := make(chan struct{}, jobs)
	var wg sync.WaitGroup
	ctx := context.Background()
	go func() {
		for i, s := range srcs {
			sem <- struct{}{}
			wg.Add(1)
			go func() {
				defer func() { <-sem; wg.Done() }()
				var o outcome
				var data []byte
				data, o.err = inputs.Read(s.Path, stdin, maxRead)
				if o.err != nil && len(data) > 0 {
					o.warn = append(o.warn, o.err.Error())
					o.err = nil
				}
				if o.err == nil {
					o.res, o.err = cl.Clean(ctx, sluice.Input{Data: data, ContentType: f.contentType, URL: f.url})
				}
				if o.res != nil {
					o.warn = append(o.warn, o.res.Warnings...)
				}
				outs[i] <- o
			}()
		}
		wg.Wait()
	}()
	bar := newProgress(stderr, "clean", len(srcs))
	defer bar.finish()
	for i, s := range srcs {
		o := <-outs[i]
		bar.add(1)
		if !f.quiet {
			for _, w := range o.warn {
				fmt.Fprintf(stderr, "sluice clean: %s: warning: %s\n", s.Name, w)
			}
		}
		if o.err != nil {
			fmt.Fprintf(stderr, "sluice clean: %s: %v\n", s.Name, o.err)
			failed++
			continue
		}
		switch {
		case stream != nil:
			err = stream.WritePage(o.res.Page)
		case f.outDir == "":
			err = r.Render(stdout, o.res.Page)
		default:
			err = writeFile(filepath.Join(f.outDir, outName(s.Rel, ext)), r, o.res)
		}
		if err != nil {
			fmt.Fprintf(stderr, "sluice clean: %s: writing output: %v\n", s.Name, err)
			failed++
			if stream != nil {
				break // the output is gone; the remaining inputs cannot be written
			}
		}
	}
	if stream != nil {
		if err := stream.Close(); err != nil && failed == 0 {
			fmt.Fprintf(stderr, "sluice clean: writing output: %v\n", err)
			failed++
		}
	}
	if failed > 0 {
		fmt.Fprintf(stderr, "sluice clean: %d of %d inputs failed\n", failed, len(srcs)+len(errs))
		return exitFailed
	}
	return exitOK
}

func writeFile(path string, r render.Renderer, res *sluice.Result) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := r.Render(f, res.Page); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// outName replaces the input's endings (.html, .html.gz) by ext.
func outName(rel, ext string) string {
	base := rel
	for _, e := range []string{".gz", ".html", ".htm", ".xhtml", ".shtml", ".txt"} {
		base = strings.TrimSuffix(base, e)
	}
	return base + ext
}

func formatExt(format string) string {
	switch strings.ToLower(format) {
	case "markdown", "md":
		return ".md"
	case "json":
		return ".json"
	case "html", "htm":
		return ".html"
	}
	return ".txt"
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
