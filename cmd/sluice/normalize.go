package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"slices"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/inputs"
	"github.com/sluice-project/sluice/internal/outdir"
	"github.com/sluice-project/sluice/parallel"
	"github.com/sluice-project/sluice/xhtml"
)

// normalizeCmd is sluice normalize.
type normalizeCmd struct {
	cmdIO
	args                []string
	outDir, contentType string
	filter, model       string
	threshold           thresholdFlag
	jobs                int
	quiet, clean        bool
	out                 *outdir.Dir
	cleaner             *sluice.Cleaner
}

func cmdNormalize(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runCommand("normalize", &normalizeCmd{cmdIO: cmdIO{stdin, stdout, stderr}}, args, stdout, stderr)
}

func (c *normalizeCmd) flagSet() *flag.FlagSet {
	fs := newFlagSet("normalize")
	fs.StringVar(&c.outDir, "o", "", "write one .xhtml file per input into `DIR` (created if needed)")
	fs.StringVar(&c.contentType, "content-type", "", "HTTP Content-Type of the inputs (its charset wins over the page's)")
	fs.IntVar(&c.jobs, "j", runtime.GOMAXPROCS(0), "normalise this many inputs in parallel")
	fs.BoolVar(&c.quiet, "q", false, "do not print warnings")
	fs.BoolVar(&c.clean, "clean", false, "write only the content blocks (as the embedded model keeps them), with their markup")
	fs.StringVar(&c.filter, "filter", "", "with --clean: keep what the filter pipeline `expression` keeps (see sluice clean)")
	fs.StringVar(&c.model, "model", "", "with --clean: keep what the labeller model in `FILE` keeps")
	fs.Var(&c.threshold, "threshold", "with --clean: keep blocks scoring at least this (see sluice clean)")
	return fs
}

func (c *normalizeCmd) validate(args []string) error {
	c.args = args
	err := checkJobs(c.jobs)
	if !c.clean && (c.filter != "" || c.model != "" || c.threshold != 0) {
		return errors.New("--filter, --model and --threshold say what --clean keeps; give --clean too")
	}
	if err == nil && c.clean {
		c.cleaner, err = newCleaner(sluice.Options{Filter: c.filter, Threshold: float64(c.threshold)}, c.model, "")
	}
	if err != nil || c.outDir == "" {
		return err
	}
	return outdir.Check(c.outDir, args)
}

// run normalises the inputs in parallel and writes them in input order.
func (c *normalizeCmd) run(ctx context.Context) int {
	w := inputs.Walker{Exclude: c.outDir, OnSkip: func(p, reason string) { c.warn(p, "skipped: "+reason) }}
	srcs, errs := w.Expand(c.args)
	for _, e := range errs {
		fmt.Fprintf(c.stderr, "sluice normalize: %v\n", e)
	}
	if c.outDir != "" {
		if code := c.openOut(srcs); c.out == nil {
			return code
		}
		defer c.out.Close()
	}
	failed, i := len(errs), 0
	for out, err := range parallel.Map(ctx, slices.Values(srcs), c.normalize, parallel.Options[inputs.Source]{Jobs: c.jobs}) {
		i++
		for _, w := range out.warn {
			c.warn(srcs[i-1].Name, w)
		}
		switch {
		case err != nil:
		case c.out != nil:
			err = c.out.Write(i-1, func(w io.Writer) error { _, err := w.Write(out.xhtml); return err })
		default:
			_, err = c.stdout.Write(out.xhtml)
		}
		if err != nil {
			fmt.Fprintf(c.stderr, "sluice normalize: %s: %v\n", srcs[i-1].Name, err)
			failed++
		}
	}
	if err := c.out.Sync(); err != nil {
		fmt.Fprintf(c.stderr, "sluice normalize: %v\n", err)
		return exitFailed
	}
	if failed > 0 {
		fmt.Fprintf(c.stderr, "sluice normalize: %d of %d inputs failed\n", failed, len(srcs)+len(errs))
		return exitFailed
	}
	return exitOK
}

// warn prints a warning about an input, unless -q.
func (c *normalizeCmd) warn(name, msg string) {
	if !c.quiet {
		fmt.Fprintf(c.stderr, "sluice normalize: %s: warning: %s\n", name, msg)
	}
}

// openOut names the outputs and opens the output directory (c.out stays
// nil when it cannot, and the exit code says why).
func (c *normalizeCmd) openOut(srcs []inputs.Source) int {
	out, errs := outdir.Plan(c.outDir, srcs, ".xhtml")
	for _, e := range errs {
		fmt.Fprintf(c.stderr, "sluice normalize: -o %s: %v; nothing written\n", c.outDir, e)
	}
	if len(errs) > 0 {
		return exitUsage
	}
	if err := out.Open(); err != nil {
		fmt.Fprintf(c.stderr, "sluice normalize: -o: %v\n", err)
		return exitFailed
	}
	c.out = out
	return exitOK
}

// normalized is one input normalised: its XHTML and the warnings.
type normalized struct {
	xhtml []byte
	warn  []string
}

// normalize reads and normalises one input; a damaged input that still
// gave bytes is normalised, with a warning.
func (c *normalizeCmd) normalize(ctx context.Context, s inputs.Source) (o normalized, err error) {
	data, err := inputs.Read(s.Path, c.stdin, maxRead)
	if err != nil && len(data) == 0 {
		return o, err
	} else if err != nil {
		o.warn = append(o.warn, err.Error())
	}
	opts := xhtml.Options{ContentType: c.contentType}
	if c.clean {
		res, err := c.cleaner.Clean(ctx, sluice.Input{Data: data, ContentType: c.contentType})
		if err != nil {
			return o, err
		}
		opts.Content = res.Page
	}
	var b bytes.Buffer
	warns, err := xhtml.Normalize(&b, data, opts)
	o.xhtml, o.warn = b.Bytes(), append(o.warn, warns...)
	return o, err
}
