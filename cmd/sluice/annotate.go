package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/dataset"
	"github.com/sluice-project/sluice/internal/annotation"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/train"
)

// annotateCmd is sluice annotate: its flags, and what validate makes of
// them.
type annotateCmd struct {
	cmdIO
	outDir, model, gold string
	check, force, quiet bool

	cl            *sluice.Cleaner
	jobs, orphans []annotation.Job
	errs          []error // arguments that could not be read
	skipped       int     // files left out below the directories
}

func cmdAnnotate(args []string, stdout, stderr io.Writer) int {
	return runCommand("annotate", &annotateCmd{cmdIO: cmdIO{stdout: stdout, stderr: stderr}}, args, stdout, stderr)
}

func (c *annotateCmd) flagSet() *flag.FlagSet {
	fs := newFlagSet("annotate")
	fs.StringVar(&c.outDir, "o", "", "write the annotation files into `DIR` (with --check: read them from there)")
	fs.StringVar(&c.model, "model", "", "pre-fill the labels with the model in `FILE` (written by sluice train) instead of the embedded one")
	fs.StringVar(&c.gold, "gold", "", "pre-fill the labels from a CleanEval-format gold `FILE` (one page), or from DIR/NAME.txt for each page NAME.html")
	fs.BoolVar(&c.check, "check", false, "check existing annotation files against their pages instead of writing them")
	fs.BoolVar(&c.force, "force", false, "overwrite existing annotation files")
	fs.BoolVar(&c.quiet, "q", false, "do not print warnings, nor a line per file")
	return fs
}

// validate checks the flags, makes the cleaner and lists the pages.
func (c *annotateCmd) validate(args []string) error {
	switch {
	case len(args) == 0:
		return errors.New("no pages: give HTML files or directories (see sluice annotate --help)")
	case c.check && (c.model != "" || c.gold != "" || c.force):
		return errors.New("--check reads annotation files; --model, --gold and --force are for writing them")
	case c.model != "" && c.gold != "":
		return errors.New("--model and --gold are two ways to pre-fill the labels; give one")
	}
	opts := sluice.Options{}
	if c.check || c.gold != "" {
		// Only segmenting: the model need not be loaded.
		opts.Filter = sluice.DefaultFilter
	}
	if c.model != "" {
		data, err := os.ReadFile(c.model)
		if err != nil {
			return fmt.Errorf("--model: %w", err)
		}
		opts.Model = data
	}
	var err error
	if c.cl, err = sluice.New(opts); err != nil {
		return fmt.Errorf("--model %s: %w", c.model, err)
	}
	c.jobs, c.orphans, c.errs = annotation.Jobs(args, c.outDir, c.check, c.skip)
	return c.goldFiles()
}

// skip warns of a file left out below a directory argument.
func (c *annotateCmd) skip(path, reason string) {
	c.skipped++
	if !c.quiet {
		fmt.Fprintf(c.stderr, "sluice annotate: %s: warning: skipped: %s\n", path, reason)
	}
}

// goldFiles sets each job's gold file from --gold: the file itself, for one
// page, or NAME.txt in the folder.
func (c *annotateCmd) goldFiles() error {
	if c.gold == "" {
		return nil
	}
	st, err := os.Stat(c.gold)
	if err != nil {
		return fmt.Errorf("--gold: %w", err)
	}
	if !st.IsDir() && len(c.jobs) > 1 {
		return fmt.Errorf("--gold %s is one gold file for %d pages; give a folder of NAME.txt files for several pages", c.gold, len(c.jobs))
	}
	for i := range c.jobs {
		if st.IsDir() {
			c.jobs[i].Gold = filepath.Join(c.gold, strings.TrimSuffix(filepath.Base(c.jobs[i].Ann), annotation.Ext)+".txt")
		} else {
			c.jobs[i].Gold = c.gold
		}
	}
	return nil
}

// run writes or checks the annotation of every page and reports each
// failure.
func (c *annotateCmd) run(ctx context.Context) int {
	failed := len(c.errs)
	for _, e := range c.errs {
		fmt.Fprintf(c.stderr, "sluice annotate: %v\n", e)
	}
	warn := func(format string, a ...any) {
		if !c.quiet {
			fmt.Fprintf(c.stderr, "sluice annotate: "+format+"\n", a...)
		}
	}
	for _, j := range c.jobs {
		var err error
		if c.check {
			err = checkAnnotation(ctx, c.cl, j, c.stdout, c.quiet)
		} else {
			err = writeAnnotation(ctx, c.cl, j, c.model, c.force, c.stdout, c.quiet, warn)
		}
		if err != nil {
			// One line per mistake (a check reports every bad line).
			for _, e := range annotation.Unjoin(err) {
				fmt.Fprintf(c.stderr, "sluice annotate: %v\n", e)
			}
			failed++
		}
	}
	for _, o := range c.orphans {
		fmt.Fprintf(c.stderr, "sluice annotate: %s: no page for this annotation (expected %s)\n", o.Ann, o.Page)
		failed++
	}
	if c.skipped > 0 && !c.quiet {
		fmt.Fprintf(c.stderr, "sluice annotate: %d files below the input directories skipped (see the warnings above; name a file as an argument to annotate it)\n", c.skipped)
	}
	if failed > 0 {
		what := "pages"
		if c.check {
			what = "annotations"
		}
		fmt.Fprintf(c.stderr, "sluice annotate: %d of %d %s failed\n", failed, len(c.jobs)+len(c.errs)+len(c.orphans), what)
		return exitFailed
	}
	return exitOK
}

// segmentPage reads and segments a page as training does (the default
// ingest and segment options), so that its blocks are the ones the
// annotation lists.
func segmentPage(ctx context.Context, cl *sluice.Cleaner, path string) (*sluice.Result, error) {
	data, err := read(source{name: path, path: path}, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	res, err := cl.Segment(ctx, sluice.Input{Data: data})
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return res, nil
}

// ceTags finds CleanEval segment tags, to tell a gold file without any.
var ceTags = regexp.MustCompile(`(?i)<[phl]>`)

// writeAnnotation writes the annotation of one page, pre-filled by the
// cleaner's model (read from the file model, when not "") or from the
// job's gold.
func writeAnnotation(ctx context.Context, cl *sluice.Cleaner, j annotation.Job, model string, force bool, stdout io.Writer, quiet bool, warn func(string, ...any)) error {
	if !force {
		if _, err := os.Stat(j.Ann); err == nil {
			warn("%s exists and was left as it is (it may hold your corrections; --force overwrites it)", j.Ann)
			return nil
		}
	}
	res, err := segmentPage(ctx, cl, j.Page)
	if err != nil {
		return err
	}
	for _, w := range res.Warnings {
		warn("%s: warning: %s", j.Page, w)
	}
	p := res.Page
	if len(p.Blocks) == 0 {
		return fmt.Errorf("%s: the page has no text blocks to label", j.Page)
	}
	labels := make([]page.Label, len(p.Blocks))
	from := "the embedded model"
	if model != "" {
		from = model
	}
	if j.Gold != "" {
		data, err := os.ReadFile(j.Gold)
		if err != nil {
			return fmt.Errorf("%s: gold: %v", j.Page, err)
		}
		g, _ := dataset.ReadCleanEvalGold(data)
		if strings.TrimSpace(g.Text) != "" && !ceTags.MatchString(g.Raw) {
			warn("%s: no <p>, <h> or <l> tags: not a CleanEval gold? Its text is taken as one paragraph", j.Gold)
		}
		var q float64
		labels, q = train.Align(p, &g, dataset.AlignSegments)
		if q < 0.5 && g.Text != "" {
			warn("%s: only %.0f%% of the gold's words were found in %s: is it this page's gold?", j.Gold, 100*q, j.Page)
		}
		from = j.Gold
	} else {
		cl.Score(p)
		for i := range p.Blocks {
			labels[i] = p.Blocks[i].Label
		}
	}
	var buf bytes.Buffer
	if err := train.WriteAnnotation(&buf, p, labels); err != nil {
		return fmt.Errorf("%s: %v", j.Page, err)
	}
	if dir := filepath.Dir(j.Ann); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	if err := os.WriteFile(j.Ann, buf.Bytes(), 0o644); err != nil {
		return err
	}
	if !quiet {
		fmt.Fprintf(stdout, "%s: %s, labelled by %s\n", j.Ann, annotation.Describe(labels), from)
	}
	return nil
}

// checkAnnotation checks one annotation file against its page.
func checkAnnotation(ctx context.Context, cl *sluice.Cleaner, j annotation.Job, stdout io.Writer, quiet bool) error {
	data, err := os.ReadFile(j.Ann)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s: no annotation file for %s (write one with: sluice annotate %s)", j.Ann, j.Page, j.Page)
		}
		return err
	}
	res, err := segmentPage(ctx, cl, j.Page)
	if err != nil {
		return err
	}
	ann, _, err := dataset.ParseAnnotation(data)
	if err == nil {
		var labels []page.Label
		labels, err = train.ApplyAnnotation(res.Page, ann)
		if err == nil {
			if !quiet {
				fmt.Fprintf(stdout, "%s: ok, %s\n", j.Ann, annotation.Describe(labels))
			}
			return nil
		}
	}
	var out []error
	for _, e := range annotation.Unjoin(err) {
		var ae *train.AnnotationError
		switch {
		case errors.As(e, &ae) && ae.Line > 0:
			out = append(out, fmt.Errorf("%s:%d: %s", j.Ann, ae.Line, ae.Msg))
		case errors.As(e, &ae):
			out = append(out, fmt.Errorf("%s: %s", j.Ann, ae.Msg))
		default:
			out = append(out, fmt.Errorf("%s: %v", j.Ann, e))
		}
	}
	return errors.Join(out...)
}
